import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAIR_VALUES } from '../src/modules/operations/countPlan.ts';
import { listedPage, surnamePairMatches } from '../src/modules/operations/emailDomains.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertSpecialFunctionRuns, type SpecialFunctionRow } from './operationsFactories.ts';
import { expectListPages } from './scanPages.ts';

/*
 * A surname held by more addresses than the planner lists ('kumar', tested on the rows) with a
 * value most runs hold (ended): on PostgreSQL a deep page walks the surname's matches in the
 * time-order index first and tests the value on their rows (pairPlan.ts `fragmentFirst`, read
 * with sorting priced out), where page 1 walks the value's own index; so does a deep page of
 * 'diesel', two values no one index walks (SQLite walks it surname first too). Every page,
 * shallow, deep and in the older half (read from the oldest end), must equal the rows the
 * filters select, newest start first.
 */
describe.each(DIALECTS)('a surname with a frequent value, walked surname first, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const RUNS = 16_000;
  const hours = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
  type Row = SpecialFunctionRow & { id: number; ended: boolean; variant: string };
  let rows: Row[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    const runs = Array.from({ length: RUNS }, (_, i) => ({
      // Every third run is a surname's, each on its own address (more than the planner lists).
      email: i % 3 === 0 ? `kumar.${i}@mail.example` : `driver.${i}@mail.example`,
      start: hours(i),
      ended: i % 20 !== 0,
      // Two values hold 'diesel', and most runs: no one (value, time) index walks them both.
      variant: i % 20 === 7 ? 'Petrol' : i % 2 === 0 ? 'Diesel' : 'Diesel (BS6)',
    }));
    expect(runs.filter((r) => r.email.includes('kumar')).length).toBeGreaterThan(MAX_PAIR_VALUES);
    const ids = await insertSpecialFunctionRuns(t.db, runs);
    rows = runs.map((r, i) => ({ ...r, id: ids[i] as number }));
  }, 600_000);
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, (r: Row) => boolean][] = [
    // The surname alone: on PostgreSQL a deep page starts at the month holding it, from its folded
    // addresses' months (emailFolds.ts `foldedMonthRows`), or from its older end.
    ['email=kumar', (r) => r.email.includes('kumar')],
    ['email=kumar&scan_ended=true', (r) => r.email.includes('kumar') && r.ended],
    ['email=kumar&scan_ended=false', (r) => r.email.includes('kumar') && !r.ended],
    ['email=kumar&variant=diesel', (r) => r.email.includes('kumar') && r.variant.startsWith('Diesel')],
  ];
  for (const [filter, selects] of cases)
    it(`pages ${filter} with its exact total, every page`, async () => {
      const expected = rows
        .filter(selects)
        .reverse()
        .map((r) => r.id);
      await expectListPages(
        t.app,
        headers,
        { path: '/api/SpecialFunctions', key: 'scans' },
        filter,
        expected,
        [100],
      );
    }, 120_000);

  // SQLite, beside values of many rows (over 150,000 at a million runs, so not reached by these
  // pages): the surname's ids looked up under the listed values in their column's sort index.
  it.skipIf(dialect !== 'sqlite')(
    'totals a surname beside values from its ids in their sort index',
    async () => {
      const kumar = rows.filter((r) => r.email.includes('kumar'));
      // Read listed and counted alone: the ids, newest first (ties: the higher id first), must
      // be exactly the surname's runs `selects` keeps, and the count theirs.
      const matches = async (
        listed: string,
        condition: RawBuilder<unknown>,
        selects: (r: Row) => boolean,
      ) => {
        const read = (readIds: boolean) =>
          surnamePairMatches(
            t.db.kysely,
            'special_function_runs',
            'user_email',
            'kumar',
            listed,
            condition,
            readIds,
          );
        const [listing, counting] = [await read(true), await read(false)];
        const expected = kumar
          .filter(selects)
          .sort((p, q) => (p.start === q.start ? q.id - p.id : p.start < q.start ? 1 : -1))
          .map((r) => r.id);
        expect(listing?.ids).toEqual(expected);
        expect(listing?.total).toBe(expected.length);
        expect(counting).toEqual({ total: expected.length });
      };
      await matches('scan_ended', sql`r.scan_ended = ${1}`, (r) => r.ended);
      await matches('scan_ended', sql`r.scan_ended = ${0}`, (r) => !r.ended);
      await matches('variant', sql`r.variant IN (${'Diesel'}, ${'Diesel (BS6)'})`, (r) =>
        r.variant.startsWith('Diesel'),
      );
      await matches('variant', sql`r.variant IN (${'Petrol'})`, (r) => r.variant === 'Petrol');
      // A page of them as a plan's `ids` reads it: newest first from an offset, or oldest first
      // from the older end.
      const listed =
        (
          await surnamePairMatches(
            t.db.kysely,
            'special_function_runs',
            'user_email',
            'kumar',
            'scan_ended',
            sql`r.scan_ended = ${1}`,
            true,
          )
        )?.ids ?? [];
      const page = async (direction: 'asc' | 'desc', limit: number, offset: number) =>
        (await listedPage(listed, direction, limit, offset).execute(t.db.kysely)).rows.map(
          (r) => (r as { id: number }).id,
        );
      expect(await page('desc', 30, 60)).toEqual(listed.slice(60, 90));
      expect(await page('asc', 30, 5)).toEqual(listed.slice(-35, -5).reverse());
      expect(await page('asc', 30, listed.length - 10)).toEqual(listed.slice(0, 10).reverse());
      expect(await page('desc', 30, listed.length)).toEqual([]);
      expect(await page('asc', 30, listed.length + 5)).toEqual([]);
      // The list's time has no sort index of its own: not answered.
      expect(
        await surnamePairMatches(
          t.db.kysely,
          'special_function_runs',
          'user_email',
          'kumar',
          'scan_start_time',
          sql`1`,
          true,
        ),
      ).toBeUndefined();
    },
  );
});
