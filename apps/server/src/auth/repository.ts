import type { Role } from '@obd/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { isoIn, isoNow } from '../lib/time.ts';
import { hashToken, newInvitationCode, newToken } from './tokens.ts';

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** …and in any case this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is refreshed at most this often, so browsing does not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000;
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface SignedInOperator {
  id: number;
  email: string;
  role: Role;
  sessionId: number;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function findOperatorByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('operators').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
}

export async function countOperators(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertOperator(
  db: Kysely<Database>,
  operator: { email: string; passwordHash: string; role: Role },
) {
  return db
    .insertInto('operators')
    .values({
      email: normaliseEmail(operator.email),
      password_hash: operator.passwordHash,
      role: operator.role,
      created_at: isoNow(),
    })
    .returning(['id', 'email', 'role'])
    .executeTakeFirstOrThrow();
}

/** Where a session was started from: shown in the operator's list of their sessions. */
export interface SessionClient {
  address?: string | null;
  userAgent?: string | null;
}

/** Starts a session and returns its bearer token; only the token's hash is stored. */
export async function createSession(
  db: Kysely<Database>,
  operatorId: number,
  client: SessionClient = {},
): Promise<string> {
  const token = newToken();
  const now = isoNow();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      operator_id: operatorId,
      created_at: now,
      last_seen_at: now,
      expires_at: isoIn(SESSION_ABSOLUTE_MS),
      address: client.address?.slice(0, 100) ?? null,
      user_agent: client.userAgent?.slice(0, 400) ?? null,
    })
    .execute();
  await db.updateTable('operators').set({ last_seen_at: now }).where('id', '=', operatorId).execute();
  return token;
}

/** What a request's sign-in check needs of its session (see `sessionOperator`). */
export interface SessionRow {
  sessionId: number;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  id: number;
  email: string;
  role: string;
  disabled_at: string | null;
}

/** The session with this token hash and its operator, whatever the session's state. */
export function readSession(db: Kysely<Database>, tokenHash: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('operators', 'operators.id', 'sessions.operator_id')
    .select([
      'sessions.id as sessionId',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'sessions.revoked_at',
      'operators.id',
      'operators.email',
      'operators.role',
      'operators.disabled_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * The operator of a session, or undefined when it is revoked, idle or expired, or its operator is
 * disabled (judged now, so a row read a while ago is judged correctly too); refreshes
 * last_seen_at (the session's and the operator's) now and then.
 */
export async function sessionOperator(
  db: Kysely<Database>,
  row: SessionRow,
  /** How the touch is written (auth/touch.ts writes it so that it keeps the cached answers). */
  touch: (write: (db: Kysely<Database>) => Promise<void>) => Promise<void> = (write) => write(db),
): Promise<SignedInOperator | undefined> {
  if (row.revoked_at || row.disabled_at) return undefined;
  const now = Date.now();
  const lastSeen = Date.parse(row.last_seen_at);
  if (Date.parse(row.expires_at) <= now || lastSeen + SESSION_IDLE_MS <= now) return undefined;
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    const seen = isoNow();
    await touch(async (db) => {
      await db.updateTable('sessions').set({ last_seen_at: seen }).where('id', '=', row.sessionId).execute();
      await db.updateTable('operators').set({ last_seen_at: seen }).where('id', '=', row.id).execute();
    });
  }
  return { id: row.id, email: row.email, role: row.role as Role, sessionId: row.sessionId };
}

export async function revokeSession(db: Kysely<Database>, sessionId: number) {
  await db.updateTable('sessions').set({ revoked_at: isoNow() }).where('id', '=', sessionId).execute();
}

/**
 * Ends every open session of an operator (but `except`, the caller's own when they change their
 * password) and returns how many ended. Any server process sharing the database refuses them at
 * their next request: the write changes the data version, which retires every cached session.
 */
export async function revokeOperatorSessions(
  db: Kysely<Database>,
  operatorId: number,
  except?: number,
): Promise<number> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: isoNow() })
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', isoNow());
  if (except !== undefined) q = q.where('id', '!=', except);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function createInvitation(
  db: Kysely<Database>,
  role: Role,
  createdBy: number | null,
  ttlMs: number = INVITATION_TTL_MS,
) {
  const code = newInvitationCode();
  const expiresAt = isoIn(ttlMs);
  const { id } = await db
    .insertInto('invitations')
    .values({
      code_hash: hashToken(code),
      role,
      created_by: createdBy,
      created_at: isoNow(),
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, code, role, expiresAt };
}

/**
 * Marks an unused, unexpired invitation as used — one conditional UPDATE, so of several sign-ups
 * racing with one code exactly one changes the row — and returns it; undefined if none matched.
 * Run it in the sign-up's transaction before the account is inserted (`markInvitationUsedBy`).
 */
export async function redeemInvitation(db: Kysely<Database>, code: string) {
  const row = await db
    .updateTable('invitations')
    .set({ used_at: isoNow() })
    .where('code_hash', '=', hashToken(code.trim().toUpperCase()))
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoNow())
    .returning(['id', 'role'])
    .executeTakeFirst();
  return row && { id: row.id, role: row.role as Role };
}

/** Records which operator a redeemed invitation created. */
export async function markInvitationUsedBy(db: Kysely<Database>, invitationId: number, operatorId: number) {
  await db.updateTable('invitations').set({ used_by: operatorId }).where('id', '=', invitationId).execute();
}

export async function findValidInvitation(db: Kysely<Database>, code: string) {
  return db
    .selectFrom('invitations')
    .select(['id', 'role'])
    .where('code_hash', '=', hashToken(code.trim().toUpperCase()))
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoNow())
    .executeTakeFirst();
}
