import type { AuditAction, AuditEvent } from '@obd/contract';

/** Details are JSON text of an object; anything else (never written) shows as empty. */
function detailsOf(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export interface AuditRow {
  id: number;
  at: string;
  operator_id: number | null;
  operator_email: string | null;
  action: string;
  target: string | null;
  details: string;
  address: string | null;
  user_agent: string | null;
}

export function toAuditEvent(row: AuditRow): AuditEvent {
  return { ...row, action: row.action as AuditAction, details: detailsOf(row.details) };
}
