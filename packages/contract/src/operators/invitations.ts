import { z } from 'zod';
import { roleSchema } from '../auth/auth.ts';

/*
 * Invitations (admin only): `POST /api/invitations` is in auth/auth.ts (`invitationBodySchema`,
 * `invitationResponseSchema`: the CLI and sign-up share them); listing and revoking are here.
 */

/** A pending invitation: neither used, revoked nor expired. The code itself is never shown again. */
export const pendingInvitationSchema = z.object({
  id: z.number(),
  role: roleSchema,
  created_at: z.string(),
  expires_at: z.string(),
  /** The admin who issued it, or null (the command line). */
  created_by: z.string().nullable(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;
export const pendingInvitationsSchema = z.object({ invitations: z.array(pendingInvitationSchema) });
export type PendingInvitations = z.infer<typeof pendingInvitationsSchema>;
