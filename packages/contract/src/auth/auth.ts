import { z } from 'zod';
import { INVITATION_DAYS, MIN_PASSWORD_LENGTH, ROLES } from './auth.constants.ts';

export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const loginBodySchema = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').max(254),
  password: z.string().min(1, 'Enter your password.').max(1024),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const signupBodySchema = z.object({
  email: z.email('Enter a valid email address.').trim().max(254),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`)
    .max(1024),
  invitationCode: z.string().trim().max(200).optional(),
});
export type SignupBody = z.infer<typeof signupBodySchema>;

export const operatorSchema = z.object({ id: z.number(), email: z.string(), role: roleSchema });
export type Operator = z.infer<typeof operatorSchema>;

/** Login and sign-up both answer with a token and who signed in. */
export const sessionResponseSchema = z.object({ token: z.string(), operator: operatorSchema });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** `GET /api/signup` tells the sign-up screen whether an invitation code is needed. */
export const signupStatusSchema = z.object({ invitationRequired: z.boolean() });
export type SignupStatus = z.infer<typeof signupStatusSchema>;

/** `POST /api/invitations` (admin): the role the code gives and how many days it works (1–30, default 7). */
export const invitationBodySchema = z.object({
  role: roleSchema.default('viewer'),
  expiresInDays: z
    .number({
      error: `expiresInDays must be a whole number of days from ${INVITATION_DAYS.min} to ${INVITATION_DAYS.max}`,
    })
    .int(`expiresInDays must be a whole number of days from ${INVITATION_DAYS.min} to ${INVITATION_DAYS.max}`)
    .min(
      INVITATION_DAYS.min,
      `expiresInDays must be a whole number of days from ${INVITATION_DAYS.min} to ${INVITATION_DAYS.max}`,
    )
    .max(
      INVITATION_DAYS.max,
      `expiresInDays must be a whole number of days from ${INVITATION_DAYS.min} to ${INVITATION_DAYS.max}`,
    )
    .default(INVITATION_DAYS.default),
});
export type InvitationBody = z.input<typeof invitationBodySchema>;
/** The one-time code is shown once, here; only its hash is stored. */
export const invitationResponseSchema = z.object({
  id: z.number(),
  code: z.string(),
  role: roleSchema,
  expiresAt: z.string(),
});
