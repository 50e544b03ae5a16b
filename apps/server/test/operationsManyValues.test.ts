import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertScan } from './operationsFactories.ts';

/*
 * A filter that matches more distinct values than SQLite binds variables in a statement
 * ('gmail' among a million app users: ~300,000 addresses answered 500 "too many SQL variables").
 * Past a thousand values the list goes as one JSON array (countPlan.ts valueList); 1,200
 * addresses here, alone and with a second filter, a start and an end bound: every total equals
 * the rows, never a 500.
 */
describe.each(DIALECTS)('a filter matching more values than a statement binds, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const ADDRESSES = 1_200;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < ADDRESSES; i++)
      await insertScan(t.db, {
        email: `driver${i}@gmail.com`,
        make: i % 3 === 0 ? 'Toyota' : 'Honda',
        scan_start_time: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      });
    await insertScan(t.db, { email: 'someone@example.com' });
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const hours = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
  const cases: [string, number][] = [
    ['email=gmail', ADDRESSES],
    ['email=gmail&make=toyota', ADDRESSES / 3],
    [`email=gmail&scan_start_time=${hours(600)}`, ADDRESSES - 600],
    // Each scan ends ten minutes after it starts: those starting before hour 300 end by then.
    [`email=gmail&scan_end_time=${hours(300)}`, 300],
    [`email=gmail&make=honda&scan_start_time=${hours(900)}`, 200],
  ];
  for (const [filter, expected] of cases)
    it(`answers ${filter} with its exact total`, async () => {
      for (const page of [1, 10]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/ScanDetail?${filter}&page=${page}`,
          headers,
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        expect(res.json().total, `${filter} page ${page}`).toBe(expected);
      }
    });
});
