import type {
  CommandQuery,
  CommandRow,
  CustomCommand,
  CustomCommandQuery,
  LiveDataQuery,
  LiveDataRow,
  ModelListQuery,
  OdometerRow,
} from '@obd/contract';
import {
  ACTUATION_COMMAND_SORT_FIELDS,
  ACTUATION_COMMANDS_PAGE_SIZE,
  ACTUATION_COMMANDS_PATH,
  COMMAND_API_PATH,
  COMMAND_PAGE_SIZE,
  CUSTOM_COMMAND_SORT_FIELDS,
  CUSTOM_COMMANDS_PAGE_SIZE,
  CUSTOM_COMMANDS_PATH,
  FUNCTION_TYPES,
  LIVE_DATA_PAGE_SIZE,
  LIVE_DATA_PATH,
  LIVE_DATA_SORT_FIELDS,
  MAKE_LIST_PATH,
  MAKE_SORT_FIELDS,
  MAX_LIMIT,
  MODEL_LIST_PATH,
  MODEL_SORT_FIELDS,
  ODOMETER_PAGE_SIZE,
  ODOMETER_PATH,
  ODOMETER_SORT_FIELDS,
  SPF_COMMAND_SORT_FIELDS,
  SPF_COMMANDS_PAGE_SIZE,
  SPF_COMMANDS_PATH,
} from '@obd/contract/constants';
import { CellList, splitList } from '../../list/CellList.tsx';
import { defineList, type FilterField, listSource, type QueryFilterName } from '../../list/declaration.ts';
import { fieldColumn } from '../../list/format.ts';
import { makeFilter, segmentSuggestions } from '../shared/suggestions.ts';
import { commandMatches, commandType, describeCommandError, parseModules } from './commands.ts';
import {
  ActuationCards,
  NameList,
  NumberedGrid,
  ReferenceButton,
  SpfCards,
  VariantCommands,
  variantsText,
} from './views.tsx';

export { coverageData } from './coverage.tsx';

// The response schemas come with their requests (list/declaration.ts `listSource`): no zod in a list's first download.
const schemas = () => import('./schemas.ts');

/**
 * The catalogue screens (spec §2.4–2.12, §8): each a declaration on the list engine, naming its
 * endpoint, filters, how its rows are drawn and its sentences.
 */

/** Make, Model, Year: the filters of the command catalogues. */
const VEHICLE_FILTERS: readonly FilterField<QueryFilterName<CustomCommandQuery>>[] = [
  makeFilter('make'),
  { kind: 'text', name: 'model', label: 'Model', placeholder: 'e.g. City' },
  { kind: 'text', name: 'year', label: 'Year', placeholder: 'e.g. 2019' },
];

// decisions §8: the defaults, fetched once on opening.
const COMMAND_FILTERS: readonly FilterField<QueryFilterName<CommandQuery>>[] = [
  { ...makeFilter('make', 'Vehicle Make'), defaultValue: 'Honda' },
  {
    kind: 'select',
    name: 'function_type',
    label: 'Function Type',
    options: FUNCTION_TYPES.map(({ value, label }) => ({ value, label })),
    defaultValue: 'scan',
  },
  { kind: 'checkbox', name: 'full_scan', label: 'Full Scan', defaultValue: 'true' },
  {
    kind: 'text',
    name: 'module',
    label: 'Select Modules',
    placeholder: 'Comma separated, e.g. Engine, ABS, HVAC',
    defaultValue: 'Engine, ABS',
  },
];

export const mechanicCommands = defineList({
  title: 'Automotive Diagnostic Commands',
  source: listSource(COMMAND_API_PATH, async () => (await schemas()).commandListSchema, 'data'),
  pageSize: COMMAND_PAGE_SIZE,
  filters: COMMAND_FILTERS,
  fetching: {
    params: (filters) => ({
      make: filters.make ?? '',
      function_type: filters.function_type ?? 'scan',
      full_scan: filters.full_scan ?? 'true',
      module: JSON.stringify(parseModules(filters.module)),
    }),
    canFetch: (filters) => parseModules(filters.module).length > 0,
    // One request for everything (up to the server's maximum), searched and paged in the browser.
    paging: {
      fetchLimit: MAX_LIMIT,
      pageSizes: [10, 30, 50, 100],
      defaultPageSize: 100,
      search: {
        label: 'Search Commands',
        placeholder: 'Filter by command or module',
        matches: commandMatches,
      },
    },
  },
  columns: [
    fieldColumn<CommandRow, 'command'>('Command', 'command'),
    fieldColumn<CommandRow, 'module'>('Module', 'module'),
    { header: 'Type', cell: (row) => commandType(row.command) },
  ],
  rowKey: (row, index) => `${index}:${row.module}:${row.command}`,
  // Sorted in the browser, as it is paged there (the rows of the one fetch).
  sortFields: ['command', 'module'],
  messages: {
    error: 'An unknown error occurred',
    emptyFiltered: 'No Commands Found',
    emptyUnfiltered: 'No Commands Found',
    describeError: describeCommandError,
  },
  display: {
    searchLabel: 'Fetch Commands',
    summary: ({ total, filters }) => `${total} commands found for ${filters.make ?? ''}`,
    pagerEnds: true,
  },
});

