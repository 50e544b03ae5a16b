import type { FaultCodeQuery } from '@obd/contract';
import { contains, type FilterRules, flag } from '../../lib/filters.ts';

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

export const faultCodes = {
  table: 'fault_codes',
  rules,
  columns: [...common, 'title', 'severity', 'repair_difficulty'] as const,
  /** The primary key: pages never overlap or skip. */
  order: 'id',
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
} as const;

export type FaultTextList = keyof typeof faultTexts;
