/** The zod-free values of auth.ts (kept apart so the web app's first download takes them without zod). */
export const ROLES = ['viewer', 'editor', 'admin'] as const;

export const MIN_PASSWORD_LENGTH = 8;

export const INVITATION_DAYS = { min: 1, max: 30, default: 7 } as const;
