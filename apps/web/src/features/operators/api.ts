import type { InvitationBody, OperatorPatch } from '@obd/contract';
import {
  INVITATIONS_PATH,
  invitationPath,
  OPERATORS_PATH,
  operatorPasswordResetPath,
  operatorPath,
  operatorSessionsPath,
} from '@obd/contract/constants';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { apiFetch, apiFetchParsedLater } from '../../lib/api.ts';
import { meQueryOptions } from '../auth/session.ts';

/*
 * The operator and invitation requests (issue 11), each declared once: the operators list itself
 * is the list engine's (declarations.tsx); these are the actions on it and the invitations. Their
 * schemas come with the requests (schemas.ts), so the screen's first download has no zod.
 */

const schemas = () => import('./schemas.ts');

/** The pending invitations (neither used, revoked nor expired). */
export const invitationsQueryOptions = queryOptions({
  queryKey: ['invitations'],
  queryFn: ({ signal }) =>
    apiFetchParsedLater(async () => (await schemas()).pendingInvitationsSchema, INVITATIONS_PATH, { signal }),
  // Used or expired while the admin looks elsewhere: asked again whenever the screen opens.
  staleTime: 0,
});

export const createInvitation = (body: InvitationBody) =>
  apiFetchParsedLater(async () => (await schemas()).invitationResponseSchema, INVITATIONS_PATH, {
    method: 'POST',
    body,
  });

export const revokeInvitation = (id: number) => apiFetch(invitationPath(id), { method: 'DELETE' });

export const patchOperator = (id: number, body: OperatorPatch) =>
  apiFetchParsedLater(async () => (await schemas()).operatorRowSchema, operatorPath(id), {
    method: 'PATCH',
    body,
  });

export const endOperatorSessions = (id: number) =>
  apiFetchParsedLater(async () => (await schemas()).sessionsEndedSchema, operatorSessionsPath(id), {
    method: 'DELETE',
  });

export const issuePasswordReset = (id: number) =>
  apiFetchParsedLater(
    async () => (await schemas()).passwordResetIssuedSchema,
    operatorPasswordResetPath(id),
    {
      method: 'POST',
    },
  );

/**
 * After a change: the operators list (every page and filter) and the invitations are asked again,
 * and who is signed in (an admin may have changed their own role).
 */
export async function refreshOperators(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: meQueryOptions.queryKey }),
    queryClient.invalidateQueries({ queryKey: ['list', OPERATORS_PATH] }),
    queryClient.invalidateQueries({ queryKey: invitationsQueryOptions.queryKey }),
  ]);
}
