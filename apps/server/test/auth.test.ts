import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '../src/auth/repository.ts';
import { hashToken } from '../src/auth/tokens.ts';
import { createTestApp, DIALECTS, secondServer, signedIn, type TestContext } from './helpers.ts';

describe.each(DIALECTS)('accounts on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const signup = (body: object) => t.app.inject({ method: 'POST', url: '/api/signup', payload: body });
  const login = (email: string, password: string, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip });

  it('makes the first operator an admin without an invitation', async () => {
    expect((await t.app.inject({ url: '/api/signup' })).json()).toEqual({ invitationRequired: false });
    const res = await signup({ email: 'First@Example.com', password: 'a long password' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.operator).toMatchObject({ email: 'first@example.com', role: 'admin' });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json()).toMatchObject({ email: 'first@example.com', role: 'admin' });
  });

  it('stores only a hash of the token', async () => {
    const res = await login('first@example.com', 'a long password');
    const { token } = res.json();
    const rows = await t.db.kysely.selectFrom('sessions').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
  });

  it('needs an invitation for every later operator', async () => {
    expect((await t.app.inject({ url: '/api/signup' })).json()).toEqual({ invitationRequired: true });
    const res = await signup({ email: 'second@example.com', password: 'a long password' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/invitation code/);
    const wrong = await signup({
      email: 'second@example.com',
      password: 'a long password',
      invitationCode: 'NOPE',
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('lets an admin invite an editor, once', async () => {
    const admin = await login('first@example.com', 'a long password');
    const invite = await t.app.inject({
      method: 'POST',
      url: '/api/invitations',
      headers: { authorization: `Bearer ${admin.json().token}` },
      payload: { role: 'editor' },
    });
    expect(invite.statusCode).toBe(201);
    const { code } = invite.json();
    const res = await signup({
      email: 'editor@example.com',
      password: 'a long password',
      invitationCode: code,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().operator.role).toBe('editor');
    const again = await signup({
      email: 'other@example.com',
      password: 'a long password',
      invitationCode: code,
    });
    expect(again.statusCode).toBe(403);
  });

  it('refuses a duplicate email and a short password with sentences', async () => {
    const { code } = await createInvitation(t.db.kysely, 'viewer', null);
    const dup = await signup({
      email: 'first@example.com',
      password: 'a long password',
      invitationCode: code,
    });
    expect(dup.statusCode).toBe(409);
    const short = await signup({ email: 'x@example.com', password: 'short', invitationCode: code });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toContain('password');
  });

  it('gives one generic message for a wrong password and an unknown email', async () => {
    const wrong = await login('first@example.com', 'not it', '10.0.0.2');
    const unknown = await login('nobody@example.com', 'not it', '10.0.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('rate-limits repeated failures from one address with 429, and lets the account in from elsewhere', async () => {
    await signedIn(t.db); // unrelated operator
    const email = 'editor@example.com';
    for (let i = 0; i < 5; i += 1)
      expect((await login(email, `wrong ${i}`, '10.1.0.1')).statusCode).toBe(401);
    const limited = await login(email, 'a long password', '10.1.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/Too many failed sign-in attempts/);
    expect((await login(email, 'a long password', '10.1.0.99')).statusCode).toBe(200);
  });

  it('counts failures together across servers sharing the database', async () => {
    const other = await secondServer(t);
    const email = 'shared@example.com';
    const attempt = (app: typeof t.app, i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: `wrong ${i}` },
        remoteAddress: '10.2.0.1',
      });
    try {
      for (let i = 0; i < 5; i += 1) expect((await attempt(i % 2 ? other : t.app, i)).statusCode).toBe(401);
      expect((await attempt(t.app, 98)).statusCode).toBe(429);
      expect((await attempt(other, 99)).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('revokes the token on logout', async () => {
    const { headers } = await signedIn(t.db);
    expect((await t.app.inject({ url: '/api/me', headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers })).statusCode).toBe(204);
    const after = await t.app.inject({ url: '/api/me', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHORIZED');
  });

  it('enforces roles on the server', async () => {
    const viewer = await signedIn(t.db, 'viewer');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/invitations',
      headers: viewer.headers,
      payload: { role: 'admin' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/admin role/);
  });

  it('ends an idle session and an expired one', async () => {
    const idle = await signedIn(t.db);
    await t.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - 9 * 3600_000).toISOString() })
      .where('token_hash', '=', hashToken(idle.token))
      .execute();
    expect((await t.app.inject({ url: '/api/me', headers: idle.headers })).statusCode).toBe(401);
  });

  it('answers 401 on every private /api route without a valid token', async () => {
    const expired = await signedIn(t.db, 'admin');
    await t.db.kysely
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(expired.token))
      .execute();
    const routes = t.app.registeredRoutes.filter((r) => r.url.startsWith('/api') && !r.public);
    // The list is read from the app itself, so a route added later is covered without editing this test.
    expect(routes.length).toBeGreaterThanOrEqual(7);
    const publicRoutes = t.app.registeredRoutes.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    expect(publicRoutes.sort()).toEqual([
      'GET /api/downloads/:ticket',
      'GET /api/health',
      // The problems file of an import: like a download, its single-use ticket is the credential.
      'GET /api/imports/:id/problems',
      'GET /api/signup',
      'OPTIONS *',
      'POST /api/login',
      'POST /api/password-reset',
      'POST /api/signup',
    ]);
    for (const route of routes) {
      const url = route.url.replace(/:(\w+)/g, '1');
      for (const authorization of [undefined, 'Bearer not-a-real-token', `Bearer ${expired.token}`]) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode, `${route.method} ${route.url} with ${authorization ?? 'no token'}`).toBe(401);
        expect(res.json().error).toBeTruthy();
      }
    }
  });
});
