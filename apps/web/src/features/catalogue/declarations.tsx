import {
  ACTUATION_COMMANDS_PAGE_SIZE,
  ACTUATION_COMMANDS_PATH,
  type ActuationCommand,
  COMMAND_API_PATH,
  COMMAND_PAGE_SIZE,
  COVERAGE_PAGE_SIZE,
  COVERAGE_PATH,
  type CommandRow,
  type CoverageRow,
  CUSTOM_COMMANDS_PAGE_SIZE,
  CUSTOM_COMMANDS_PATH,
  type CustomCommand,
  FUNCTION_TYPES,
  LIVE_DATA_PAGE_SIZE,
  LIVE_DATA_PATH,
  type LiveDataRow,
  MAKE_LIST_PATH,
  MAX_LIMIT,
  MODEL_LIST_PATH,
  ODOMETER_PAGE_SIZE,
  ODOMETER_PATH,
  type OdometerRow,
  SPF_COMMANDS_PAGE_SIZE,
  SPF_COMMANDS_PATH,
  type SpfCommand,
} from '@obd/contract';
import type { ListDeclaration } from '../../list/declaration.ts';
import { fieldColumn } from '../../list/format.ts';
import type { FilterField } from '../../list/listState.ts';
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

/**
 * The catalogue screens (spec §2.4–2.12, §8): each a declaration on the list engine, naming its
 * endpoint, filters, how its rows are drawn and its sentences.
 */

/** Make, Model, Year: the filters of the command catalogues. */
const VEHICLE_FILTERS: readonly FilterField<'make' | 'model' | 'year'>[] = [
  makeFilter('make'),
  { kind: 'text', name: 'model', label: 'Model', placeholder: 'e.g. City' },
  { kind: 'text', name: 'year', label: 'Year', placeholder: 'e.g. 2019' },
];

export const coverageData: ListDeclaration<CoverageRow, 'make'> = {
  title: 'Coverage Data',
  endpoint: COVERAGE_PATH,
  pageSize: COVERAGE_PAGE_SIZE,
  dataKey: 'coverages',
  filters: [{ ...makeFilter('make'), label: 'Car Make', placeholder: 'Enter car make (e.g. Hyundai)' }],
  columns: [
    fieldColumn<CoverageRow, 'function_name'>('Function Name', 'function_name'),
    fieldColumn<CoverageRow, 'function_type'>('Function Type', 'function_type'),
  ],
  rowKey: (row) => row.id,
  messages: {
    error: 'Something went wrong',
    invalid: 'Invalid response format',
    emptyFiltered: 'No coverage data found for this make.',
    emptyUnfiltered: 'No coverage data available.',
  },
  export: { list: 'coverage', format: 'xlsx' },
  summary: ({ pageItemCount, total }) => `Showing ${pageItemCount} out of ${total} results`,
  pagerCaption: ({ page, pages, total }) => `Showing page ${page} of ${pages} (${total} total items)`,
};

type CommandFilter = 'make' | 'function_type' | 'full_scan' | 'module';

export const mechanicCommands: ListDeclaration<CommandRow, CommandFilter> = {
  title: 'Automotive Diagnostic Commands',
  endpoint: COMMAND_API_PATH,
  pageSize: COMMAND_PAGE_SIZE,
  dataKey: 'data',
  // decisions §8: the defaults, fetched once on opening.
  filters: [
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
  ],
  request: (filters) => ({
    make: filters.make ?? '',
    function_type: filters.function_type ?? 'scan',
    full_scan: filters.full_scan ?? 'true',
    module: JSON.stringify(parseModules(filters.module)),
  }),
  canFetch: (filters) => parseModules(filters.module).length > 0,
  searchLabel: 'Fetch Commands',
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
  pagerEnds: true,
  columns: [
    fieldColumn<CommandRow, 'command'>('Command', 'command'),
    fieldColumn<CommandRow, 'module'>('Module', 'module'),
    { header: 'Type', cell: (row) => commandType(row.command) },
  ],
  rowKey: (row, index) => `${index}:${row.module}:${row.command}`,
  messages: {
    error: 'An unknown error occurred',
    emptyFiltered: 'No Commands Found',
    emptyUnfiltered: 'No Commands Found',
    describeError: describeCommandError,
  },
  summary: ({ total, filters }) => `${total} commands found for ${filters.make ?? ''}`,
};

interface NamedRow {
  name: string;
}

export const bikeMakeList: ListDeclaration<NamedRow & { segment: string }, 'segement'> = {
  title: 'Bike Make List',
  endpoint: MAKE_LIST_PATH,
  pageSize: MAX_LIMIT,
  dataKey: 'data',
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
  paging: 'none',
  trigger: 'auto',
  columns: [],
  renderRows: (rows) => <NameList label="Makes" names={rows.map((row) => row.name)} />,
  rowKey: (row) => row.name,
  messages: {
    error: 'Failed to fetch bike makes. Please try again.',
    emptyFiltered: 'No bike makes found.',
    emptyUnfiltered: 'No bike makes found.',
  },
  export: { list: 'makes', format: 'csv', label: 'Download Excel' },
  summary: ({ total, filters }) =>
    `${total} ${total === 1 ? 'make' : 'makes'}${filters.segement ? ` in segment ${filters.segement}` : ''}`,
};

