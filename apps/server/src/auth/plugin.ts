import type { Role } from '@obd/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { VersionedCache } from '../lib/versionedCache.ts';
import { readSession, type SessionRow, type SignedInOperator, sessionOperator } from './repository.ts';
import { hashToken } from './tokens.ts';
import { type TouchWrite, touchWithAlias, VersionAliases } from './touch.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator; set on every route that is not public. */
    operator?: SignedInOperator;
    /** The database's data version when the request began (`Db.dataVersion`); cached routes only. */
    dataVersion?: string;
    /** The version its kept answer is keyed by: `dataVersion`, session touches seen through (touch.ts). */
    cacheVersion?: string;
  }
  interface FastifyContextConfig {
    /** Reachable without signing in (login, sign-up, health). */
    public?: boolean;
    /** The least role a route needs; every signed-in operator may read. */
    role?: Role;
  }
}

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** Whether an operator of role `has` may do what needs role `needs`. */
export const hasRole = (has: Role, needs: Role) => RANK[has] >= RANK[needs];

/** The 403 sentence of an operator whose role is short of the one needed. */
export const needsRole = (needs: Role, has: Role) =>
  forbidden(`This needs the ${needs} role; your account is a ${has}. Ask an admin.`);

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header && /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Every route is private unless its declaration says `public: true` — safe by default, so a route
 * added later cannot leak by forgetting a check. Roles are checked here as well. Access is decided
 * on the route the router matched (DESIGN principle 14), never on the URL string: the router
 * decodes `%61pi`, strips an absolute-form `http://host` and so on, so any test of `request.url`
 * disagrees with it for some spelling. When no route matched, the not-found handler answers; it
 * is public and never answers data (`app.ts`, serveWebApp).
 */
export function registerAuthentication(app: FastifyInstance, db: Db) {
  // Session rows by token hash, valid while nothing in the database changes: a sign-out or
  // revocation in any process changes the data version and so retires them all. Expiry and idle
  // time are still judged on every request (`sessionOperator`). Used by the routes whose answers
  // are kept (lib/responseCache.ts), which read the data version anyway, and on SQLite by every
  // private route: there the version is two in-process statement steps, cheaper than reading the
  // session row (a join, ~0.1–0.3 ms a request in the 50-connection benchmark). On PostgreSQL the
  // version is a round trip, no cheaper than the row, so other requests read their row and wait
  // for no version.
  const sessions = new VersionedCache<SessionRow>(10_000);
  const aliases = new VersionAliases();
  const touch = (write: TouchWrite) => touchWithAlias(db, aliases, write);
  const sessionOf = async (hash: string, version: string | undefined) => {
    if (version === undefined) return readSession(db.reader, hash);
    let row = sessions.get(hash, version);
    if (!row) {
      row = await readSession(db.reader, hash);
      // Read after the version was taken: if anything changed meanwhile, the next request's
      // version differs and this entry is never used.
      if (row) sessions.set(hash, version, row);
    }
    return row;
  };

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.public || request.is404) return;
    const token = bearerToken(request);
    if (config.cached) {
      request.dataVersion = await db.dataVersion();
      // What the kept answers are keyed by: the version, with session touches seen through.
      request.cacheVersion = aliases.resolve(request.dataVersion);
    }
    const version = request.dataVersion ?? (db.dialect === 'sqlite' ? await db.dataVersion() : undefined);
    const row = token ? await sessionOf(hashToken(token), version) : undefined;
    const operator = row && (await sessionOperator(db.kysely, row, touch));
    if (!operator) {
      throw unauthorized(
        token ? 'Your session has ended. Sign in again.' : 'Sign in to continue: this request needs a token.',
      );
    }
    request.operator = operator;
    const needed = config.role;
    if (needed && !hasRole(operator.role, needed)) throw needsRole(needed, operator.role);
  });
}

/** The signed-in operator of a private route (the hook above guarantees there is one). */
export function currentOperator(request: FastifyRequest): SignedInOperator {
  if (!request.operator) throw unauthorized();
  return request.operator;
}
