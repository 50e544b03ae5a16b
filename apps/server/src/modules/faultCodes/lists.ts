import { FAULT_CODE_SORT_FIELDS, FAULT_TEXT_SORT_FIELDS, type FaultCodeQuery } from '@obd/contract';
import { contains, type FilterRules, flag } from '../../lib/filters.ts';
import type { SortShape } from '../../lib/sort.ts';

/**
 * The shape of the four fault-code browsers, in one place: how each query parameter filters
 * them, the columns they show and their order. The repository and the exports read these;
 * nothing else restates them.
 */

/** The four reference tables share these columns, and so the browsers share their filters. */
const rules = {
  dtc: contains('dtc'),
  make: contains('make'),
  generic: flag('generic'),
} satisfies FilterRules<FaultCodeQuery>;

const common = ['id', 'dtc', 'make', 'company_id', 'generic'] as const;

/** Each field the contract sorts by (its `…_SORT_FIELDS`) is the column of that name. */
const byName = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(fields.map((f) => [f, f])) as Record<F, F>;

export const faultCodes = {
  table: 'fault_codes',
  rules,
  columns: [...common, 'title', 'severity', 'repair_difficulty'] as const,
  /** The primary key: pages never overlap or skip. */
  order: 'id',
  /** Sortable columns (decisions §9); without a sort, by id. Thousands of rows: no index needed. */
  sort: {
    columns: byName(FAULT_CODE_SORT_FIELDS),
    nullable: ['make', 'title', 'severity', 'repair_difficulty'],
    default: [['id', 'asc']],
    key: 'id',
  } satisfies SortShape<(typeof FAULT_CODE_SORT_FIELDS)[number]>,
} as const;

/** Causes, symptoms and solutions: the same shape, each with its own text column. */
export const faultTexts = {
  causes: { table: 'fault_code_causes', text: 'causes' },
  symptoms: { table: 'fault_code_symptoms', text: 'symptom' },
  solutions: { table: 'fault_code_solutions', text: 'solution' },
} as const;

export const faultText = {
  rules,
  columns: [...common, 'language'] as const,
  order: 'id',
  sort: {
    columns: byName(FAULT_TEXT_SORT_FIELDS),
    nullable: ['make'],
    default: [['id', 'asc']],
    key: 'id',
  } satisfies SortShape<(typeof FAULT_TEXT_SORT_FIELDS)[number]>,
} as const;

export type FaultTextList = keyof typeof faultTexts;
