import type {
  COVERAGE_SORT_FIELDS,
  CommandQuery,
  CoverageQuery,
  LIVE_DATA_SORT_FIELDS,
  LiveDataQuery,
  MAKE_SORT_FIELDS,
  MakeListQuery,
  MODEL_SORT_FIELDS,
  ModelListQuery,
  ODOMETER_SORT_FIELDS,
  OdometerQuery,
} from '@obd/contract';
import {
  equalsIgnoringCase,
  exact,
  type FilterRules,
  flag,
  modelNamedIgnoringCase,
  namedIgnoringCase,
  oneOfIgnoringCase,
  within,
} from '../../lib/filters.ts';
import type { SortShape } from '../../lib/sort.ts';

/**
 * The shape of each catalogue list, in one place: how each query parameter filters it, the
 * columns it shows and its order (or, for the grouped lists, the column it groups by). The
 * repository and the exports read these; nothing else restates them.
 */

/**
 * Make, model and year of the command catalogues (decisions §2–3), which alias their table as
 * `c`: make and model exact and case-insensitive; a model selects its model group's rows and the
 * make-wide rows (no group) of its make; the year must fall in [from_year, to_year], an empty
 * bound being open.
 */
const vehicleRules = {
  make: namedIgnoringCase('c.make_id', 'makes'),
  model: modelNamedIgnoringCase('c.model_group_id', 'c.make_id'),
  year: within('c.from_year', 'c.to_year'),
} as const;

interface VehicleQuery {
  make?: string | undefined;
  model?: string | undefined;
  year?: number | undefined;
}

export const coverage = {
  rules: { make: equalsIgnoringCase('makes.name') } satisfies FilterRules<CoverageQuery>,
  columns: ['coverage.id', 'makes.name as make', 'coverage.function_name', 'coverage.function_type'] as const,
  /** Sortable columns (decisions §9); without a sort, by id. A few thousand rows: no index needed. */
  sort: {
    columns: {
      id: 'coverage.id',
      make: 'makes.name',
      function_name: 'coverage.function_name',
      function_type: 'coverage.function_type',
    },
    nullable: [],
    default: [['coverage.id', 'asc']],
    key: 'coverage.id',
  } satisfies SortShape<(typeof COVERAGE_SORT_FIELDS)[number]>,
} as const;

const mechanicCommandRules = {
  make: equalsIgnoringCase('makes.name'),
  function_type: exact('mc.function_type'),
} as const;

/**
 * Full scan: the make's full-scan commands of the function type across every module; otherwise
 * the commands of the listed modules (module names exact, case-insensitive).
 */
export const mechanicCommands = {
  rules: {
    fullScan: {
      ...mechanicCommandRules,
      full_scan: flag('mc.full_scan'),
    } satisfies FilterRules<CommandQuery>,
    modules: {
      ...mechanicCommandRules,
      module: oneOfIgnoringCase('mc.module'),
    } satisfies FilterRules<CommandQuery>,
  },
  columns: ['mc.command', 'mc.module'] as const,
  order: ['mc.module', 'mc.id'] as const,
} as const;

export const makes = {
  rules: { segment: equalsIgnoringCase('segment') } satisfies FilterRules<MakeListQuery>,
  columns: ['name', 'segment'] as const,
  /** By name (decisions §9), A to Z without a sort; a hundred-odd rows: no index needed. */
  sort: {
    columns: { name: 'name' },
    nullable: [],
    default: [['name', 'asc']],
    key: 'id',
  } satisfies SortShape<(typeof MAKE_SORT_FIELDS)[number]>,
} as const;

export const models = {
  rules: { make: equalsIgnoringCase('makes.name') } satisfies FilterRules<ModelListQuery>,
  columns: ['models.name', 'makes.name as make'] as const,
  sort: {
    columns: { name: 'models.name' },
    nullable: [],
    default: [['models.name', 'asc']],
    key: 'models.id',
  } satisfies SortShape<(typeof MODEL_SORT_FIELDS)[number]>,
} as const;

