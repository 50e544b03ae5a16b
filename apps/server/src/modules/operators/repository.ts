import {
  type OPERATOR_SORT_FIELDS,
  type OperatorQuery,
  PASSWORD_RESET_TTL_HOURS,
  type Role,
  type SortQuery,
} from '@obd/contract';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { SESSION_IDLE_MS } from '../../auth/repository.ts';
import { hashToken, newInvitationCode } from '../../auth/tokens.ts';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { whereFilters } from '../../lib/filters.ts';
import { fetchPage } from '../../lib/list.ts';
import { orderBySort } from '../../lib/sort.ts';
import { isoIn, isoNow } from '../../lib/time.ts';
import { operators } from './lists.ts';
import type { OperatorRecord } from './mapper.ts';

/*
 * Operators, invitations, password resets and sessions as the admin screens and "my account"
 * see them. Every function takes the executor: the database, or the transaction of a change and
 * its audit event.
 */

type Executor = Kysely<Database>;
type Filters = Omit<OperatorQuery, 'page' | 'limit'>;

export const PASSWORD_RESET_TTL_MS = PASSWORD_RESET_TTL_HOURS * 60 * 60 * 1000;

/** A session counts as open while it is neither revoked, expired nor idle. */
function openSession(eb: ExpressionBuilder<Database, 'sessions'>, now = Date.now()) {
  return eb.and([
    eb('sessions.revoked_at', 'is', null),
    eb('sessions.expires_at', '>', new Date(now).toISOString()),
    eb('sessions.last_seen_at', '>', new Date(now - SESSION_IDLE_MS).toISOString()),
  ]);
}

function operatorsFiltered(db: Executor, dialect: Dialect, q: Filters) {
  return db
    .selectFrom('operators as o')
    .where((eb) =>
      eb.and([
        whereFilters(eb, dialect, operators.rules, q),
        ...(q.status === 'active' ? [eb('o.disabled_at', 'is', null)] : []),
        ...(q.status === 'disabled' ? [eb('o.disabled_at', 'is not', null)] : []),
      ]),
    );
}

const operatorsSelected =
  (dialect: Dialect, sort: SortQuery<(typeof OPERATOR_SORT_FIELDS)[number]>) =>
  (q: ReturnType<typeof operatorsFiltered>) =>
    orderBySort(
      q.select(operators.columns).select((eb) =>
        eb
          .selectFrom('sessions')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('sessions.operator_id', '=', 'o.id')
          .where((s) => openSession(s))
          .as('open_sessions'),
      ),
      dialect,
      operators.sort,
      sort,
    );

export function listOperators(db: Executor, dialect: Dialect, q: OperatorQuery) {
  return fetchPage(operatorsFiltered(db, dialect, q), operatorsSelected(dialect, q), q) as Promise<{
    rows: OperatorRecord[];
    total: number;
  }>;
}

/** Every operator under the filters, in the list's order: the export streams it. */
export function operatorsQuery(db: Executor, dialect: Dialect, q: Filters) {
  return operatorsSelected(dialect, q)(operatorsFiltered(db, dialect, q));
}

export function findOperatorRecord(db: Executor, id: number) {
  // One row: no sort asked, and the dialect only words a sort's NULLs.
  return operatorsSelected(
    'sqlite',
    {},
  )(db.selectFrom('operators as o').where('o.id', '=', id)).executeTakeFirst() as Promise<
    OperatorRecord | undefined
  >;
}

/** Admins who are not disabled, other than `except`. */
export async function countActiveAdmins(db: Executor, except: number): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .where('id', '!=', except)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setOperator(
  db: Executor,
  id: number,
  change: { role?: Role; disabledAt?: string | null },
) {
  await db
    .updateTable('operators')
    .set({
      ...(change.role !== undefined ? { role: change.role } : {}),
      ...(change.disabledAt !== undefined ? { disabled_at: change.disabledAt } : {}),
    })
    .where('id', '=', id)
    .execute();
}

// ---------------------------------------------------------------- invitations

/** Invitations neither used, revoked nor expired, newest first, with who issued them. */
export function pendingInvitations(db: Executor) {
  return db
    .selectFrom('invitations as i')
    .leftJoin('operators as o', 'o.id', 'i.created_by')
    .select(['i.id', 'i.role', 'i.created_at', 'i.expires_at', 'o.email as created_by'])
    .where('i.used_at', 'is', null)
    .where('i.expires_at', '>', isoNow())
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute();
}

/**
 * Revokes a pending invitation by ending its validity now (one conditional UPDATE: a sign-up
 * redeeming it at the same moment either wins, and this finds nothing, or finds it expired);
 * the purge deletes it later. Undefined when it was not pending.
 */
export function revokeInvitation(db: Executor, id: number) {
  const now = isoNow();
  return db
    .updateTable('invitations')
    .set({ expires_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'role'])
    .executeTakeFirst();
}

// ---------------------------------------------------------------- password resets

const normaliseCode = (code: string) => code.trim().toUpperCase();

/** Issues a one-time reset code for 24 hours; earlier unused codes of the operator stop working. */
export async function issuePasswordReset(db: Executor, operatorId: number, createdBy: number | null) {
  const now = isoNow();
  await db
    .updateTable('password_resets')
    .set({ expires_at: now })
    .where('operator_id', '=', operatorId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  const code = newInvitationCode();
  const expiresAt = isoIn(PASSWORD_RESET_TTL_MS);
  await db
    .insertInto('password_resets')
    .values({
      code_hash: hashToken(normaliseCode(code)),
      operator_id: operatorId,
      created_by: createdBy,
      created_at: now,
      expires_at: expiresAt,
    })
    .execute();
  return { code, expiresAt };
}

/**
 * Uses an operator's reset code: one conditional UPDATE that must change one row, so of several
 * requests racing with one code exactly one gets it. Undefined when the code is not this
 * operator's, or is used or expired.
 */
export function redeemPasswordReset(db: Executor, operatorId: number, code: string) {
  const now = isoNow();
  return db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('code_hash', '=', hashToken(normaliseCode(code)))
    .where('operator_id', '=', operatorId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
}

export async function setPasswordHash(db: Executor, operatorId: number, passwordHash: string) {
  await db
    .updateTable('operators')
    .set({ password_hash: passwordHash })
    .where('id', '=', operatorId)
    .execute();
}

// ---------------------------------------------------------------- own sessions

/** The operator's open sessions, newest first. */
export function openSessionsOf(db: Executor, operatorId: number) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'address', 'user_agent'])
    .where('operator_id', '=', operatorId)
    .where((eb) => openSession(eb))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Ends one open session of the operator; false when there is no such open session of theirs. */
export async function endOwnSession(db: Executor, operatorId: number, sessionId: number): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: isoNow() })
    .where('id', '=', sessionId)
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', isoNow())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
