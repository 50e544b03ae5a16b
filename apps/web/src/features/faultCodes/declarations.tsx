import type {
  FaultCauseRow,
  FaultCodeQuery,
  FaultCodeRow,
  FaultSolutionRow,
  FaultSymptomRow,
} from '@obd/contract';
import {
  difficultyLabel,
  FAULT_CODE_PATHS,
  FAULT_CODE_SORT_FIELDS,
  FAULT_CODES_PAGE_SIZE,
  FAULT_TEXT_SORT_FIELDS,
  severityLabel,
} from '@obd/contract/constants';
import {
  type Column,
  defineList,
  type FilterField,
  type ListDeclaration,
  type ListMessages,
  type ListSource,
  listSource,
} from '../../list/declaration.ts';
import { fieldColumn } from '../../list/format.ts';
import { makeFilter } from '../shared/suggestions.ts';
import { GenericPill } from './GenericPill.tsx';

// The response schemas come with their requests (list/declaration.ts `listSource`): no zod in a list's first download.
const schemas = () => import('./schemas.ts');

/**
 * The four fault-code reference browsers (spec §2.18, §8): one shared filter form and column
 * pattern, each screen only naming its endpoint, text column and sentences.
 */

// Typed against the contract's query, so a filter the server does not know fails to compile.
type FaultCodeFilterName = Extract<keyof FaultCodeQuery, 'dtc' | 'make' | 'generic'>;

const FAULT_CODE_FILTERS: readonly FilterField<FaultCodeFilterName>[] = [
  { kind: 'text', name: 'dtc', label: 'DTC Code', placeholder: 'e.g. P0300' },
  makeFilter('make'),
  {
    kind: 'select',
    name: 'generic',
    label: 'Generic',
    // decisions §8
    options: [
      { value: '', label: 'All (Generic/Non-Generic)' },
      { value: 'true', label: 'Generic Only' },
      { value: 'false', label: 'Non-Generic Only' },
    ],
  },
];

/** The fields every fault-code row has. */
type FaultRow = Pick<FaultCodeRow, 'id' | 'dtc' | 'make' | 'company_id' | 'generic'>;

function genericColumn<Row extends FaultRow>(): Column<Row> {
  return { header: 'Generic', cell: (row) => <GenericPill generic={row.generic} />, sortField: 'generic' };
}

/** ID, DTC, the screen's text, Language, Make, Company ID, Generic. */
function textRowColumns<Row extends FaultRow & { language: string }>(
  textHeader: string,
  textKey: keyof Row & string,
): Column<Row>[] {
  return [
    fieldColumn<Row, 'id'>('ID', 'id'),
    fieldColumn<Row, 'dtc'>('DTC', 'dtc'),
    { ...fieldColumn<Row, typeof textKey>(textHeader, textKey), prose: true },
    fieldColumn<Row, 'language'>('Language', 'language'),
    fieldColumn<Row, 'make'>('Make', 'make'),
    // company_id 0 (generic codes) shows '0': cellText only dashes null, undefined and ''.
    fieldColumn<Row, 'company_id'>('Company ID', 'company_id'),
    genericColumn<Row>(),
  ];
}

function faultCodeBrowser<Row extends FaultRow>(declaration: {
  title: string;
  source: ListSource<Row>;
  columns: readonly Column<Row>[];
  messages: ListMessages;
  sortFields: readonly string[];
}): ListDeclaration<Row, FaultCodeFilterName> {
  return defineList({ ...declaration, pageSize: FAULT_CODES_PAGE_SIZE, filters: FAULT_CODE_FILTERS });
}

export const faultCodeSymptoms = faultCodeBrowser({
  title: 'Fault Code Symptoms',
  source: listSource(FAULT_CODE_PATHS.symptoms, async () => (await schemas()).faultSymptomListSchema, 'data'),
  sortFields: FAULT_TEXT_SORT_FIELDS,
  // decisions §5: headed Symptom (the spec's "Solution" was a typo).
  columns: textRowColumns<FaultSymptomRow>('Symptom', 'symptom'),
  messages: {
    error: 'Failed to fetch fault code data. Please try again.',
    emptyFiltered: 'No fault codes found for the specified criteria.',
    emptyUnfiltered: 'No fault codes available.',
  },
});

export const faultCodeSolutions = faultCodeBrowser({
  title: 'Fault Code Solutions',
  source: listSource(
    FAULT_CODE_PATHS.solutions,
    async () => (await schemas()).faultSolutionListSchema,
    'data',
  ),
  sortFields: FAULT_TEXT_SORT_FIELDS,
  columns: textRowColumns<FaultSolutionRow>('Solution', 'solution'),
  messages: {
    error: 'Failed to fetch fault code solutions. Please try again.',
    emptyFiltered: 'No solutions found for the specified criteria.',
    emptyUnfiltered: 'No solutions available.',
  },
});

export const faultCodeCauses = faultCodeBrowser({
  title: 'Fault Code Causes',
  source: listSource(FAULT_CODE_PATHS.causes, async () => (await schemas()).faultCauseListSchema, 'data'),
  sortFields: FAULT_TEXT_SORT_FIELDS,
  columns: textRowColumns<FaultCauseRow>('Causes', 'causes'),
  messages: {
    error: 'Failed to fetch fault code causes. Please try again.',
    emptyFiltered: 'No causes found for the specified criteria.',
    emptyUnfiltered: 'No causes available.',
  },
});

export const faultCodeList = faultCodeBrowser({
  title: 'Fault Code List',
  source: listSource(FAULT_CODE_PATHS.list, async () => (await schemas()).faultCodeListSchema, 'data'),
  sortFields: FAULT_CODE_SORT_FIELDS,
  columns: [
    fieldColumn<FaultCodeRow, 'id'>('ID', 'id'),
    fieldColumn<FaultCodeRow, 'dtc'>('DTC', 'dtc'),
    fieldColumn<FaultCodeRow, 'title'>('Title', 'title'),
    { header: 'Severity', cell: (row) => severityLabel(row.severity), sortField: 'severity' },
    {
      header: 'Repair Difficulty',
      cell: (row) => difficultyLabel(row.repair_difficulty),
      sortField: 'repair_difficulty',
    },
    fieldColumn<FaultCodeRow, 'make'>('Make', 'make'),
    fieldColumn<FaultCodeRow, 'company_id'>('Company ID', 'company_id'),
    genericColumn<FaultCodeRow>(),
  ],
  messages: {
    error: 'Failed to fetch fault codes. Please try again.',
    emptyFiltered: 'No fault codes found for the specified criteria.',
    emptyUnfiltered: 'No fault codes available.',
  },
});
