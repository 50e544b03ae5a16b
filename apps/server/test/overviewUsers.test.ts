import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

/**
 * Migration 020 at work: the overview's app users per plan and status and its new users of a
 * period come from `user_counts`, kept exact by triggers through inserts, updates and deletes;
 * the search finds app users by a fragment of their e-mail or name both by the e-mail index walk
 * (a fragment many share) and by the fragment's own index (a rare one, past the walk), giving
 * what a LIKE over the whole table gives.
 */

/** More users than the search walks in e-mail order (USER_WALK), so a rare fragment needs its index. */
const USERS = 20_600;
const PLANS = ['free', 'basic', 'pro'];
const STATUSES = ['active', 'trial', 'expired', 'suspended'];

const userRow = (i: number) => ({
  // Zero-padded: e-mail order is number order; every 997th is a 'fleetowner', one is 'zzrare'.
  email:
    i === USERS - 3
      ? 'zz.zzrare@example.org'
      : `u${String(i).padStart(6, '0')}@${i % 997 === 0 ? 'fleetowner' : 'mail'}.example`,
  name: i === 7 ? 'Priya Rarename' : `User ${i}`,
  plan: PLANS[i % PLANS.length] as string,
  status: STATUSES[i % STATUSES.length] as string,
  created_at: new Date(Date.UTC(2025, 0, 1) + (i % 500) * 86_400_000 + i).toISOString(),
});

describe.each(DIALECTS)('overview users and user search on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    const rows = Array.from({ length: USERS }, (_, i) => userRow(i));
    for (let i = 0; i < rows.length; i += 2000)
      await t.db.kysely
        .insertInto('app_users')
        .values(rows.slice(i, i + 2000))
        .execute();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const overview = async (from: string, to: string) => {
    const res = await t.app.inject({ url: `/api/overview?from=${from}&to=${to}`, headers });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  /** The figures as counted over the users themselves. */
  const counted = async (from: string, to: string) => {
    const k = t.db.kysely;
    const group = async (col: 'plan' | 'status') =>
      Object.fromEntries(
        (
          await sql<{
            v: string;
            n: unknown;
          }>`SELECT ${sql.ref(col)} AS v, count(*) AS n FROM app_users GROUP BY 1`.execute(k)
        ).rows.map((r) => [r.v, Number(r.n)]),
      );
    const [created] = (
      await sql<{
        n: unknown;
      }>`SELECT count(*) AS n FROM app_users WHERE created_at >= ${`${from}T00:00:00.000Z`} AND created_at <= ${`${to}T23:59:59.999Z`}`.execute(
        k,
      )
    ).rows;
    return { plans: await group('plan'), statuses: await group('status'), created: Number(created?.n) };
  };

  const shown = (body: {
    usersByPlan: { plan: string; users: number }[];
    usersByStatus: { status: string; users: number }[];
    figures: { newUsers: { value: number } };
  }) => ({
    plans: Object.fromEntries(body.usersByPlan.map((p) => [p.plan, p.users])),
    statuses: Object.fromEntries(body.usersByStatus.map((s) => [s.status, s.users])),
    created: body.figures.newUsers.value,
  });

  it('answers users by plan and status and new users from the counters, equal to the rows', async () => {
    for (const [from, to] of [
      ['2025-01-01', '2025-01-01'],
      ['2025-02-10', '2025-05-20'],
      ['2025-01-01', '2026-06-30'],
    ] as const) {
      expect(shown(await overview(from, to))).toEqual(await counted(from, to));
    }
  });

  it('stays exact after an update and a delete', async () => {
    const k = t.db.kysely;
    await k
      .updateTable('app_users')
      .set({ plan: 'pro', status: 'expired', created_at: '2025-03-03T10:00:00.000Z' })
      .where('email', 'like', 'u00001%')
      .execute();
    await k.deleteFrom('subscriptions').execute();
    await k.deleteFrom('app_users').where('email', 'like', 'u00002%').execute();
    expect(shown(await overview('2025-03-01', '2025-03-31'))).toEqual(
      await counted('2025-03-01', '2025-03-31'),
    );
    expect(shown(await overview('2025-01-01', '2026-06-30'))).toEqual(
      await counted('2025-01-01', '2026-06-30'),
    );
  });

  const searchUsers = async (q: string, limit = 5) => {
    const res = await t.app.inject({ url: `/api/search?q=${encodeURIComponent(q)}&limit=${limit}`, headers });
    expect(res.statusCode).toBe(200);
    return (res.json() as { users: { hits: { email: string }[] } }).users.hits.map((u) => u.email);
  };

  /** What a LIKE over every user gives, first `limit` in e-mail order. */
  const likeAll = async (fragment: string, limit: number, name = false) => {
    const k = t.db.kysely;
    const op = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const pattern = `%${fragment}%`;
    const found = await sql<{ email: string }>`SELECT email FROM app_users
      WHERE email ${op} ${pattern}${name ? sql` OR name ${op} ${pattern}` : sql``} ORDER BY email LIMIT ${limit}`.execute(
      k,
    );
    return found.rows.map((r) => r.email);
  };

  it('finds users by a fragment many share (the e-mail walk) as a LIKE over all does', async () => {
    expect(await searchUsers('mail.example')).toEqual(await likeAll('mail.example', 5));
    const fleet = await searchUsers('@fleetowner');
    expect(fleet).toEqual(await likeAll('@fleetowner', 5));
    expect(fleet).toHaveLength(5);
  });

  it('finds a user past the walk by a rare fragment of the e-mail or the name', async () => {
    expect(await searchUsers('zzrare@')).toEqual(['zz.zzrare@example.org']);
    expect(await searchUsers('zzrare')).toEqual(['zz.zzrare@example.org']);
    expect(await searchUsers('rarename')).toEqual(await likeAll('rarename', 5, true));
    expect(await searchUsers('rarename')).toHaveLength(1);
  });

  it('puts the whole address typed first', async () => {
    const [first] = await searchUsers('u000997@fleetowner.example');
    expect(first).toBe('u000997@fleetowner.example');
  });
});
