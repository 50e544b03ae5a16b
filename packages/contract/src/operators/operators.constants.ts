/** The zod-free values of operators.ts (kept apart so the web app's first download takes them without zod). */
export const OPERATORS_PATH = '/api/operators';

export const OPERATORS_PAGE_SIZE = 50;

/** `PATCH /api/operators/:id`. */
export const operatorPath = (id: number) => `${OPERATORS_PATH}/${id}`;

/** `DELETE /api/operators/:id/sessions`: ends every session of the operator. */
export const operatorSessionsPath = (id: number) => `${OPERATORS_PATH}/${id}/sessions`;

/** `POST /api/operators/:id/password-reset`: issues a one-time reset code. */
export const operatorPasswordResetPath = (id: number) => `${OPERATORS_PATH}/${id}/password-reset`;

/** `POST /api/password-reset` (public): e-mail, code and a new password. */
export const PASSWORD_RESET_PATH = '/api/password-reset';

export const MY_SESSIONS_PATH = '/api/me/sessions';

export const mySessionPath = (id: number) => `${MY_SESSIONS_PATH}/${id}`;

export const MY_PASSWORD_PATH = '/api/me/password';

export const OPERATOR_STATUSES = ['active', 'disabled'] as const;

/** Role and status exact; e-mail contains, case-insensitive. */
/**
 * The operators list's sortable columns (decisions §9); without a sort, by e-mail. `status` sorts
 * as `disabled_at` does: active ones first ascending.
 */
export const OPERATOR_SORT_FIELDS = [
  'id',
  'email',
  'role',
  'status',
  'created_at',
  'last_seen_at',
  'disabled_at',
] as const;

/** How long an admin-issued password-reset code works. */
export const PASSWORD_RESET_TTL_HOURS = 24;