export const odometer = {
  rules: vehicleRules satisfies FilterRules<OdometerQuery>,
  columns: [
    'c.id',
    'c.header',
    'c.sub_header',
    'c.pid',
    'c.protocol',
    'c.system',
    'c.init',
    'c.formula_based',
    'c.generic',
    'c.formula_metric',
    'c.formula_imperial',
    'c.unit_metric',
    'c.unit_imperial',
  ] as const,
  /** Sortable columns (decisions §9), by the row's field names; without a sort, by id. */
  sort: {
    columns: {
      id: 'c.id',
      header: 'c.header',
      subHeader: 'c.sub_header',
      pid: 'c.pid',
      protocol: 'c.protocol',
      system: 'c.system',
      init: 'c.init',
      formulaBased: 'c.formula_based',
      generic: 'c.generic',
      formula_metric: 'c.formula_metric',
      formula_imperial: 'c.formula_imperial',
      unit_metric: 'c.unit_metric',
      unit_imperial: 'c.unit_imperial',
    },
    nullable: [
      'header',
      'subHeader',
      'pid',
      'protocol',
      'system',
      'init',
      'formula_metric',
      'formula_imperial',
      'unit_metric',
      'unit_imperial',
    ],
    default: [['c.id', 'asc']],
    key: 'c.id',
  } satisfies SortShape<(typeof ODOMETER_SORT_FIELDS)[number]>,
} as const;

export const liveData = {
  rules: {
    make: vehicleRules.make,
    model: vehicleRules.model,
    module: equalsIgnoringCase('c.module'),
  } satisfies FilterRules<LiveDataQuery>,
  columns: [
    'c.id',
    'makes.name as make',
    'model_groups.name as model',
    'c.header',
    'c.sub_header',
    'c.pid',
    'c.protocol',
    'c.formula_based',
    'c.formula_metric',
    'c.formula_imperial',
    'c.unit_metric',
    'c.unit_imperial',
    'c.name',
    'c.reference_json',
  ] as const,
  /** Sortable columns (decisions §9), by the row's field names; without a sort, by id. */
  sort: {
    columns: {
      id: 'c.id',
      name: 'c.name',
      model: 'model_groups.name',
      make: 'makes.name',
      header: 'c.header',
      subHeader: 'c.sub_header',
      pid: 'c.pid',
      protocol: 'c.protocol',
      formulaBased: 'c.formula_based',
      formula_metric: 'c.formula_metric',
      formula_imperial: 'c.formula_imperial',
      unit_metric: 'c.unit_metric',
      unit_imperial: 'c.unit_imperial',
    },
    nullable: [
      'model',
      'header',
      'subHeader',
      'pid',
      'protocol',
      'formula_metric',
      'formula_imperial',
      'unit_metric',
      'unit_imperial',
    ],
    default: [['c.id', 'asc']],
    key: 'c.id',
  } satisfies SortShape<(typeof LIVE_DATA_SORT_FIELDS)[number]>,
} as const;

/**
 * The grouped catalogues page over groups and count groups (decisions §3): a page is cut between
 * groups, never inside one. Each names its table and the column it groups by, which is also the
 * only column it sorts by (`sort=<groupBy>&order=asc|desc`): a page is a run of groups, and the
 * key is unique per group, so it ends the order as a primary key would.
 */
export const customCommands = {
  table: 'custom_commands',
  rules: vehicleRules satisfies FilterRules<VehicleQuery>,
  groupBy: 'function_name',
} as const;

export const actuationCommands = {
  table: 'actuation_commands',
  rules: vehicleRules satisfies FilterRules<VehicleQuery>,
  groupBy: 'actuation_type',
} as const;

export const spfCommands = {
  table: 'spf_commands',
  rules: vehicleRules satisfies FilterRules<VehicleQuery>,
  groupBy: 'function_name',
} as const;

export type GroupedList = typeof customCommands | typeof actuationCommands | typeof spfCommands;