export const modelListPage: ListDeclaration<NamedRow & { make: string }, 'make'> = {
  title: 'Model List Page',
  endpoint: MODEL_LIST_PATH,
  pageSize: MAX_LIMIT,
  dataKey: 'data',
  filters: [{ ...makeFilter('make'), placeholder: 'Enter a make (e.g. Mahindra)', defaultValue: 'Mahindra' }],
  paging: 'none',
  trigger: 'auto',
  // The endpoint needs a make; an emptied input shows nothing rather than an error.
  canFetch: (filters) => Boolean(filters.make),
  columns: [],
  renderRows: (rows) => <NumberedGrid label="Models" names={rows.map((row) => row.name)} />,
  rowKey: (row) => row.name,
  messages: {
    error: 'Failed to fetch model list. Please try again later.',
    emptyFiltered: 'No models found for the entered make.',
    emptyUnfiltered: 'No models found for the entered make.',
  },
  export: { list: 'models', format: 'csv' },
  summary: ({ total, filters }) => `Total Models: ${total}${filters.make ? ` (${filters.make})` : ''}`,
};

export const customCommands: ListDeclaration<CustomCommand, 'make' | 'model' | 'year'> = {
  title: 'Custom commands',
  endpoint: CUSTOM_COMMANDS_PATH,
  pageSize: CUSTOM_COMMANDS_PAGE_SIZE,
  dataKey: 'data',
  filters: VEHICLE_FILTERS,
  columns: [
    fieldColumn<CustomCommand, 'function_name'>('Function Name', 'function_name'),
    fieldColumn<CustomCommand, 'make'>('Make', 'make'),
    fieldColumn<CustomCommand, 'model'>('Model', 'model'),
    { header: 'Variants', cell: variantsText },
    { header: 'Commands', cell: (row) => <VariantCommands row={row} />, prose: true },
  ],
  rowKey: (row) => `${row.function_name}|${row.make}|${row.model}`,
  messages: {
    error: 'Failed to fetch commands',
    emptyFiltered: 'No custom commands found for the given car details.',
    emptyUnfiltered: 'No custom commands found for the given car details.',
  },
};

export const actuationCommands: ListDeclaration<ActuationCommand, 'make' | 'model' | 'year'> = {
  title: 'Actuation commands',
  endpoint: ACTUATION_COMMANDS_PATH,
  pageSize: ACTUATION_COMMANDS_PAGE_SIZE,
  dataKey: 'data',
  filters: VEHICLE_FILTERS,
  columns: [],
  renderRows: (rows) => <ActuationCards groups={rows} />,
  rowKey: (row) => row.actuation_type,
  messages: {
    error: 'Failed to fetch actuation commands.',
    emptyFiltered: 'No actuation data found for the specified criteria.',
    emptyUnfiltered: 'No actuation data available.',
  },
  export: { list: 'actuationCommands', format: 'csv' },
};

export const spfCommands: ListDeclaration<SpfCommand, 'make' | 'model' | 'year'> = {
  title: 'SPF Commands',
  endpoint: SPF_COMMANDS_PATH,
  pageSize: SPF_COMMANDS_PAGE_SIZE,
  dataKey: 'data',
  filters: VEHICLE_FILTERS,
  columns: [],
  renderRows: (rows) => <SpfCards groups={rows} />,
  rowKey: (row) => row.function_name,
  messages: {
    error: 'Failed to fetch SPF commands. Please try again later.',
    emptyFiltered: 'No data found for the given car details.',
    emptyUnfiltered: 'No data found for the given car details.',
  },
};

const odometerColumn = <Key extends keyof OdometerRow & string>(header: string, key: Key) =>
  fieldColumn<OdometerRow, Key>(header, key);

export const odometerCommands: ListDeclaration<OdometerRow, 'make' | 'model' | 'year'> = {
  title: 'Odometer commands',
  endpoint: ODOMETER_PATH,
  pageSize: ODOMETER_PAGE_SIZE,
  dataKey: 'data',
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
  rowKey: (row) => row.id,
  messages: {
    error: 'Failed to fetch odometer data. Please try again.',
    emptyFiltered: 'No odometer data found for the specified criteria.',
    emptyUnfiltered: 'No odometer data available.',
    invalid: 'No odometer data found.',
  },
  export: { list: 'odometer', format: 'csv' },
};

const liveColumn = <Key extends keyof LiveDataRow & string>(header: string, key: Key) =>
  fieldColumn<LiveDataRow, Key>(header, key);

export const liveDataCommands: ListDeclaration<LiveDataRow, 'make' | 'model' | 'module'> = {
  title: 'Live Commands',
  endpoint: LIVE_DATA_PATH,
  pageSize: LIVE_DATA_PAGE_SIZE,
  dataKey: 'data',
  filters: [
    makeFilter('make'),
    { kind: 'text', name: 'model', label: 'Model', placeholder: 'e.g. City' },
    { kind: 'text', name: 'module', label: 'Module', placeholder: 'e.g. Engine' },
  ],
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
  rowKey: (row) => row.id,
  messages: {
    error: 'Failed to fetch live data. Please try again.',
    emptyFiltered: 'No live data found for the specified criteria.',
    emptyUnfiltered: 'No live data available.',
    invalid: 'Invalid response format from server',
  },
};
