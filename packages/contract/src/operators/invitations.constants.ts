/** The zod-free values of invitations.ts (kept apart so the web app's first download takes them without zod). */
export const INVITATIONS_PATH = '/api/invitations';

/** `DELETE /api/invitations/:id`: revokes a pending invitation (404 when it is used, expired or unknown). */
export const invitationPath = (id: number) => `${INVITATIONS_PATH}/${id}`;

/** The sign-up page's link carrying a code: `/signup?code=…`. */
export const signupLink = (code: string) => `/signup?code=${encodeURIComponent(code)}`;
