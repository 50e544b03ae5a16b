// The schemas of the sign-in answers, fetched on demand (lib/api.ts `apiFetchParsedLater`): the
// login page and the session query are in the first download, and zod is not.
export { operatorSchema, sessionResponseSchema } from '@obd/contract';
