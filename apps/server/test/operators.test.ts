import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '../src/auth/repository.ts';
import { failAuditOf } from './auditFaults.ts';
import { createTestApp, DIALECTS, secondServer, signedIn, type TestContext } from './helpers.ts';

const PASSWORD = 'correct horse battery';

describe.each(DIALECTS)('operators, invitations, sessions and password resets on %s', (dialect) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let addresses = 0;
  /** A fresh client address per request unless told, so the sign-in throttle stays out of the way. */
  const nextIp = () => `10.60.${Math.floor(++addresses / 250)}.${addresses % 250}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await signedIn(t.db, 'admin');
  });
  afterAll(() => t.close());

  const as = (headers: Record<string, string>, app: FastifyInstance = t.app) => ({
    get: (url: string) => app.inject({ method: 'GET', url, headers }),
    patch: (url: string, payload: object) => app.inject({ method: 'PATCH', url, headers, payload }),
    post: (url: string, payload?: object) =>
      app.inject({ method: 'POST', url, headers, payload: payload ?? {} }),
    del: (url: string) => app.inject({ method: 'DELETE', url, headers }),
  });
  const login = (email: string, password = PASSWORD, app: FastifyInstance = t.app) =>
    app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password },
      remoteAddress: nextIp(),
      headers: { 'user-agent': 'TestBrowser/1.0' },
    });
  const events = (action: string, target?: string) => {
    let q = t.db.kysely.selectFrom('audit_events').selectAll().where('action', '=', action);
    if (target !== undefined) q = q.where('target', '=', target);
    return q.orderBy('id').execute();
  };
  const operatorRow = (id: number) =>
    t.db.kysely.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('lists operators with role, status and e-mail filters, their open sessions and last sighting', async () => {
    const editor = await signedIn(t.db, 'editor');
    const res = await as(admin.headers).get(`/api/operators?role=editor&email=${editor.operator.email}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      operators: [
        {
          id: editor.operator.id,
          email: editor.operator.email,
          role: 'editor',
          status: 'active',
          created_at: expect.any(String),
          last_seen_at: expect.any(String),
          disabled_at: null,
          open_sessions: 1,
        },
      ],
      total: 1,
    });
    expect((await as(admin.headers).get('/api/operators?status=disabled&role=editor')).json().total).toBe(0);
    expect((await as(admin.headers).get('/api/operators?status=nope')).statusCode).toBe(400);
    const all = (await as(admin.headers).get('/api/operators?limit=1')).json();
    expect(all.operators).toHaveLength(1);
    expect(all.total).toBeGreaterThanOrEqual(2);
  });

  it('answers a viewer or an editor 403 with a sentence on every admin route', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const { headers } = await signedIn(t.db, role);
      const calls = [
        as(headers).get('/api/operators'),
        as(headers).patch(`/api/operators/${admin.operator.id}`, { role: 'viewer' }),
        as(headers).del(`/api/operators/${admin.operator.id}/sessions`),
        as(headers).post(`/api/operators/${admin.operator.id}/password-reset`),
        as(headers).get('/api/invitations'),
        as(headers).post('/api/invitations', { role: 'admin' }),
        as(headers).del('/api/invitations/1'),
        as(headers).get('/api/audit'),
        as(headers).get('/api/audit/1'),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().error).toBe(`This needs the admin role; your account is a ${role}. Ask an admin.`);
      }
    }
    expect((await as(admin.headers).get(`/api/operators/${admin.operator.id}`)).statusCode).toBe(404);
  });

  it('changes a role and records from → to', async () => {
    const editor = await signedIn(t.db, 'editor');
    const res = await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, { role: 'viewer' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'viewer', status: 'active' });
    // The changed operator's next request is judged on the new role.
    const upload = await as(editor.headers).post('/api/invitations', { role: 'viewer' });
    expect(upload.json().error).toMatch(/your account is a viewer/);
    const [event] = await events('role-changed', editor.operator.email);
    expect(event).toMatchObject({ operator_id: admin.operator.id, address: '127.0.0.1' });
    expect(JSON.parse(event?.details ?? '')).toEqual({ from: 'editor', to: 'viewer' });
    expect((await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, {})).statusCode).toBe(400);
    expect((await as(admin.headers).patch('/api/operators/999999', { role: 'viewer' })).statusCode).toBe(404);
  });

  it('disables an operator: every session ends at once, on another server process too, and sign-in is refused with the generic message', async () => {
    const editor = await signedIn(t.db, 'editor');
    const second = await login(editor.operator.email);
    expect(second.statusCode).toBe(200);
    const secondHeaders = { authorization: `Bearer ${second.json().token}` };
    const other = await secondServer(t);
    try {
      // Both servers have the sessions cached as valid.
      expect((await as(editor.headers, other).get('/api/me')).statusCode).toBe(200);
      expect((await as(secondHeaders, t.app).get('/api/me')).statusCode).toBe(200);
      const res = await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, { disabled: true });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'disabled',
        open_sessions: 0,
        disabled_at: expect.any(String),
      });
      for (const app of [t.app, other]) {
        for (const headers of [editor.headers, secondHeaders]) {
          const me = await as(headers, app).get('/api/me');
          expect(me.statusCode).toBe(401);
          expect(me.json().error).toMatch(/session has ended/);
        }
      }
      const refused = await login(editor.operator.email);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
      const [failed] = await events('sign-in-failed', editor.operator.email);
      expect(JSON.parse(failed?.details ?? '')).toMatchObject({ reason: 'disabled' });
      const [disabled] = await events('operator-disabled', editor.operator.email);
      expect(JSON.parse(disabled?.details ?? '')).toEqual({ sessionsEnded: 2 });

      const enabled = await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, {
        disabled: false,
      });
      expect(enabled.json()).toMatchObject({ status: 'active', disabled_at: null });
      expect((await login(editor.operator.email, PASSWORD, other)).statusCode).toBe(200);
      expect(await events('operator-enabled', editor.operator.email)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('refuses to demote or disable the last active admin with 409 and a sentence', async () => {
    // Only `admin` is an active admin here: every other admin of this file is disabled first.
    await t.db.kysely
      .updateTable('operators')
      .set({ disabled_at: new Date().toISOString() })
      .where('role', '=', 'admin')
      .where('id', '!=', admin.operator.id)
      .execute();
    for (const body of [{ role: 'editor' }, { disabled: true }, { role: 'viewer', disabled: false }]) {
      const res = await as(admin.headers).patch(`/api/operators/${admin.operator.id}`, body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error:
          'You are the last active admin: make another operator an admin first, or nobody could manage operators.',
        code: 'CONFLICT',
      });
    }
    // A disabled admin does not count; enabling them makes the demotion possible.
    const spare = await signedIn(t.db, 'admin');
    const res = await as(admin.headers).patch(`/api/operators/${spare.operator.id}`, { disabled: true });
    expect(res.statusCode).toBe(200);
    const refused = await as(admin.headers).patch(`/api/operators/${admin.operator.id}`, { role: 'editor' });
    expect(refused.statusCode).toBe(409);
    expect((await operatorRow(admin.operator.id)).role).toBe('admin');
  });

  it('keeps one admin when two admins demote (or disable) each other at the same moment over two processes', async () => {
    const other = await secondServer(t);
    try {
      for (let round = 0; round < 6; round += 1) {
        await t.db.kysely
          .updateTable('operators')
          .set({ disabled_at: new Date().toISOString() })
          .where('role', '=', 'admin')
          .where('disabled_at', 'is', null)
          .execute();
        const a = await signedIn(t.db, 'admin');
        const b = await signedIn(t.db, 'admin');
        const body = round % 2 ? { disabled: true } : { role: 'viewer' };
        const answers = await Promise.all([
          as(a.headers, t.app).patch(`/api/operators/${b.operator.id}`, body),
          as(b.headers, other).patch(`/api/operators/${a.operator.id}`, body),
        ]);
        const codes = answers.map((x) => x.statusCode).sort();
        expect(codes[0], answers.map((x) => x.body).join(' | ')).toBe(200);
        // The loser is no longer an admin (403) or would leave none (409): never both changed.
        expect([403, 409]).toContain(codes[1]);
        const loser = answers.find((x) => x.statusCode !== 200);
        expect(loser?.json().error).toMatch(/no longer an active admin|last active admin/);
        const active = await t.db.kysely
          .selectFrom('operators')
          .select('id')
          .where('role', '=', 'admin')
          .where('disabled_at', 'is', null)
          .execute();
        expect(active, `round ${round}`).toHaveLength(1);
      }
    } finally {
      await other.close();
    }
    // Give this file's admin back its place for the tests that follow.
    await t.db.kysely
      .updateTable('operators')
      .set({ disabled_at: null })
      .where('id', '=', admin.operator.id)
      .execute();
  });

  it("ends all of an operator's sessions", async () => {
    const viewer = await signedIn(t.db, 'viewer');
    expect((await login(viewer.operator.email)).statusCode).toBe(200);
    const res = await as(admin.headers).del(`/api/operators/${viewer.operator.id}/sessions`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    expect((await as(viewer.headers).get('/api/me')).statusCode).toBe(401);
    const [event] = await events('sessions-ended', viewer.operator.email);
    expect(JSON.parse(event?.details ?? '')).toEqual({ ended: 2 });
    expect((await as(admin.headers).del('/api/operators/999999/sessions')).statusCode).toBe(404);
  });

  it('invites with a role and an expiry, lists pending invitations and revokes one', async () => {
    const made = await as(admin.headers).post('/api/invitations', { role: 'editor', expiresInDays: 3 });
    expect(made.statusCode).toBe(201);
    const invitation = made.json();
    expect(invitation).toEqual({
      id: expect.any(Number),
      code: expect.any(String),
      role: 'editor',
      expiresAt: expect.any(String),
    });
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThan(3.01);
    const byDefault = (await as(admin.headers).post('/api/invitations', { role: 'viewer' })).json();
    expect((Date.parse(byDefault.expiresAt) - Date.now()) / 86_400_000).toBeCloseTo(7, 1);
    for (const expiresInDays of [0, 31, 2.5]) {
      const bad = await as(admin.headers).post('/api/invitations', { role: 'viewer', expiresInDays });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatch(/expiresInDays/);
    }
    const pending = (await as(admin.headers).get('/api/invitations')).json().invitations;
    expect(pending).toEqual(
      expect.arrayContaining([
        {
          id: invitation.id,
          role: 'editor',
          created_at: expect.any(String),
          expires_at: invitation.expiresAt,
          created_by: admin.operator.email,
        },
      ]),
    );
    expect(JSON.stringify(pending)).not.toContain(invitation.code);
    expect((await as(admin.headers).del(`/api/invitations/${invitation.id}`)).statusCode).toBe(204);
    const again = await as(admin.headers).del(`/api/invitations/${invitation.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toMatch(/no pending invitation/);
    const pendingAfter = (await as(admin.headers).get('/api/invitations')).json().invitations;
    expect(pendingAfter.map((i: { id: number }) => i.id)).not.toContain(invitation.id);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email: 'revoked@example.com', password: PASSWORD, invitationCode: invitation.code },
      remoteAddress: nextIp(),
    });
    expect(signup.statusCode).toBe(403);
    expect(await events('invitation-created', `invitation #${invitation.id}`)).toHaveLength(1);
    expect(await events('invitation-revoked', `invitation #${invitation.id}`)).toHaveLength(1);
  });

  it('resets a password with a one-time code: once, under concurrency over two processes, ending every session', async () => {
    const other = await secondServer(t);
    try {
      for (let round = 0; round < 4; round += 1) {
        const viewer = await signedIn(t.db, 'viewer');
        const issued = await as(admin.headers).post(`/api/operators/${viewer.operator.id}/password-reset`);
        expect(issued.statusCode).toBe(201);
        const { code, expiresAt } = issued.json();
        expect((Date.parse(expiresAt) - Date.now()) / 3_600_000).toBeCloseTo(24, 1);
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 ? other : t.app).inject({
              method: 'POST',
              url: '/api/password-reset',
              payload: {
                email: viewer.operator.email,
                code: code.toLowerCase(),
                password: `new password ${i}`,
              },
              remoteAddress: nextIp(),
            }),
          ),
        );
        const codes = answers.map((a) => a.statusCode).sort();
        expect(codes, answers.map((a) => a.body).join(' | ')).toEqual([204, 403, 403, 403, 403, 403]);
        const winner = answers.findIndex((a) => a.statusCode === 204);
        expect((await as(viewer.headers).get('/api/me')).statusCode).toBe(401);
        expect((await login(viewer.operator.email, PASSWORD)).statusCode).toBe(401);
        expect((await login(viewer.operator.email, `new password ${winner}`)).statusCode).toBe(200);
        const resets = await events('password-reset', viewer.operator.email);
        expect(resets).toHaveLength(1);
        expect(resets[0]?.operator_id).toBe(viewer.operator.id);
        expect(JSON.parse(resets[0]?.details ?? '')).toEqual({ sessionsEnded: 1 });
      }
    } finally {
      await other.close();
    }
  });

  it('answers the same whether the e-mail is unknown or the code wrong, used or expired', async () => {
    const viewer = await signedIn(t.db, 'viewer');
    const reset = (email: string, code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/password-reset',
        payload: { email, code, password: 'another password' },
        remoteAddress: nextIp(),
      });
    const { code } = (
      await as(admin.headers).post(`/api/operators/${viewer.operator.id}/password-reset`)
    ).json();
    const unknown = await reset('nobody@example.com', code);
    const wrong = await reset(viewer.operator.email, 'AAAAA-BBBBB');
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json()).toEqual(wrong.json());
    expect(unknown.json().error).toMatch(/reset code does not work/);
    // An earlier code stops working when a new one is issued, and a code expires after 24 h.
    const { code: newer } = (
      await as(admin.headers).post(`/api/operators/${viewer.operator.id}/password-reset`)
    ).json();
    expect((await reset(viewer.operator.email, code)).json()).toEqual(wrong.json());
    await t.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('operator_id', '=', viewer.operator.id)
      .execute();
    expect((await reset(viewer.operator.email, newer)).json()).toEqual(wrong.json());
    // Another operator's code does not reset this one.
    const someone = await signedIn(t.db, 'viewer');
    const { code: theirs } = (
      await as(admin.headers).post(`/api/operators/${someone.operator.id}/password-reset`)
    ).json();
    expect((await reset(viewer.operator.email, theirs)).statusCode).toBe(403);
    // Throttled like sign-in: five failures from one address for one account, then 429.
    const ip = '10.61.0.1';
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/password-reset',
        payload: { email: viewer.operator.email, code: 'WRONG', password: 'another password' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 5; i += 1) expect((await attempt()).statusCode).toBe(403);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
  });

  it('lists my open sessions with address and browser, and ends one of them', async () => {
    const editor = await signedIn(t.db, 'editor');
    const other = await login(editor.operator.email);
    const otherHeaders = { authorization: `Bearer ${other.json().token}` };
    const res = await as(editor.headers).get('/api/me/sessions');
    expect(res.statusCode).toBe(200);
    const sessions = res.json().sessions;
    expect(sessions).toHaveLength(2);
    const current = sessions.find((s: { current: boolean }) => s.current);
    const theOther = sessions.find((s: { current: boolean }) => !s.current);
    expect(theOther).toMatchObject({
      user_agent: 'TestBrowser/1.0',
      address: expect.stringMatching(/^10\.60\./),
    });
    expect(current).toBeTruthy();
    // Each session sees itself as the current one (the answer is not shared through the cache).
    const fromOther = (await as(otherHeaders).get('/api/me/sessions')).json().sessions;
    expect(fromOther.find((s: { current: boolean }) => s.current)?.id).toBe(theOther.id);
    // Someone else's session is not mine to end.
    const mine = await as(admin.headers).del(`/api/me/sessions/${theOther.id}`);
    expect(mine.statusCode).toBe(404);
    const ended = await as(editor.headers).del(`/api/me/sessions/${theOther.id}`);
    expect(ended.statusCode).toBe(200);
    expect((await as(otherHeaders).get('/api/me')).statusCode).toBe(401);
    expect((await as(editor.headers).get('/api/me')).statusCode).toBe(200);
    const [event] = await events('sessions-ended', editor.operator.email);
    expect(event?.operator_id).toBe(editor.operator.id);
  });

  it('changes my password with the current one, ending every other session', async () => {
    const viewer = await signedIn(t.db, 'viewer');
    const other = await login(viewer.operator.email);
    const otherHeaders = { authorization: `Bearer ${other.json().token}` };
    const wrong = await as(viewer.headers).post('/api/me/password', {
      currentPassword: 'not it',
      password: 'a new password',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toMatch(/current password is not right/);
    const short = await as(viewer.headers).post('/api/me/password', {
      currentPassword: PASSWORD,
      password: 'short',
    });
    expect(short.statusCode).toBe(400);
    const ok = await as(viewer.headers).post('/api/me/password', {
      currentPassword: PASSWORD,
      password: 'a new password',
    });
    expect(ok.statusCode).toBe(204);
    expect((await as(otherHeaders).get('/api/me')).statusCode).toBe(401);
    expect((await as(viewer.headers).get('/api/me')).statusCode).toBe(200);
    expect((await login(viewer.operator.email, 'a new password')).statusCode).toBe(200);
    const [event] = await events('password-changed', viewer.operator.email);
    expect(JSON.parse(event?.details ?? '')).toEqual({ otherSessionsEnded: 1 });
  });

  describe('each change and its audit event commit together: a failure after the change leaves neither', () => {
    const rejected = (res: { statusCode: number }) => expect(res.statusCode).toBe(500);
    const injected = async (action: string, run: () => Promise<void>) => {
      const before = (await events(action)).length;
      const restore = await failAuditOf(t.db, action);
      try {
        await run();
      } finally {
        await restore();
      }
      expect(await events(action)).toHaveLength(before);
    };

    it('role change, disable, enable', async () => {
      const editor = await signedIn(t.db, 'editor');
      await injected('role-changed', async () => {
        rejected(await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, { role: 'viewer' }));
      });
      expect((await operatorRow(editor.operator.id)).role).toBe('editor');
      await injected('operator-disabled', async () => {
        rejected(await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, { disabled: true }));
      });
      expect((await operatorRow(editor.operator.id)).disabled_at).toBeNull();
      expect((await as(editor.headers).get('/api/me')).statusCode).toBe(200);
      await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, { disabled: true });
      await injected('operator-enabled', async () => {
        rejected(await as(admin.headers).patch(`/api/operators/${editor.operator.id}`, { disabled: false }));
      });
      expect((await operatorRow(editor.operator.id)).disabled_at).not.toBeNull();
    });

    it('sessions ended (by an admin and by oneself)', async () => {
      const viewer = await signedIn(t.db, 'viewer');
      await injected('sessions-ended', async () => {
        rejected(await as(admin.headers).del(`/api/operators/${viewer.operator.id}/sessions`));
      });
      expect((await as(viewer.headers).get('/api/me')).statusCode).toBe(200);
      const second = (await login(viewer.operator.email)).json().token;
      const sessions = (await as(viewer.headers).get('/api/me/sessions')).json().sessions;
      const other = sessions.find((s: { current: boolean }) => !s.current);
      await injected('sessions-ended', async () => {
        rejected(await as(viewer.headers).del(`/api/me/sessions/${other.id}`));
      });
      expect((await as({ authorization: `Bearer ${second}` }).get('/api/me')).statusCode).toBe(200);
    });

    it('invitation created, revoked and used; sign-up', async () => {
      await injected('invitation-created', async () => {
        rejected(await as(admin.headers).post('/api/invitations', { role: 'viewer' }));
      });
      const { id, code } = (await as(admin.headers).post('/api/invitations', { role: 'viewer' })).json();
      await injected('invitation-revoked', async () => {
        rejected(await as(admin.headers).del(`/api/invitations/${id}`));
      });
      expect(
        (await as(admin.headers).get('/api/invitations')).json().invitations.map((i: { id: number }) => i.id),
      ).toContain(id);
      const signup = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/signup',
          payload: { email: 'rolled-back@example.com', password: PASSWORD, invitationCode: code },
          remoteAddress: nextIp(),
        });
      for (const action of ['invitation-used', 'sign-up']) {
        await injected(action, async () => rejected(await signup()));
        const made = await t.db.kysely
          .selectFrom('operators')
          .select('id')
          .where('email', '=', 'rolled-back@example.com')
          .execute();
        expect(made).toEqual([]);
      }
      expect((await signup()).statusCode).toBe(201);
    });

    it('password reset issued and used; password changed', async () => {
      const viewer = await signedIn(t.db, 'viewer');
      await injected('password-reset-issued', async () => {
        rejected(await as(admin.headers).post(`/api/operators/${viewer.operator.id}/password-reset`));
      });
      expect(
        await t.db.kysely
          .selectFrom('password_resets')
          .select('id')
          .where('operator_id', '=', viewer.operator.id)
          .execute(),
      ).toEqual([]);
      const { code } = (
        await as(admin.headers).post(`/api/operators/${viewer.operator.id}/password-reset`)
      ).json();
      const reset = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/password-reset',
          payload: { email: viewer.operator.email, code, password: 'reset password' },
          remoteAddress: nextIp(),
        });
      await injected('password-reset', async () => rejected(await reset()));
      expect((await as(viewer.headers).get('/api/me')).statusCode).toBe(200);
      // The code was not used up by the failed attempt.
      expect((await reset()).statusCode).toBe(204);
      const token = (await login(viewer.operator.email, 'reset password')).json().token;
      const headers = { authorization: `Bearer ${token}` };
      await injected('password-changed', async () => {
        rejected(
          await as(headers).post('/api/me/password', {
            currentPassword: 'reset password',
            password: 'changed password',
          }),
        );
      });
      expect((await login(viewer.operator.email, 'reset password')).statusCode).toBe(200);
    });

    it('sign-in and sign-out', async () => {
      const viewer = await signedIn(t.db, 'viewer');
      const countSessions = async () =>
        (
          await t.db.kysely
            .selectFrom('sessions')
            .select('id')
            .where('operator_id', '=', viewer.operator.id)
            .execute()
        ).length;
      const before = await countSessions();
      await injected('sign-in', async () => rejected(await login(viewer.operator.email)));
      expect(await countSessions()).toBe(before);
      await injected('sign-out', async () => rejected(await as(viewer.headers).post('/api/logout')));
      expect((await as(viewer.headers).get('/api/me')).statusCode).toBe(200);
    });
  });

  it('single-use invitation codes under concurrency are still single-use, and their use is audited once', async () => {
    const { id, code } = await createInvitation(t.db.kysely, 'viewer', admin.operator.id);
    const other = await secondServer(t);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? other : t.app).inject({
            method: 'POST',
            url: '/api/signup',
            payload: { email: `racer${i}@example.com`, password: PASSWORD, invitationCode: code },
            remoteAddress: nextIp(),
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 403, 403, 403, 403, 403]);
      expect(await events('invitation-used', `invitation #${id}`)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
