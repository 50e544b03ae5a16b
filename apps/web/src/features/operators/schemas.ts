// The response schemas of the operators list and of the actions on it, fetched on demand alongside
// their requests (list/declaration.ts `listSource`, lib/api.ts `apiFetchParsedLater`): zod and the
// schemas stay out of the Operators screen's first download.
export {
  invitationResponseSchema,
  operatorListSchema,
  operatorRowSchema,
  passwordResetIssuedSchema,
  pendingInvitationsSchema,
  sessionsEndedSchema,
} from '@obd/contract';
