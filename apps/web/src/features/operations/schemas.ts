// The response schemas of the operations lists, fetched on demand alongside their requests (see
// list/declaration.ts `listSource`): zod and the schemas stay out of a list page's first download.
export {
  actuationRunListSchema,
  scanListSchema,
  specialFunctionListSchema,
  userFacetsSchema,
  userListSchema,
} from '@obd/contract';