export const bikeMakeList = defineList({
  title: 'Bike Make List',
  source: listSource(MAKE_LIST_PATH, async () => (await schemas()).makeListSchema, 'data'),
  pageSize: MAX_LIMIT,
  // `segement` (sic) is the endpoint's parameter (decisions §1).
  filters: [
    {
      kind: 'text',
      name: 'segement',
      label: 'Segment',
      placeholder: 'e.g. bike, car, three_wheeler, hcv',
      defaultValue: 'bike',
      suggestions: segmentSuggestions,
    },
  ],
  fetching: { paging: 'none', trigger: 'auto' },
  renderRows: (rows) => <NameList label="Makes" names={rows.map((row) => row.name)} />,
  sortFields: MAKE_SORT_FIELDS,
  messages: {
    error: 'Failed to fetch bike makes. Please try again.',
    emptyFiltered: 'No bike makes found.',
    emptyUnfiltered: 'No bike makes found.',
  },
  export: { list: 'makes', format: 'csv', label: 'Download Excel' },
  display: {
    summary: ({ total, filters }) =>
      `${total} ${total === 1 ? 'make' : 'makes'}${filters.segement ? ` in segment ${filters.segement}` : ''}`,
  },
});

const MODEL_FILTERS: readonly FilterField<keyof ModelListQuery>[] = [
  { ...makeFilter('make'), placeholder: 'Enter a make (e.g. Mahindra)', defaultValue: 'Mahindra' },
];

export const modelListPage = defineList({
  title: 'Model List Page',
  source: listSource(MODEL_LIST_PATH, async () => (await schemas()).modelListSchema, 'data'),
  pageSize: MAX_LIMIT,
  filters: MODEL_FILTERS,
  fetching: {
    paging: 'none',
    trigger: 'auto',
    // The endpoint needs a make; an emptied input shows nothing rather than an error.
    canFetch: (filters) => Boolean(filters.make),
  },
  renderRows: (rows) => <NumberedGrid label="Models" names={rows.map((row) => row.name)} />,
  sortFields: MODEL_SORT_FIELDS,
  messages: {
    error: 'Failed to fetch model list. Please try again later.',
    emptyFiltered: 'No models found for the entered make.',
    emptyUnfiltered: 'No models found for the entered make.',
  },
  export: { list: 'models', format: 'csv' },
  display: {
    summary: ({ total, filters }) => `Total Models: ${total}${filters.make ? ` (${filters.make})` : ''}`,
  },
});

export const customCommands = defineList({
  title: 'Custom commands',
  source: listSource(CUSTOM_COMMANDS_PATH, async () => (await schemas()).customCommandListSchema, 'data'),
  pageSize: CUSTOM_COMMANDS_PAGE_SIZE,
  filters: VEHICLE_FILTERS,
  columns: [
    fieldColumn<CustomCommand, 'function_name'>('Function Name', 'function_name'),
    // An unfiltered group names every make it has (46): the first few, then "and 41 more".
    { header: 'Make', cell: (row: CustomCommand) => <CellList items={splitList(row.make)} /> },
    { header: 'Model', cell: (row: CustomCommand) => <CellList items={splitList(row.model)} /> },
    { header: 'Variants', cell: variantsText },
    { header: 'Commands', cell: (row) => <VariantCommands row={row} />, prose: true },
  ],
  rowKey: (row) => `${row.function_name}|${row.make}|${row.model}`,
  // A page is a run of whole groups: it sorts by the group's name only (contract, grouped.ts).
  sortFields: CUSTOM_COMMAND_SORT_FIELDS,
  messages: {
    error: 'Failed to fetch commands',
    emptyFiltered: 'No custom commands found for the given car details.',
    emptyUnfiltered: 'No custom commands found for the given car details.',
  },
});

