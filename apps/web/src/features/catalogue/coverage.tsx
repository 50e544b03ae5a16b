import type { CoverageQuery, CoverageRow } from '@obd/contract';
import { COVERAGE_PAGE_SIZE, COVERAGE_PATH, COVERAGE_SORT_FIELDS } from '@obd/contract/constants';
import { defineList, type FilterField, listSource, type QueryFilterName } from '../../list/declaration.ts';
import { fieldColumn } from '../../list/format.ts';
import { makeFilter } from '../shared/suggestions.ts';

/**
 * Coverage Data (`/Api1`, spec §2.4): apart from the other catalogue screens (declarations.tsx), so
 * its first download holds none of their cards, grids and lists (issue 14: ≤ 150 kB gzip).
 */

// The response schemas come with their requests (list/declaration.ts `listSource`): no zod in a list's first download.
const schemas = () => import('./schemas.ts');

const COVERAGE_FILTERS: readonly FilterField<QueryFilterName<CoverageQuery>>[] = [
  { ...makeFilter('make'), label: 'Car Make', placeholder: 'Enter car make (e.g. Hyundai)' },
];

export const coverageData = defineList({
  title: 'Coverage Data',
  source: listSource(COVERAGE_PATH, async () => (await schemas()).coverageListSchema, 'coverages'),
  pageSize: COVERAGE_PAGE_SIZE,
  filters: COVERAGE_FILTERS,
  columns: [
    fieldColumn<CoverageRow, 'function_name'>('Function Name', 'function_name'),
    fieldColumn<CoverageRow, 'function_type'>('Function Type', 'function_type'),
  ],
  sortFields: COVERAGE_SORT_FIELDS,
  messages: {
    error: 'Something went wrong',
    invalid: 'Invalid response format',
    emptyFiltered: 'No coverage data found for this make.',
    emptyUnfiltered: 'No coverage data available.',
  },
  export: { list: 'coverage', format: 'xlsx' },
  display: {
    summary: ({ pageItemCount, total }) => `Showing ${pageItemCount} out of ${total} results`,
    pagerCaption: ({ page, pages, total }) => `Showing page ${page} of ${pages} (${total} total items)`,
  },
});
