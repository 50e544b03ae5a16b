import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, secondServer, signedIn, type TestContext } from './helpers.ts';
import { operatorsSuite, PASSWORD } from './operatorsSuite.ts';

describe.each(DIALECTS)('operators, invitations, sessions and password resets on %s', (dialect) => {
  const suite = operatorsSuite(dialect);
  const { as, login, events, operatorRow } = suite;
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(() => {
    ({ t, admin } = suite);
  });

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
});