export const actuationCommands = defineList({
  title: 'Actuation commands',
  source: listSource(
    ACTUATION_COMMANDS_PATH,
    async () => (await schemas()).actuationCommandListSchema,
    'data',
  ),
  pageSize: ACTUATION_COMMANDS_PAGE_SIZE,
  filters: VEHICLE_FILTERS,
  renderRows: (rows) => <ActuationCards groups={rows} />,
  // Cards of whole groups: sorted by the group's name only (sort buttons, no header).
  sortFields: ACTUATION_COMMAND_SORT_FIELDS,
  messages: {
    error: 'Failed to fetch actuation commands.',
    emptyFiltered: 'No actuation data found for the specified criteria.',
    emptyUnfiltered: 'No actuation data available.',
  },
  export: { list: 'actuationCommands', format: 'csv' },
});

export const spfCommands = defineList({
  title: 'SPF Commands',
  source: listSource(SPF_COMMANDS_PATH, async () => (await schemas()).spfCommandListSchema, 'data'),
  pageSize: SPF_COMMANDS_PAGE_SIZE,
  filters: VEHICLE_FILTERS,
  renderRows: (rows) => <SpfCards groups={rows} />,
  sortFields: SPF_COMMAND_SORT_FIELDS,
  messages: {
    error: 'Failed to fetch SPF commands. Please try again later.',
    emptyFiltered: 'No data found for the given car details.',
    emptyUnfiltered: 'No data found for the given car details.',
  },
});

const odometerColumn = <Key extends keyof OdometerRow & string>(header: string, key: Key) =>
  fieldColumn<OdometerRow, Key>(header, key);

export const odometerCommands = defineList({
  title: 'Odometer commands',
  source: listSource(ODOMETER_PATH, async () => (await schemas()).odometerListSchema, 'data'),
  pageSize: ODOMETER_PAGE_SIZE,
  filters: VEHICLE_FILTERS,
  // The 12 fields of an odometer entry (spec §3), headed like the CSV export.
  columns: [
    odometerColumn('Header', 'header'),
    odometerColumn('Sub Header', 'subHeader'),
    odometerColumn('PID', 'pid'),
    odometerColumn('Protocol', 'protocol'),
    odometerColumn('System', 'system'),
    odometerColumn('Init', 'init'),
    odometerColumn('Formula Based', 'formulaBased'),
    odometerColumn('Generic', 'generic'),
    odometerColumn('Formula (Metric)', 'formula_metric'),
    odometerColumn('Formula (Imperial)', 'formula_imperial'),
    odometerColumn('Unit (Metric)', 'unit_metric'),
    odometerColumn('Unit (Imperial)', 'unit_imperial'),
  ],
  sortFields: ODOMETER_SORT_FIELDS,
  messages: {
    error: 'Failed to fetch odometer data. Please try again.',
    emptyFiltered: 'No odometer data found for the specified criteria.',
    emptyUnfiltered: 'No odometer data available.',
    invalid: 'No odometer data found.',
  },
  export: { list: 'odometer', format: 'csv' },
});

const liveColumn = <Key extends keyof LiveDataRow & string>(header: string, key: Key) =>
  fieldColumn<LiveDataRow, Key>(header, key);

const LIVE_DATA_FILTERS: readonly FilterField<QueryFilterName<LiveDataQuery>>[] = [
  makeFilter('make'),
  { kind: 'text', name: 'model', label: 'Model', placeholder: 'e.g. City' },
  { kind: 'text', name: 'module', label: 'Module', placeholder: 'e.g. Engine' },
];

export const liveDataCommands = defineList({
  title: 'Live Commands',
  source: listSource(LIVE_DATA_PATH, async () => (await schemas()).liveDataListSchema, 'data'),
  pageSize: LIVE_DATA_PAGE_SIZE,
  filters: LIVE_DATA_FILTERS,
  // The 13 fields without `referenceJSON` (decisions §5), which opens per row.
  columns: [
    liveColumn('ID', 'id'),
    liveColumn('Name', 'name'),
    liveColumn('Model', 'model'),
    liveColumn('Make', 'make'),
    liveColumn('Header', 'header'),
    liveColumn('Sub Header', 'subHeader'),
    liveColumn('PID', 'pid'),
    liveColumn('Protocol', 'protocol'),
    liveColumn('Formula Based', 'formulaBased'),
    liveColumn('Formula (Metric)', 'formula_metric'),
    liveColumn('Formula (Imperial)', 'formula_imperial'),
    liveColumn('Unit (Metric)', 'unit_metric'),
    liveColumn('Unit (Imperial)', 'unit_imperial'),
    {
      header: 'Reference',
      cell: (row) => <ReferenceButton name={row.name} reference={row.referenceJSON} />,
      nowrap: true,
    },
  ],
  sortFields: LIVE_DATA_SORT_FIELDS,
  messages: {
    error: 'Failed to fetch live data. Please try again.',
    emptyFiltered: 'No live data found for the specified criteria.',
    emptyUnfiltered: 'No live data available.',
    invalid: 'Invalid response format from server',
  },
});
