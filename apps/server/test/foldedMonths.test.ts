import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldedMonthRows } from '../src/modules/operations/emailFolds.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { insertSpecialFunctionRuns } from './operationsFactories.ts';

/*
 * PostgreSQL keeps a surname's rows per month (035's folded counters). A page that many rows deep
 * needs only the newest months holding them (`foldedMonthRows`' `newest`), guessed from where the
 * table's own rows lie: a surname whose rows all lie in the older months ('reddy' below, none in
 * the newest ten) must still get every month down to its rows, and one spread evenly ('kumar')
 * only the newest; each month whole, none skipped. (`pairFragmentFirst` pages a surname read so.)
 */
describe('a surname’s newest months, on postgres', () => {
  let t: TestContext;
  const RUNS = 2_400;
  // A run every six hours: 2,400 runs over about 20 months.
  const start = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 6 * 3_600_000).toISOString();
  const email = (i: number) =>
    i % 3 === 0
      ? `kumar.${i}@mail.example`
      : i % 3 === 1 && i < RUNS / 2
        ? `reddy${i}@mail.example`
        : `d.${i}@x.example`;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    await insertSpecialFunctionRuns(
      t.db,
      Array.from({ length: RUNS }, (_, i) => ({ email: email(i), start: start(i) })),
    );
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  for (const fragment of ['kumar', 'reddy'])
    it(`reads ${fragment}'s newest months whole, as many as a page needs`, async () => {
      const all = await foldedMonthRows(t.db.kysely, 'special_function_runs', 'user_email', fragment);
      expect(all).toBeDefined();
      const months = [...(all as Map<string, number>).entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1));
      const rows = months.reduce((s, [, n]) => s + n, 0);
      expect(rows).toBe(fragment === 'kumar' ? RUNS / 3 : RUNS / 6);
      let fewer = false;
      for (const newest of [1, 50, 200, 399, 600, 799, 800]) {
        const some = await foldedMonthRows(
          t.db.kysely,
          'special_function_runs',
          'user_email',
          fragment,
          newest,
        );
        const read = [...(some as Map<string, number>).entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1));
        // The newest months, each whole, holding at least `newest` rows.
        expect(read).toEqual(months.slice(0, read.length));
        expect(read.reduce((s, [, n]) => s + n, 0)).toBeGreaterThanOrEqual(Math.min(newest, rows));
        if (read.length < months.length) fewer = true;
      }
      // A surname spread evenly needs fewer months than it has for a shallow page.
      expect(fewer).toBe(fragment === 'kumar');
    });
});
