import { beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '../src/auth/repository.ts';
import { DIALECTS, secondServer, signedIn, type TestContext } from './helpers.ts';
import { operatorsSuite, PASSWORD } from './operatorsSuite.ts';

describe.each(DIALECTS)('operators, invitations, sessions and password resets on %s', (dialect) => {
  const suite = operatorsSuite(dialect);
  const { nextIp, as, login, events } = suite;
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(() => {
    ({ t, admin } = suite);
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
