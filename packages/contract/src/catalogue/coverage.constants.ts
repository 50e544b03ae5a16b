/** The zod-free values of coverage.ts (kept apart so the web app's first download takes them without zod). */
export const COVERAGE_PATH = '/api/getCoverage';

export const COVERAGE_PAGE_SIZE = 30;

/** The coverage list's sortable columns (decisions §9); without a sort, by id. */
export const COVERAGE_SORT_FIELDS = ['id', 'make', 'function_name', 'function_type'] as const;
