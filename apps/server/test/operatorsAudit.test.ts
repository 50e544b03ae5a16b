import { beforeAll, describe, expect, it } from 'vitest';
import { failAuditOf } from './auditFaults.ts';
import { DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { operatorsSuite, PASSWORD } from './operatorsSuite.ts';

describe.each(DIALECTS)('operators, invitations, sessions and password resets on %s', (dialect) => {
  const suite = operatorsSuite(dialect);
  const { nextIp, as, login, events, operatorRow } = suite;
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(() => {
    ({ t, admin } = suite);
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
});
