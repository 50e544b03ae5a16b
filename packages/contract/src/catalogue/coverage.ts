import { z } from 'zod';
import { pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import { COVERAGE_PAGE_SIZE, COVERAGE_SORT_FIELDS } from './coverage.constants.ts';

export const coverageQuerySchema = pagingSchema(COVERAGE_PAGE_SIZE).extend({
  ...sortSchema(COVERAGE_SORT_FIELDS).shape,
  make: textFilter,
});
export type CoverageQuery = z.infer<typeof coverageQuerySchema>;
export const coverageRowSchema = z.object({
  id: z.number(),
  make: z.string(),
  function_name: z.string(),
  function_type: z.string(),
});
export type CoverageRow = z.infer<typeof coverageRowSchema>;
export const coverageListSchema = z.object({ coverages: z.array(coverageRowSchema), total: z.number() });
