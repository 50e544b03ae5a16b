import type {
  CommandQuery,
  CoverageQuery,
  LiveDataQuery,
  MakeListQuery,
  ModelListQuery,
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
  order: 'coverage.id',
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
  order: ['name', 'id'] as const,
} as const;

export const models = {
  rules: { make: equalsIgnoringCase('makes.name') } satisfies FilterRules<ModelListQuery>,
  columns: ['models.name', 'makes.name as make'] as const,
  order: ['models.name', 'models.id'] as const,
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
  order: 'c.id',
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
  order: 'c.id',
} as const;

/**
 * The grouped catalogues page over groups and count groups (decisions §3): a page is cut between
 * groups, never inside one. Each names its table and the column it groups by.
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
