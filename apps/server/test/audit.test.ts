import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { purgeAccountRecords } from '../src/lib/housekeeping.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

const DAY = 86_400_000;

describe.each(DIALECTS)('audit log on %s', (dialect) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let others: Awaited<ReturnType<typeof signedIn>>[];
  const rareIds: number[] = [];
  /** Midnight UTC a few days ago: the synthetic events lie around it, on whole and partial days. */
  const base = Math.floor(Date.now() / DAY) * DAY - 20 * DAY;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await signedIn(t.db, 'admin');
    others = [await signedIn(t.db, 'editor'), await signedIn(t.db, 'viewer')];
    // 600 events over 12 days, every 29 minutes, cycling through actions, actors and targets.
    const actions = ['sign-in', 'export', 'role-changed', 'import'];
    const actors = [admin.operator.id, others[0]?.operator.id ?? null, others[1]?.operator.id ?? null, null];
    const rows = Array.from({ length: 600 }, (_, i) => ({
      at: new Date(base + i * 29 * 60_000).toISOString(),
      operator_id: actors[i % 4] ?? null,
      action: actions[(i >> 2) % 4] as string,
      target: i % 3 === 0 ? 'scans' : i % 3 === 1 ? `invitation #${i % 7}` : null,
      details: JSON.stringify({ i }),
      address: '192.0.2.1',
      user_agent: 'seed',
    }));
    await t.db.kysely.insertInto('audit_events').values(rows).execute();
    // Two operators with few events: an e-mail fragment matching both reads each one's index.
    for (const name of ['rare-one', 'rare-two']) {
      const rare = await t.db.kysely
        .insertInto('operators')
        .values({
          email: `${name}@rare.example.org`,
          password_hash: 'x',
          role: 'viewer',
          created_at: iso(base),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      rareIds.push(rare.id);
      await t.db.kysely
        .insertInto('audit_events')
        .values(
          Array.from({ length: 9 }, (_, i) => ({
            at: new Date(base + i * 7 * 3_600_000 + (name === 'rare-one' ? 0 : 1_800_000)).toISOString(),
            operator_id: rare.id,
            action: 'export',
            target: 'scans',
            details: '{}',
            address: null,
            user_agent: null,
          })),
        )
        .execute();
    }
  });
  afterAll(() => t.close());

  const get = (url: string, headers = admin.headers) => t.app.inject({ method: 'GET', url, headers });
  /** The number of events the filters match, counted the slow, obvious way. */
  const bruteCount = async (f: {
    action?: string;
    operatorIds?: number[];
    target?: string;
    from?: string;
    to?: string;
  }) => {
    const row = await bruteFiltered(f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  /** The ids of the newest events the filters match, found the slow, obvious way. */
  const bruteNewest = async (f: Parameters<typeof bruteCount>[0], offset: number, limit: number) =>
    (
      await bruteFiltered(f)
        .select('id')
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
    ).map((r) => r.id);
  function bruteFiltered(f: Parameters<typeof bruteCount>[0]) {
    let q = t.db.kysely.selectFrom('audit_events');
    if (f.action) q = q.where('action', '=', f.action);
    if (f.operatorIds) q = q.where('operator_id', 'in', f.operatorIds);
    if (f.target) q = q.where('target', '=', f.target);
    if (f.from) q = q.where('at', '>=', f.from);
    if (f.to) q = q.where('at', '<=', f.to);
    return q;
  }
  const iso = (ms: number) => new Date(ms).toISOString();
  const day = (ms: number) => iso(ms).slice(0, 10);

  it('answers exact totals under every single filter and their combinations, and pages newest first', async () => {
    const editorEmail = others[0]?.operator.email as string;
    const cases: [string, Parameters<typeof bruteCount>[0]][] = [
      ['', {}],
      ['action=export', { action: 'export' }],
      ['action=sign-out', { action: 'sign-out' }],
      [`operator=${encodeURIComponent(editorEmail)}`, { operatorIds: [others[0]?.operator.id as number] }],
      // Matches every operator of this file: several ids.
      ['operator=%40example.com', { operatorIds: [admin.operator.id, ...others.map((o) => o.operator.id)] }],
      ['operator=rare-', { operatorIds: rareIds }],
      ['target=scans', { target: 'scans' }],
      ['target=invitation%20%233', { target: 'invitation #3' }],
      ['target=nothing', { target: 'nothing' }],
      // Whole days, partial days at either end, one partial day, open ends.
      [
        `from=${day(base + 2 * DAY)}&to=${day(base + 5 * DAY)}`,
        { from: iso(base + 2 * DAY), to: iso(base + 6 * DAY - 1) },
      ],
      [
        `from=${iso(base + 2 * DAY + 3_600_000)}&to=${iso(base + 5 * DAY + 7_200_000)}`,
        { from: iso(base + 2 * DAY + 3_600_000), to: iso(base + 5 * DAY + 7_200_000) },
      ],
      [
        `from=${iso(base + 3 * DAY + 60_000)}&to=${iso(base + 3 * DAY + 9 * 3_600_000)}`,
        { from: iso(base + 3 * DAY + 60_000), to: iso(base + 3 * DAY + 9 * 3_600_000) },
      ],
      [`from=${iso(base + 4 * DAY + 5)}`, { from: iso(base + 4 * DAY + 5) }],
      [`to=${iso(base + 7 * DAY - 5)}`, { to: iso(base + 7 * DAY - 5) }],
      [`to=${day(base + 7 * DAY)}`, { to: iso(base + 8 * DAY - 1) }],
      [`action=import&target=scans`, { action: 'import', target: 'scans' }],
      [
        `action=sign-in&operator=${encodeURIComponent(editorEmail)}&from=${day(base + DAY)}`,
        { action: 'sign-in', operatorIds: [others[0]?.operator.id as number], from: iso(base + DAY) },
      ],
    ];
    for (const [query, filters] of cases) {
      const expected = await bruteCount(filters);
      const res = await get(`/api/audit?${query}&limit=7`);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      const body = res.json();
      expect(body.total, query).toBe(expected);
      expect(body.events.length, query).toBe(Math.min(7, expected));
      // The newest events first, the same as a plain query finds, on page 1 and a later page.
      expect(
        body.events.map((e: { id: number }) => e.id),
        query,
      ).toEqual(await bruteNewest(filters, 0, 7));
      const page3 = (await get(`/api/audit?${query}&limit=7&page=3`)).json();
      expect(
        page3.events.map((e: { id: number }) => e.id),
        `${query} page 3`,
      ).toEqual(await bruteNewest(filters, 14, 7));
    }
    const first = (await get('/api/audit?action=export&limit=5')).json();
    const second = (await get('/api/audit?action=export&limit=5&page=2')).json();
    expect(second.total).toBe(first.total);
    expect(second.events[0].at <= first.events[4].at).toBe(true);
    expect(new Set([...first.events, ...second.events].map((e: { id: number }) => e.id)).size).toBe(10);
    expect((await get('/api/audit?operator=nobody-at-all')).json()).toEqual({ events: [], total: 0 });
    expect((await get('/api/audit?action=dance')).statusCode).toBe(400);
    expect((await get('/api/audit?from=yesterday')).statusCode).toBe(400);
  });

  it('records sign-in, failed sign-in (e-mail as typed, address) and sign-out with the browser, and shows an event with its details', async () => {
    const viewer = others[1] as (typeof others)[number];
    const headers = { 'user-agent': 'AuditBrowser/2.0' };
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: '  Someone.Unknown@Example.com ', password: 'nope' },
      remoteAddress: '198.51.100.7',
      headers,
    });
    expect(failed.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: viewer.operator.email, password: 'correct horse battery' },
      remoteAddress: '198.51.100.8',
      headers,
    });
    expect(ok.statusCode).toBe(200);
    const token = ok.json().token;
    await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}`, ...headers },
    });

    const list = (await get(`/api/audit?from=${day(Date.now())}`)).json();
    const [out, signIn, failure] = list.events;
    expect(failure).toMatchObject({
      action: 'sign-in-failed',
      operator_id: null,
      operator_email: null,
      target: 'Someone.Unknown@Example.com',
      details: { email: 'Someone.Unknown@Example.com', reason: 'unknown-email' },
      address: '198.51.100.7',
      user_agent: 'AuditBrowser/2.0',
    });
    expect(signIn).toMatchObject({
      action: 'sign-in',
      operator_id: viewer.operator.id,
      operator_email: viewer.operator.email,
      address: '198.51.100.8',
    });
    expect(out).toMatchObject({
      action: 'sign-out',
      operator_email: viewer.operator.email,
      user_agent: 'AuditBrowser/2.0',
    });
    const one = await get(`/api/audit/${failure.id}`);
    expect(one.json()).toEqual(failure);
    expect((await get('/api/audit/99999999')).statusCode).toBe(404);
  });

  it('has no route that changes or deletes events', () => {
    const writes = t.app.registeredRoutes.filter((r) => r.url.startsWith('/api/audit') && r.method !== 'GET');
    expect(writes).toEqual([]);
  });

  it('reads the retention from AUDIT_RETENTION_DAYS (365 unless set)', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '90' }).auditRetentionDays).toBe(90);
    for (const bad of ['0', '-1', '1.5', 'forever'])
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: bad })).toThrow(/AUDIT_RETENTION_DAYS must be/);
  });

  it('purges password-reset codes past their expiry, used or not', async () => {
    const now = Date.now();
    const reset = (name: string, expiresIn: number, used: boolean) =>
      t.db.kysely
        .insertInto('password_resets')
        .values({
          code_hash: name,
          operator_id: admin.operator.id,
          created_by: null,
          created_at: iso(now - DAY),
          expires_at: iso(now + expiresIn),
          used_at: used ? iso(now - 1000) : null,
        })
        .execute();
    await reset('open', 3_600_000, false);
    await reset('lapsed', -3_600_000, false);
    await reset('used-and-lapsed', -3_600_000, true);
    const purged = await purgeAccountRecords(t.db, 365, now);
    expect(purged.passwordResets).toBe(2);
    const left = await t.db.kysely.selectFrom('password_resets').select('code_hash').execute();
    expect(left.map((r) => r.code_hash)).toEqual(['open']);
  });

  it('drops events past the retention in the purge, and the totals stay exact', async () => {
    const before = await bruteCount({});
    const purged = await purgeAccountRecords(t.db, 15, base + 19 * DAY);
    // Events before base + 4 days go.
    expect(purged.auditEvents).toBe(before - (await bruteCount({})));
    expect(await bruteCount({ to: iso(base + 4 * DAY - 1) })).toBe(0);
    for (const query of [
      '',
      'action=export',
      'target=scans',
      `operator=${encodeURIComponent(admin.operator.email)}`,
      `from=${day(base)}&to=${day(base + 6 * DAY)}`,
    ]) {
      const res = (await get(`/api/audit?${query}`)).json();
      const filters = Object.fromEntries(new URLSearchParams(query));
      const expected = await bruteCount({
        ...(filters.action ? { action: filters.action } : {}),
        ...(filters.target ? { target: filters.target } : {}),
        ...(filters.operator ? { operatorIds: [admin.operator.id] } : {}),
        ...(filters.from ? { from: iso(base), to: iso(base + 7 * DAY - 1) } : {}),
      });
      expect(res.total, query).toBe(expected);
    }
  });
});
