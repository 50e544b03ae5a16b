// The audit log's response schemas, fetched on demand alongside their requests (list/declaration.ts
// `listSource`, list/detail.ts): zod and the schemas stay out of the audit log's first download.
export { auditEventSchema, auditListSchema } from '@obd/contract';
