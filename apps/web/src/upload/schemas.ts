// The import answers' schemas, fetched on demand alongside their requests (lib/api.ts
// `apiFetchParsedLater`, list/declaration.ts `listSource`): zod and the schemas stay out of the
// Import History's first download.
export { importDetailSchema, importHistorySchema, importUndoResponseSchema } from '@obd/contract';
