import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likePattern } from '../src/lib/sql.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertUser } from './operationsFactories.ts';

/*
 * The Users Table (`usersList.ts`): totals from 020's per-day counters or one index range (032),
 * pages read walking the ids with the filters tested on each row (frequent matches, SQLite) or
 * through an index and sorted (rare ones). Whatever path a query takes, every page must be the
 * slice of the rows the filters select, newest id first, and the total their number — checked
 * here against the rows themselves for every filter alone and every pair, on both dialects,
 * through a write. PostgreSQL totals an e-mail fragment without a digit, alone or with one other
 * filter, from 036's counters per folded address (the numbers in these addresses fold to '0').
 * SQLite counts an ASCII e-mail fragment from its trigram matches (033): the
 * addresses beyond ASCII, which the trigram folds and LIKE does not, must not be counted.
 */
describe.each(DIALECTS)('the Users Table’s filters on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const plans = ['free', 'premium', 'Premium', 'pro'];
  const statuses = ['active', 'expired', 'ACTIVE', 'cancelled'];
  // 'ſharma' (long s) and 'Kumar' with a Kelvin sign: FTS5's trigram phrase folds them to 'sharma'
  // and 'kumar', LIKE does not (usersList.ts tests the addresses beyond ASCII with LIKE).
  const emails = [
    'asha.sharma',
    'ravi.kumar',
    'SHARMA.meera',
    'zoë.sharma',
    'o"brien',
    'kumari',
    '\u017fharma.x',
    '\u212aumar.y',
    // LIKE's wildcard as a plain character, and what it would match as one.
    'raj_kumar',
    'rajakumar',
  ];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    // 150 users on 20 days, several on each (the bound's own day is counted from the index, the
    // others from the counters); 'pro' is rare (under 2 %), so its pages are sorted, not walked.
    for (let i = 0; i < 150; i += 1) {
      const day = new Date(Date.UTC(2025, 0, 1 + (i % 20), (i * 5) % 24, i % 60));
      await insertUser(t.db, {
        email: `${emails[i % emails.length]}${i}@${i % 4 === 0 ? 'sharma.example' : 'garage.example'}`,
        plan: i % 100 === 7 ? 'pro' : (plans[i % 3] as string),
        status: statuses[(i * 7) % 4] as string,
        created_at: day.toISOString(),
      });
    }
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  /** The ids the filters select, newest first, from the rows themselves. */
  async function expected(query: Record<string, string>): Promise<number[]> {
    const like = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const conditions = [
      query.email !== undefined ? sql`email ${like} ${likePattern(query.email)} ESCAPE '\\'` : sql`1 = 1`,
      query.plan !== undefined ? sql`lower(plan) = ${query.plan.toLowerCase()}` : sql`1 = 1`,
      query.status !== undefined ? sql`lower(status) = ${query.status.toLowerCase()}` : sql`1 = 1`,
      query.created_from !== undefined ? sql`created_at >= ${query.created_from}` : sql`1 = 1`,
      query.created_to !== undefined ? sql`created_at <= ${query.created_to}` : sql`1 = 1`,
    ];
    const { rows } = await sql<{
      id: number;
    }>`SELECT id FROM app_users WHERE ${sql.join(conditions, sql` AND `)} ORDER BY id DESC`.execute(
      t.db.kysely,
    );
    return rows.map((r) => Number(r.id));
  }

  async function expectPages(query: Record<string, string>) {
    const want = await expected(query);
    const limit = 7;
    const label = new URLSearchParams(query).toString();
    for (let page = 1; page <= Math.ceil(want.length / limit) + 1; page += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/users?${label}&limit=${limit}&page=${page}`,
        headers,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const body = res.json() as { total: number; users: { id: number }[] };
      expect(body.total, `${label} total`).toBe(want.length);
      expect(
        body.users.map((u) => u.id),
        `${label} page ${page}`,
      ).toEqual(want.slice((page - 1) * limit, page * limit));
    }
  }

  // One value per filter, and a few more for the bounds: a day's start, mid-day, a day's end.
  const single: Record<string, string>[] = [
    { email: 'sharma' },
    { email: 'SHARMA.m' },
    { email: 'o"b' },
    { email: 'zoë' },
    { email: 'kumar' },
    // With a digit (PostgreSQL: paged and totalled in one pass, rare and frequent).
    { email: 'sharma131' },
    { email: 'sharma1' },
    { email: 'j_k' },
    { plan: 'premium' },
    { plan: 'PRO' },
    { status: 'Active' },
    { created_from: '2025-01-05T00:00:00.000Z' },
    { created_from: '2025-01-05T13:30:00.000Z' },
    { created_to: '2025-01-12T23:59:59.999Z' },
    { created_to: '2025-01-12T10:00:00.000Z' },
    // In the month's second half (PostgreSQL, 036: the month summed whole, the part beyond taken off).
    { created_from: '2025-01-17T06:00:00.000Z' },
    { created_to: '2025-01-18T12:00:00.000Z' },
  ];

  it('pages every filter alone and every pair exactly as the rows are', async () => {
    await expectPages({});
    for (const query of single) await expectPages(query);
    for (const [i, a] of single.entries())
      for (const b of single.slice(i + 1)) {
        const [ka] = Object.keys(a);
        const [kb] = Object.keys(b);
        if (ka !== kb) await expectPages({ ...a, ...b });
      }
  });

  it('stays exact through new users, a change of plan and a removal', async () => {
    await insertUser(t.db, {
      email: 'new.sharma@x.example',
      plan: 'PRO',
      created_at: '2025-01-05T14:00:00.000Z',
    });
    await t.db.kysely.updateTable('app_users').set({ plan: 'premium' }).where('plan', '=', 'free').execute();
    // An address changed: the trigram table follows it (020's triggers), old and new.
    await t.db.kysely
      .updateTable('app_users')
      .set({ email: sql<string>`replace(email, 'ravi.kumar', 'ravi.sharma')` })
      .where('email', 'like', 'ravi.kumar1%')
      .execute();
    const [last] = await expected({});
    await t.db.kysely.deleteFrom('subscriptions').where('app_user_id', '=', Number(last)).execute();
    await t.db.kysely.deleteFrom('app_users').where('id', '=', Number(last)).execute();
    for (const query of single) await expectPages(query);
    await expectPages({ plan: 'premium', created_from: '2025-01-05T13:30:00.000Z' });
    await expectPages({ email: 'sharma', status: 'active' });
    await expectPages({ email: 'kumar', plan: 'premium' });
  });
});

/*
 * 040: a deep page of one plan, status or creation bound starts at the block of ids its offset falls in, from
 * counters per block (`usersList.ts` `pageBlock`). 6,000 users inserted in one statement (the
 * triggers per statement on PostgreSQL, per row on SQLite), ids three apart across ~18 blocks with
 * a gap of empty blocks, so that pages newest first and, in the older half, oldest first both skip
 * more than a block of matches. Every page of each value must be the rows' own slice, through
 * inserts, a change of status across blocks and a removal of whole blocks.
 */
describe.each(DIALECTS)('deep pages of one plan, status or creation bound on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;

  async function insertMany(from: number, count: number, step: number) {
    await sql`INSERT INTO app_users (id, email, name, plan, status, created_at)
      WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${count - 1})
      SELECT ${from} + i * ${step}, 'bulk' || (${from} + i * ${step}) || '@blocks.example', 'Bulk',
        CASE i % 4 WHEN 0 THEN 'premium' WHEN 1 THEN 'Premium' ELSE 'free' END,
        CASE i % 3 WHEN 0 THEN 'active' WHEN 1 THEN 'ACTIVE' ELSE 'expired' END,
        '2025-0' || (1 + i % 6) || '-1' || (i % 10) || 'T0' || (i % 7) || ':00:00.000Z'
      FROM s`.execute(t.db.kysely);
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    await insertMany(10_000, 4_000, 3);
    await insertMany(40_000, 2_000, 3);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  async function expectEveryPage(param: 'plan' | 'status' | 'created_from' | 'created_to', value: string) {
    const test =
      param === 'created_from'
        ? sql`created_at >= ${value}`
        : param === 'created_to'
          ? sql`created_at <= ${value}`
          : sql`lower(${sql.ref(param)}) = ${value.toLowerCase()}`;
    const { rows } = await sql<{
      id: number;
    }>`SELECT id FROM app_users WHERE ${test} ORDER BY id DESC`.execute(t.db.kysely);
    const want = rows.map((r) => Number(r.id));
    const limit = 100;
    for (let page = 1; page <= Math.ceil(want.length / limit) + 1; page += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/users?${param}=${value}&limit=${limit}&page=${page}`,
        headers,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const body = res.json() as { total: number; users: { id: number }[] };
      expect(body.total, `${param}=${value} total`).toBe(want.length);
      expect(
        body.users.map((u) => u.id),
        `${param}=${value} page ${page}`,
      ).toEqual(want.slice((page - 1) * limit, page * limit));
    }
  }

  it('pages every value exactly as the rows are', async () => {
    await expectEveryPage('status', 'Active');
    await expectEveryPage('status', 'expired');
    await expectEveryPage('plan', 'PREMIUM');
    await expectEveryPage('plan', 'free');
    // The months beyond a bound from the counters; its own month's users on its nearer side from
    // the rows, added (a bound late in its month for `created_from`) or taken off (early).
    for (const bound of ['2025-02-01T00:00:00.000Z', '2025-03-15T03:00:00.000Z', '2025-02-20T05:00:00.000Z'])
      await expectEveryPage('created_from', bound);
    for (const bound of ['2025-05-31T23:59:59.999Z', '2025-05-10T12:00:00.000Z', '2025-01-10T00:00:00.000Z'])
      await expectEveryPage('created_to', bound);
  }, 120_000);

  it('stays exact through inserts, changes of status and removals', async () => {
    await insertMany(25_000, 1_500, 2);
    await t.db.kysely
      .updateTable('app_users')
      .set({ status: 'expired' })
      .where('id', '>=', 12_000)
      .where('id', '<', 16_000)
      .where('status', '=', 'ACTIVE')
      .execute();
    await t.db.kysely.deleteFrom('app_users').where('id', '>=', 17_000).where('id', '<', 20_000).execute();
    // Users moved to a new month (a bound's own, then one beyond it).
    await t.db.kysely
      .updateTable('app_users')
      .set({ created_at: '2025-07-02T00:00:00.000Z' })
      .where('id', '>=', 40_000)
      .where('id', '<', 43_000)
      .execute();
    await expectEveryPage('status', 'active');
    await expectEveryPage('status', 'EXPIRED');
    await expectEveryPage('plan', 'premium');
    await expectEveryPage('created_from', '2025-03-15T03:00:00.000Z');
    await expectEveryPage('created_from', '2025-07-01T00:00:00.000Z');
    await expectEveryPage('created_to', '2025-04-18T23:59:59.999Z');
  }, 120_000);
});
