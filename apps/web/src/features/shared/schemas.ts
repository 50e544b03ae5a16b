// The make list's schema, fetched on demand with the suggestions' request (lib/api.ts
// `apiFetchParsedLater`): a list page's first download has no zod.
export { makeListSchema } from '@obd/contract';
