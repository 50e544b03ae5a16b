import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAIR_VALUES } from '../src/modules/operations/countPlan.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

/*
 * A surname held by more addresses than the planner lists ('kumar', tested on the rows) with a
 * value most runs hold (ended): on PostgreSQL a deep page walks the surname's matches in the
 * time-order index first and tests the value on their rows (pairPlan.ts `fragmentFirst`, read
 * with sorting priced out), where page 1 walks the value's own index; so does a deep page of
 * 'diesel', two values no one index walks. Every page, shallow, deep
 * and in the older half (read from the oldest end), must equal the rows the filters select.
 */
describe.each(DIALECTS)('a surname with a frequent value, walked surname first, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const RUNS = 16_000;
  const hours = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
  type Row = { email: string; ended: boolean; variant: string; start: string };
  const rows: Row[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < RUNS; i++)
      rows.push({
        // Every third run is a surname's, each on its own address (more than the planner lists).
        email: i % 3 === 0 ? `kumar.${i}@mail.example` : `driver.${i}@mail.example`,
        ended: i % 20 !== 0,
        // Two values hold 'diesel', and most runs: no (value, time) index walks them both.
        variant: i % 20 === 7 ? 'Petrol' : i % 2 === 0 ? 'Diesel' : 'Diesel (BS6)',
        start: hours(i),
      });
    expect(rows.filter((r) => r.email.includes('kumar')).length).toBeGreaterThan(MAX_PAIR_VALUES);
    for (let from = 0; from < rows.length; from += 500)
      await t.db.kysely
        .insertInto('special_function_runs')
        .values(
          rows.slice(from, from + 500).map((r, k) => ({
            user_email: r.email,
            make: 'Hyundai',
            module: 'Engine',
            model: 'Creta',
            function_type: 'Reset',
            command_type: 'UDS',
            item_number: 5,
            variant: r.variant,
            license_plate: `MH12AB${from + k}`,
            scan_ended: r.ended ? 1 : 0,
            hard_coded: 0,
            scan_start_time: r.start,
            scan_end_time: new Date(Date.parse(r.start) + 60_000).toISOString(),
            scan_res_array: '[]',
          })),
        )
        .execute();
  }, 600_000);
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, (r: Row) => boolean][] = [
    ['email=kumar&scan_ended=true', (r) => r.email.includes('kumar') && r.ended],
    ['email=kumar&scan_ended=false', (r) => r.email.includes('kumar') && !r.ended],
    ['email=kumar&variant=diesel', (r) => r.email.includes('kumar') && r.variant.startsWith('Diesel')],
  ];
  for (const [filter, selects] of cases)
    it(`answers ${filter} with its exact total and rows at every depth`, async () => {
      const expected = rows.filter(selects).reverse();
      const last = Math.ceil(expected.length / 100);
      for (const page of [1, 2, 20, Math.max(1, last - 5), last, last + 1]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/SpecialFunctions?${filter}&page=${page}&limit=100`,
          headers,
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        const body = res.json() as { total: number; specialFunctions?: { user_email: string }[] };
        const list = Object.values(body).find(Array.isArray) as { user_email: string }[];
        expect(body.total, `${filter} page ${page}`).toBe(expected.length);
        expect(
          list.map((s) => s.user_email),
          `${filter} page ${page}`,
        ).toEqual(expected.slice((page - 1) * 100, page * 100).map((r) => r.email));
      }
    });
});
