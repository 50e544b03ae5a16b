import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { expectedOrder, type Row } from './sortOrder.ts';

/*
 * The Users Table sorted by a column under an e-mail fragment (`usersSortedList.ts`): a bounded
 * walk testing each user's row, then (SQLite) a bounded walk of the sorted column's index against
 * the fragment's ids from the trigram table, then the matches sorted — or (PostgreSQL) the matches
 * read from 047's index by folded address and sorted. The country follows the address here, as it
 * does in the seed: the 300 'sharma' users are the 'MM' block between 1,000 'AA' and 1,700 'ZZ'
 * users. Ascending, a row walk meets none within its budget and the walk against the ids finds
 * them 1,000 entries in; descending, 1,700 entries in, past that walk's budget too, so they are
 * sorted. Every page must be the rows' own slice in the rows' own order, with the exact total.
 */
describe.each(DIALECTS)('an e-mail fragment sorted by another column on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const USERS = 3_000;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    // Digits fold to '0' in 036's folded addresses (several users share one); some addresses
    // upper-case (the fragment matches either case); every 5th phone missing (nulls sort first
    // ascending, last descending).
    await sql`INSERT INTO app_users (id, email, name, phone, country, plan, status, device, app_version, created_at)
      WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${USERS - 1})
      SELECT i + 1,
        CASE WHEN i >= 1000 AND i < 1300
          THEN (CASE i % 3 WHEN 0 THEN 'ravi.sharma' WHEN 1 THEN 'SHARMA.asha' ELSE 'mehta.sharma.' END) || i
          ELSE 'user' || i END || '@x' || (i % 7) || '.example',
        'N' || ((i * 7919) % ${USERS}),
        CASE WHEN i % 5 = 0 THEN NULL ELSE '+91 ' || ((i * 104729) % 99991) END,
        CASE WHEN i < 1000 THEN 'AA' WHEN i < 1300 THEN 'MM' ELSE 'ZZ' END,
        CASE i % 4 WHEN 0 THEN 'premium' WHEN 1 THEN 'Premium' ELSE 'free' END,
        CASE i % 3 WHEN 0 THEN 'active' ELSE 'expired' END,
        'D' || (i % 11), '3.' || (i % 9),
        '2025-0' || (1 + i % 6) || '-1' || (i % 10) || 'T0' || (i % 7) || ':00:00.000Z'
      FROM s`.execute(t.db.kysely);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  async function expectSortedPages(
    fragment: string,
    others: Record<string, string>,
    field: string,
    order: 'asc' | 'desc',
  ) {
    const like = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const plan = others.plan ? sql`lower(plan) = ${others.plan.toLowerCase()}` : sql`1 = 1`;
    const { rows } =
      await sql<Row>`SELECT * FROM app_users WHERE email ${like} ${`%${fragment}%`} AND ${plan}`.execute(
        t.db.kysely,
      );
    const want = expectedOrder(
      rows.map((r) => ({ ...r, id: Number(r.id) })),
      field,
      order,
    );
    const limit = 40;
    const query = new URLSearchParams({ email: fragment, ...others, sort: field, order }).toString();
    for (let page = 1; page <= Math.ceil(want.length / limit) + 1; page += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/users?${query}&limit=${limit}&page=${page}`,
        headers,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const body = res.json() as { total: number; users: { id: number }[] };
      expect(body.total, `${query} total`).toBe(want.length);
      expect(
        body.users.map((u) => u.id),
        `${query} page ${page}`,
      ).toEqual(want.slice((page - 1) * limit, page * limit));
    }
  }

  it('pages a fragment met late, in the middle and soon, in both orders', async () => {
    for (const order of ['asc', 'desc'] as const)
      for (const field of ['country', 'name', 'phone', 'email', 'id', 'created_at'])
        await expectSortedPages('sharma', {}, field, order);
  }, 120_000);

  it('pages a fragment with another filter, and one holding a digit', async () => {
    for (const order of ['asc', 'desc'] as const) {
      await expectSortedPages('sharma', { plan: 'PREMIUM' }, 'country', order);
      await expectSortedPages('Sharma.asha1', {}, 'country', order);
    }
  }, 120_000);

  // PostgreSQL: a fragment with a digit, which no folded address holds, under WALK_SHARE of the
  // users ('sharma.asha12': 33 of 3,000) is read through its trigram candidates and sorted.
  it('pages a rare fragment holding a digit by every kind of column', async () => {
    for (const order of ['asc', 'desc'] as const) {
      for (const field of ['country', 'phone', 'email', 'id', 'created_at'])
        await expectSortedPages('sharma.asha12', {}, field, order);
      await expectSortedPages('sharma.asha12', { plan: 'premium' }, 'name', order);
    }
  }, 120_000);

  it('stays exact through a new user, a changed address and a removal', async () => {
    await sql`INSERT INTO app_users (id, email, name, plan, status, country, created_at)
      VALUES (5000, 'new.sharma42@x.example', 'New', 'free', 'active', 'MM', '2025-03-01T00:00:00.000Z')`.execute(
      t.db.kysely,
    );
    await t.db.kysely
      .updateTable('app_users')
      .set({ email: sql<string>`replace(email, 'user', 'sharma')` })
      .where('id', 'in', [5, 2_999])
      .execute();
    await t.db.kysely.deleteFrom('app_users').where('id', '=', 1_001).execute();
    for (const order of ['asc', 'desc'] as const) await expectSortedPages('sharma', {}, 'country', order);
  }, 120_000);
});
