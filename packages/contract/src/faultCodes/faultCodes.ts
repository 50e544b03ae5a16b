import { z } from 'zod';
import { booleanFilter, dataListSchema, pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import {
  FAULT_CODE_SORT_FIELDS,
  FAULT_CODES_PAGE_SIZE,
  FAULT_TEXT_SORT_FIELDS,
} from './faultCodes.constants.ts';

const faultFilters = {
  dtc: textFilter,
  make: textFilter,
  generic: booleanFilter,
};
/** Query of the fault codes browser: dtc and make contain (case-insensitive), generic exact. */
export const faultCodeListQuerySchema = pagingSchema(FAULT_CODES_PAGE_SIZE).extend({
  ...sortSchema(FAULT_CODE_SORT_FIELDS).shape,
  ...faultFilters,
});
/** Query of the causes, symptoms and solutions browsers: the same filters. */
export const faultCodeQuerySchema = pagingSchema(FAULT_CODES_PAGE_SIZE).extend({
  ...sortSchema(FAULT_TEXT_SORT_FIELDS).shape,
  ...faultFilters,
});
export type FaultCodeQuery = z.infer<typeof faultCodeQuerySchema>;
export type FaultCodeListQuery = z.infer<typeof faultCodeListQuerySchema>;

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
