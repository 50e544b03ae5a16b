import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAIR_VALUES } from '../src/modules/operations/countPlan.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertSpecialFunctionRuns, type SpecialFunctionRow } from './operationsFactories.ts';

/*
 * The special-function runs list with an e-mail fragment matching more addresses than the
 * planner lists (tested on the rows) and a value of one of its counted columns: the page ids are
 * walked along the value's (value, time) index with the fragment tested in 004's time-order index
 * (pairPlan.ts, as on the scans list), and the total comes from the pair counters — the domains'
 * for 'gmail', the value's own pairs for a fragment in every local part ('river'); a fragment
 * with a filter of two values ('diesel') walks the fragment's matches in that index. Every total
 * and page must equal the rows the filters select, newest start first.
 */
describe.each(DIALECTS)('special-function runs with a fragment of many addresses, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const ADDRESSES = MAX_PAIR_VALUES + 200;
  const hours = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
  type Row = SpecialFunctionRow & { functionType: string; variant: string };
  const rows: Row[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < ADDRESSES + 40; i++)
      rows.push({
        email: i < ADDRESSES ? `driver${i}@gmail.com` : `driver${i}@example.com`,
        functionType: i % 3 === 0 ? 'Reset' : 'Relearn',
        // Two values hold 'diesel': a listed filter of more than one value.
        variant: ['Diesel', 'Petrol', 'Diesel (BS6)', 'Petrol', 'CNG'][i % 5] as string,
        start: hours(i),
      });
    await insertSpecialFunctionRuns(t.db, rows);
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, (r: Row) => boolean][] = [
    ['email=gmail&function_type=reset', (r) => r.email.includes('gmail') && r.functionType === 'Reset'],
    ['email=river&function_type=reset', (r) => r.email.includes('river') && r.functionType === 'Reset'],
    ['email=river&function_type=relearn', (r) => r.email.includes('river') && r.functionType === 'Relearn'],
    // SQLite walks the fragment's matches in the time-order index, then tests each one's row.
    ['email=river&variant=diesel', (r) => r.email.includes('river') && r.variant.startsWith('Diesel')],
    ['email=gmail&variant=diesel', (r) => r.email.includes('gmail') && r.variant.startsWith('Diesel')],
  ];
  for (const [filter, selects] of cases)
    it(`answers ${filter} with its exact total and rows, shallow and deep`, async () => {
      const expected = rows.filter(selects).reverse();
      for (const page of [1, 3, 170]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/SpecialFunctions?${filter}&page=${page}&limit=10`,
          headers,
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        const body = res.json() as { total: number; specialFunctions?: { user_email: string }[] };
        const list = Object.values(body).find(Array.isArray) as { user_email: string }[];
        expect(body.total, `${filter} page ${page}`).toBe(expected.length);
        expect(list.map((s) => s.user_email)).toEqual(
          expected.slice((page - 1) * 10, page * 10).map((r) => r.email),
        );
      }
    });
});
