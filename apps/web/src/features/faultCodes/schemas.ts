// The response schemas of these lists, fetched on demand alongside their requests (see
// list/declaration.ts `listSource`): zod and the schemas stay out of a list page's first download.
export {
  faultCauseListSchema,
  faultCodeListSchema,
  faultSolutionListSchema,
  faultSymptomListSchema,
} from '@obd/contract';
