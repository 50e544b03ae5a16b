import type { OperatorRow, Role } from '@obd/contract';

export interface OperatorRecord {
  id: number;
  email: string;
  role: string;
  created_at: string;
  last_seen_at: string | null;
  disabled_at: string | null;
  open_sessions: number | string | bigint | null;
}

/** A row of the operators list: the status is said in words, the count as a number. */
export function toOperatorRow(row: OperatorRecord): OperatorRow {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    status: row.disabled_at ? 'disabled' : 'active',
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    disabled_at: row.disabled_at,
    open_sessions: Number(row.open_sessions ?? 0),
  };
}
