import type { ExportFormat } from '@obd/contract';
import type { Kysely } from 'kysely';
import { SESSION_IDLE_MS } from '../auth/repository.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import type { Database } from '../db/schema.ts';
import { isoIn, isoNow } from '../lib/time.ts';

/** Long enough for the browser to start the download, short enough that a leaked link is useless. */
export const TICKET_TTL_MS = 60 * 1000;

export interface TicketPayload {
  list: string;
  format: ExportFormat;
  query: Record<string, string>;
  /** Only these columns, in this order (issue 12); every column when absent. */
  columns?: string[];
}

/** Issues a one-time download ticket for a signed-in operator's session; only its hash is stored. */
export async function issueTicket(
  db: Kysely<Database>,
  owner: { operatorId: number; sessionId: number },
  payload: TicketPayload,
) {
  const token = newToken();
  const expiresAt = isoIn(TICKET_TTL_MS);
  await db
    .insertInto('download_tickets')
    .values({
      token_hash: hashToken(token),
      operator_id: owner.operatorId,
      session_id: owner.sessionId,
      kind: payload.list,
      params: JSON.stringify(payload),
      created_at: isoNow(),
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

/**
 * Only tickets that could still be used: unused, unexpired, and whose session is live (not
 * signed out or revoked, not expired, not idle) — a link dies with the session that asked for it.
 */
function usable(db: Kysely<Database>, token: string) {
  const now = isoNow();
  const idleSince = new Date(Date.now() - SESSION_IDLE_MS).toISOString();
  return {
    now,
    liveSessions: db
      .selectFrom('sessions')
      .select('sessions.id')
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .where('sessions.last_seen_at', '>', idleSince),
    hash: hashToken(token),
  };
}

export interface UsableTicket {
  operatorId: number;
  payload: TicketPayload;
}

/** What a ticket would download, without using it up (a HEAD request, the export caps). */
export async function peekTicket(db: Kysely<Database>, token: string): Promise<UsableTicket | undefined> {
  const u = usable(db, token);
  const row = await db
    .selectFrom('download_tickets')
    .select(['operator_id', 'params'])
    .where('token_hash', '=', u.hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', u.now)
    .where('session_id', 'in', u.liveSessions)
    .executeTakeFirst();
  return row ? { operatorId: row.operator_id, payload: JSON.parse(row.params) as TicketPayload } : undefined;
}

/**
 * Uses a ticket up: one UPDATE that succeeds only for an unused, unexpired ticket of a live
 * session, so two requests racing for the same link cannot both download.
 */
export async function consumeTicket(db: Kysely<Database>, token: string): Promise<UsableTicket | undefined> {
  const u = usable(db, token);
  const row = await db
    .updateTable('download_tickets')
    .set({ used_at: u.now })
    .where('token_hash', '=', u.hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', u.now)
    .where('session_id', 'in', u.liveSessions)
    .returning(['operator_id', 'params'])
    .executeTakeFirst();
  return row ? { operatorId: row.operator_id, payload: JSON.parse(row.params) as TicketPayload } : undefined;
}
