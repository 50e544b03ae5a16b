import type { Role } from '@obd/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { findSessionOperator, type SignedInOperator } from './repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator; set on every route that is not public. */
    operator?: SignedInOperator;
  }
  interface FastifyContextConfig {
    /** Reachable without signing in (login, sign-up, health). */
    public?: boolean;
    /** The least role a route needs; every signed-in operator may read. */
    role?: Role;
  }
}

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header && /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Every `/api` route is private unless its config says `public: true` — safe by default, so a
 * route added later cannot leak by forgetting a check. Roles are checked here as well.
 */
export function registerAuthentication(app: FastifyInstance, db: Kysely<Database>) {
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!request.url.startsWith('/api') || config.public) return;
    const token = bearerToken(request);
    const operator = token ? await findSessionOperator(db, token) : undefined;
    if (!operator) {
      throw unauthorized(
        token ? 'Your session has ended. Sign in again.' : 'Sign in to continue: this request needs a token.',
      );
    }
    request.operator = operator;
    const needed = config.role;
    if (needed && RANK[operator.role] < RANK[needed]) {
      throw forbidden(`This needs the ${needed} role; your account is a ${operator.role}. Ask an admin.`);
    }
  });
}

/** The signed-in operator of a private route (the hook above guarantees there is one). */
export function currentOperator(request: FastifyRequest): SignedInOperator {
  if (!request.operator) throw unauthorized();
  return request.operator;
}
