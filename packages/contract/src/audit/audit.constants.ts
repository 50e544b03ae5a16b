/** The zod-free values of audit.ts (kept apart so the web app's first download takes them without zod). */
import type { AuditAction } from './audit.ts';

export const AUDIT_PATH = '/api/audit';

export const AUDIT_PAGE_SIZE = 50;

/** Every action the log records; `target` and `details` of each are described in AUDIT_ACTION_LABELS' comments. */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'sign-up',
  'invitation-created',
  'invitation-revoked',
  'invitation-used',
  'role-changed',
  'operator-disabled',
  'operator-enabled',
  'sessions-ended',
  'password-changed',
  'password-reset-issued',
  'password-reset',
  'export',
  'import',
  'import-undone',
] as const;

/** What the audit screen shows for each action. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  // target: the e-mail; details: {}
  'sign-in': 'Signed in',
  // target: the e-mail as typed; details: { email, reason: unknown-email | wrong-password | disabled }
  'sign-in-failed': 'Failed sign-in',
  // target: the e-mail
  'sign-out': 'Signed out',
  // target: the new operator's e-mail; details: { role, first: true | invitationId }
  'sign-up': 'Signed up',
  // target: `invitation #id`; details: { role, expiresAt }
  'invitation-created': 'Invitation created',
  'invitation-revoked': 'Invitation revoked',
  // target: `invitation #id`; details: { role, email }
  'invitation-used': 'Invitation used',
  // target: the operator's e-mail; details: { from, to }
  'role-changed': 'Role changed',
  // target: the operator's e-mail; details: { sessionsEnded }
  'operator-disabled': 'Operator disabled',
  'operator-enabled': 'Operator enabled',
  // target: the operator's e-mail; details: { ended, sessionIds? , own? }
  'sessions-ended': 'Sessions ended',
  // target: the operator's e-mail; details: { otherSessionsEnded }
  'password-changed': 'Password changed',
  // target: the operator's e-mail; details: { expiresAt }
  'password-reset-issued': 'Password reset code issued',
  // target: the operator's e-mail; details: { sessionsEnded }
  'password-reset': 'Password reset',
  // target: the list's name; details: { list, format, filters, rows, outcome }
  export: 'Export',
  // target: `import #id`; details: { kind, fileName, size, hash, outcome, counts }
  import: 'Import',
  'import-undone': 'Import undone',
};

/**
 * Filters: action (exact), operator (the acting operator's e-mail contains, case-insensitive),
 * target (exact, as shown in the list), from / to (time ≥ from, ≤ to; a date alone covers the
 * whole day). Newest first. Totals are exact.
 */
/**
 * The audit log's sortable columns (decisions §9); without a sort, newest first. Not the operator:
 * the event keeps the operator's id and the e-mail is joined, so that order could walk no index at
 * a million events; the operator filter narrows to one instead.
 */
export const AUDIT_SORT_FIELDS = ['id', 'at', 'action', 'target'] as const;
