import { z } from 'zod';
import { pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import { fromTime, toTime } from '../operations/filters.ts';
import { AUDIT_ACTIONS, AUDIT_PAGE_SIZE, AUDIT_SORT_FIELDS } from './audit.constants.ts';

/*
 * The audit log (issue 11, admin only): append-only events, each written in the same transaction
 * as the change it records. No route updates or deletes them; the purge job drops events older
 * than AUDIT_RETENTION_DAYS.
 */

export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

const actionFilter = z
  .enum([...AUDIT_ACTIONS, ''], { error: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  .optional()
  .transform((v) => (v ? v : undefined));

export const auditQuerySchema = pagingSchema(AUDIT_PAGE_SIZE).extend({
  ...sortSchema(AUDIT_SORT_FIELDS).shape,
  action: actionFilter,
  operator: textFilter,
  target: textFilter,
  from: fromTime,
  to: toTime,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEventSchema = z.object({
  id: z.number(),
  /** ISO-8601 UTC. */
  at: z.string(),
  /** Who acted; null for events of nobody signed in (a failed sign-in, a password reset by code). */
  operator_id: z.number().nullable(),
  operator_email: z.string().nullable(),
  action: auditActionSchema,
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
export const auditListSchema = z.object({ events: z.array(auditEventSchema), total: z.number() });
export type AuditList = z.infer<typeof auditListSchema>;
