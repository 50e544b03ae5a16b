import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../src/db/database.ts';
import { createTestApp, signedIn, type TestContext } from './helpers.ts';

export const PASSWORD = 'correct horse battery';

/**
 * The set-up the operator test files share: one app and database per file and dialect, an admin
 * signed in, and the requests and reads they make. Call inside the file's `describe.each`; `t`
 * and `admin` are set before the file's own `beforeAll` hooks run.
 */
export function operatorsSuite(dialect: Dialect) {
  let addresses = 0;
  /** A fresh client address per request unless told, so the sign-in throttle stays out of the way. */
  const nextIp = () => `10.60.${Math.floor(++addresses / 250)}.${addresses % 250}`;
  const state = {
    t: undefined as unknown as TestContext,
    admin: undefined as unknown as Awaited<ReturnType<typeof signedIn>>,
  };
  const suite = Object.assign(state, {
    nextIp,
    as: (headers: Record<string, string>, app: FastifyInstance = state.t.app) => ({
      get: (url: string) => app.inject({ method: 'GET', url, headers }),
      patch: (url: string, payload: object) => app.inject({ method: 'PATCH', url, headers, payload }),
      post: (url: string, payload?: object) =>
        app.inject({ method: 'POST', url, headers, payload: payload ?? {} }),
      del: (url: string) => app.inject({ method: 'DELETE', url, headers }),
    }),
    login: (email: string, password = PASSWORD, app: FastifyInstance = state.t.app) =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password },
        remoteAddress: nextIp(),
        headers: { 'user-agent': 'TestBrowser/1.0' },
      }),
    events: (action: string, target?: string) => {
      let q = state.t.db.kysely.selectFrom('audit_events').selectAll().where('action', '=', action);
      if (target !== undefined) q = q.where('target', '=', target);
      return q.orderBy('id').execute();
    },
    operatorRow: (id: number) =>
      state.t.db.kysely.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  });
  beforeAll(async () => {
    suite.t = await createTestApp(dialect);
    suite.admin = await signedIn(suite.t.db, 'admin');
  });
  afterAll(() => suite.t.close());
  return suite;
}
