import { z } from 'zod';
import { pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';

export const COVERAGE_PATH = '/api/getCoverage';
export const COVERAGE_PAGE_SIZE = 30;
/** The coverage list's sortable columns (decisions §9); without a sort, by id. */
export const COVERAGE_SORT_FIELDS = ['id', 'make', 'function_name', 'function_type'] as const;
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
