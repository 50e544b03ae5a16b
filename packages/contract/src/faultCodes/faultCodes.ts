import { z } from 'zod';
import { booleanFilter, dataListSchema, pagingSchema, textFilter } from '../common/list.ts';

/** Page size of the four fault-code browsers (spec §9). */
export const FAULT_CODES_PAGE_SIZE = 30;

/** Query of every fault-code browser: dtc and make contain (case-insensitive), generic exact. */
export const faultCodeQuerySchema = pagingSchema(FAULT_CODES_PAGE_SIZE).extend({
  dtc: textFilter,
  make: textFilter,
  generic: booleanFilter,
});
export type FaultCodeQuery = z.infer<typeof faultCodeQuerySchema>;

const common = {
  id: z.number(),
  dtc: z.string(),
  make: z.string().nullable(),
  company_id: z.number(),
  generic: z.boolean(),
};

export const faultCodeRowSchema = z.object({
  ...common,
  title: z.string().nullable(),
  severity: z.number().nullable(),
  repair_difficulty: z.number().nullable(),
});
export const faultCauseRowSchema = z.object({ ...common, causes: z.string(), language: z.string() });
export const faultSymptomRowSchema = z.object({ ...common, symptom: z.string(), language: z.string() });
export const faultSolutionRowSchema = z.object({ ...common, solution: z.string(), language: z.string() });

export type FaultCodeRow = z.infer<typeof faultCodeRowSchema>;
export type FaultCauseRow = z.infer<typeof faultCauseRowSchema>;
export type FaultSymptomRow = z.infer<typeof faultSymptomRowSchema>;
export type FaultSolutionRow = z.infer<typeof faultSolutionRowSchema>;

export const faultCodeListSchema = dataListSchema(faultCodeRowSchema);
export const faultCauseListSchema = dataListSchema(faultCauseRowSchema);
export const faultSymptomListSchema = dataListSchema(faultSymptomRowSchema);
export const faultSolutionListSchema = dataListSchema(faultSolutionRowSchema);

/** API paths, verbatim from spec §7 (decisions §1). */
export const FAULT_CODE_PATHS = {
  list: '/api/faultCodesList',
  causes: '/api/FaultCodeCauses',
  symptoms: '/api/FaultCodeSymptoms',
  solutions: '/api/FaultCodeSolutions',
} as const;
