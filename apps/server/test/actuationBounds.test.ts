import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertActuationRun } from './operationsFactories.ts';

/*
 * The actuation runs list's "created to" bounds the list's own time column from above
 * (countPlan.ts: the days before the bound's day from 004's day counters, the bound's own day
 * counted up to the bound, and the day after it bounding page 1). Every page at two sizes must be
 * exactly the rows the bound selects, newest first (ties by id), whatever the bound's time of
 * day — and stay so through a new run and a removed one.
 */
describe.each(DIALECTS)('actuation runs created up to a time, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const runs: { id: number; created: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    // 12 days, several runs a day, some at the same time (the id breaks the tie).
    for (let i = 0; i < 70; i += 1) {
      const created = new Date(
        Date.UTC(2025, 5, 1 + (i % 12), (i * 7) % 24, i % 4 === 0 ? 0 : i),
      ).toISOString();
      runs.push({ id: await insertActuationRun(t.db, { created_at: created }), created });
    }
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  async function expectPages(to: string) {
    const bound = new Date(to).toISOString();
    const expected = runs
      .filter((r) => r.created <= bound)
      .sort((a, b) => (a.created === b.created ? b.id - a.id : a.created < b.created ? 1 : -1))
      .map((r) => r.id);
    for (const limit of [7, 3]) {
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page += 1) {
        const res = await t.app.inject({
          url: `/api/ActuationsDetail?created_to=${encodeURIComponent(to)}&limit=${limit}&page=${page}`,
          headers,
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        const body = res.json() as { total: number; actuations: { id: number }[] };
        expect(body.total, `created_to=${to} page ${page}`).toBe(expected.length);
        seen.push(...body.actuations.map((a) => a.id));
      }
      expect(seen, `created_to=${to}, ${limit} a page`).toEqual(expected);
    }
  }

  const bounds = [
    '2025-06-05T23:59:59.999Z',
    '2025-06-05T07:00:00Z',
    '2025-06-08T00:00:00Z',
    '2025-05-31T23:59:59Z',
    '2025-06-30T00:00:00Z',
  ];

  it('pages every bound exactly as the rows are', async () => {
    for (const to of bounds) await expectPages(to);
  });

  it('stays exact through a new run and a removed one', async () => {
    const created = '2025-06-05T06:30:00.000Z';
    runs.push({ id: await insertActuationRun(t.db, { created_at: created }), created });
    const gone = runs.splice(10, 1)[0];
    await t.db.kysely.deleteFrom('actuation_runs').where('id', '=', Number(gone?.id)).execute();
    for (const to of bounds) await expectPages(to);
  });
});
