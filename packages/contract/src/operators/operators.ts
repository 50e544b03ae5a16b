import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../auth/auth.constants.ts';
import { roleSchema } from '../auth/auth.ts';
import { pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import { OPERATOR_SORT_FIELDS, OPERATOR_STATUSES, OPERATORS_PAGE_SIZE } from './operators.constants.ts';

/*
 * Operators, their sessions and password resets (issue 11). Admin-only routes answer a viewer or
 * editor 403 with a sentence; `POST /api/password-reset` is public and throttled like sign-in.
 * List rows use the list engine's shape (`{ operators, total }`, snake_case fields as in every
 * list); answers to actions use camelCase like the other action answers (`expiresAt`).
 */

export const operatorStatusSchema = z.enum(OPERATOR_STATUSES);
export type OperatorStatus = z.infer<typeof operatorStatusSchema>;

/** An optional choice in a query string; empty means "all". */
const roleFilter = z
  .enum(['viewer', 'editor', 'admin', ''], { error: 'role must be viewer, editor or admin' })
  .optional()
  .transform((v) => (v ? v : undefined));
const statusFilter = z
  .enum(['active', 'disabled', ''], { error: 'status must be active or disabled' })
  .optional()
  .transform((v) => (v ? v : undefined));

export const operatorQuerySchema = pagingSchema(OPERATORS_PAGE_SIZE).extend({
  ...sortSchema(OPERATOR_SORT_FIELDS).shape,
  role: roleFilter,
  status: statusFilter,
  email: textFilter,
});
export type OperatorQuery = z.infer<typeof operatorQuerySchema>;

export const operatorRowSchema = z.object({
  id: z.number(),
  email: z.string(),
  role: roleSchema,
  status: operatorStatusSchema,
  created_at: z.string(),
  /** The last request of any of their sessions (refreshed about once a minute), or null if never. */
  last_seen_at: z.string().nullable(),
  disabled_at: z.string().nullable(),
  /** Sessions neither ended nor expired. */
  open_sessions: z.number(),
});
export type OperatorRow = z.infer<typeof operatorRowSchema>;
export const operatorListSchema = z.object({ operators: z.array(operatorRowSchema), total: z.number() });
export type OperatorList = z.infer<typeof operatorListSchema>;

/**
 * Change a role, disable or enable. Disabling ends all the operator's sessions at once. The last
 * active admin can be neither demoted nor disabled (409 with a sentence).
 */
export const operatorPatchSchema = z
  .object({ role: roleSchema.optional(), disabled: z.boolean().optional() })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, {
    error: 'send role, disabled or both',
  });
export type OperatorPatch = z.infer<typeof operatorPatchSchema>;

/** `DELETE /api/operators/:id/sessions` and `DELETE /api/me/sessions/:id` say how many ended. */
export const sessionsEndedSchema = z.object({ ended: z.number() });
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;

export const passwordResetIssuedSchema = z.object({ code: z.string(), expiresAt: z.string() });
export type PasswordResetIssued = z.infer<typeof passwordResetIssuedSchema>;

const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(1024);

/**
 * The public reset: answers 204 when the code was valid (every session of that operator ends;
 * sign in with the new password), and the same 403 sentence whether the e-mail is unknown or the
 * code is wrong, used or expired. Throttled like sign-in (429 with Retry-After).
 */
export const passwordResetBodySchema = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').max(254),
  code: z.string().trim().min(1, 'Enter the reset code.').max(200),
  password: newPassword,
});
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;

/** Change own password: needs the current one (403 if wrong, throttled); ends every other session; 204. */
export const passwordChangeBodySchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(1024),
  password: newPassword,
});
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>;

/** One of the signed-in operator's open sessions (`GET /api/me/sessions`), newest first. */
export const mySessionSchema = z.object({
  id: z.number(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  /** The client address at sign-in, or null for sessions started before addresses were kept. */
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The session of this very request. */
  current: z.boolean(),
});
export type MySession = z.infer<typeof mySessionSchema>;
export const mySessionsSchema = z.object({ sessions: z.array(mySessionSchema) });
export type MySessions = z.infer<typeof mySessionsSchema>;
