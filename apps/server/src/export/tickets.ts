import type { ExportFormat } from '@obd/contract';
import type { Kysely } from 'kysely';
import { hashToken, newToken } from '../auth/tokens.ts';
import type { Database } from '../db/schema.ts';
import { isoIn, isoNow } from '../lib/time.ts';

/** Long enough for the browser to start the download, short enough that a leaked link is useless. */
export const TICKET_TTL_MS = 60 * 1000;

export interface TicketPayload {
  list: string;
  format: ExportFormat;
  query: Record<string, string>;
}

/** Issues a one-time download ticket for a signed-in operator; only its hash is stored. */
export async function issueTicket(db: Kysely<Database>, operatorId: number, payload: TicketPayload) {
  const token = newToken();
  const expiresAt = isoIn(TICKET_TTL_MS);
  await db
    .insertInto('download_tickets')
    .values({
      token_hash: hashToken(token),
      operator_id: operatorId,
      kind: payload.list,
      params: JSON.stringify(payload),
      created_at: isoNow(),
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

/**
 * Uses a ticket up: one UPDATE that succeeds only for an unused, unexpired ticket, so two
 * requests racing for the same link cannot both download.
 */
export async function consumeTicket(db: Kysely<Database>, token: string) {
  const row = await db
    .updateTable('download_tickets')
    .set({ used_at: isoNow() })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoNow())
    .returning(['operator_id', 'params'])
    .executeTakeFirst();
  return row ? { operatorId: row.operator_id, payload: JSON.parse(row.params) as TicketPayload } : undefined;
}
