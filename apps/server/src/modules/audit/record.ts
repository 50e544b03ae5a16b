import type { AuditAction } from '@obd/contract';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isoNow } from '../../lib/time.ts';

/** Who acted and from where: the request's operator (if signed in), address and user agent. */
export interface AuditActor {
  operatorId: number | null;
  address: string | null;
  userAgent: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  /** What the action was done to, as the audit list shows it (an e-mail, `invitation #3`, a list). */
  target: string | null;
  details?: Record<string, unknown>;
}

const clip = (text: string | null | undefined, max: number) =>
  text === null || text === undefined ? null : text.length > max ? text.slice(0, max) : text;

/** The actor of a request; `operatorId` overrides the signed-in operator (sign-in, sign-up, reset). */
export function actorOf(request: FastifyRequest, operatorId?: number | null): AuditActor {
  const agent = request.headers['user-agent'];
  return {
    operatorId: operatorId !== undefined ? operatorId : (request.operator?.id ?? null),
    address: request.ip ?? null,
    userAgent: clip(typeof agent === 'string' ? agent : null, 400),
  };
}

/**
 * Appends one event to the audit log. Call it with the transaction that makes the change it
 * records, as that transaction's last write: the event and the change commit or roll back
 * together, and on PostgreSQL the counters its trigger updates are locked only until the commit
 * that follows (every writer takes them in one order, so waiting writers cannot deadlock).
 * Nothing updates or deletes events but the retention purge (`lib/housekeeping.ts`).
 */
export async function recordAudit(db: Kysely<Database>, actor: AuditActor, entry: AuditEntry) {
  await db
    .insertInto('audit_events')
    .values({
      at: isoNow(),
      operator_id: actor.operatorId,
      action: entry.action,
      target: clip(entry.target, 300),
      details: JSON.stringify(entry.details ?? {}),
      address: clip(actor.address, 100),
      user_agent: actor.userAgent,
    })
    .execute();
}
