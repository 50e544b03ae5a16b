import {
  ACTUATION_SORT_FIELDS,
  type ActuationRunQuery,
  SCAN_SORT_FIELDS,
  type ScanQuery,
  SPECIAL_FUNCTION_SORT_FIELDS,
  type SpecialFunctionQuery,
  USER_SORT_FIELDS,
  type UserQuery,
} from '@obd/contract';
import {
  atLeast,
  atMost,
  contains,
  equalsIgnoringCase,
  exact,
  type FilterRules,
  flag,
  reportedCode,
  segmentOfMake,
} from '../../lib/filters.ts';
import type { SortShape } from '../../lib/sort.ts';

/**
 * The shape of each operations list, in one place: the columns it shows (an allow-list), its
 * order, how each query parameter filters it, and — for the activity lists — which columns the
 * database counts so that totals never need a count over a million rows. The repository, the
 * counted-list planner and the exports all read these; nothing else restates them.
 *
 * The counters themselves are kept by triggers that migrations 004 and 007 created from frozen
 * copies of these lists. Counting a new column therefore takes a new migration that adds its
 * triggers and fills its counts; `test/listShapes.test.ts` fails when a column is declared here
 * that the database does not count.
 */

/** The FTS5 trigram tables over the activity tables (SQLite; migration 003). */
export const SEARCH_TABLES = {
  scans: 'scans_search',
  special_function_runs: 'special_function_runs_search',
  actuation_runs: 'actuation_runs_search',
} as const;

/**
 * Each field the contract sorts by (its `…_SORT_FIELDS`, the one list of them) is a column of the
 * same name (the activity tables).
 */
const sameNames = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(fields.map((f) => [f, f])) as Record<F, F>;

/** Columns counted by the database for a list's totals and deep pages (migrations 004 and 007). */
export interface CountedColumns {
  /** The time column the list sorts on (descending, then id). */
  order: string;
  /** Nullable end-time column filtered with "≤", counted by its day. */
  end?: string;
  /** Columns counted per value and per day of `order`. */
  byDay: readonly string[];
  /** Columns of many values: counted per value only… */
  totalsOnly: readonly string[];
  /** …and per month of `order`, in the value's own counter row. */
  byMonth: readonly string[];
  /** Counted columns holding numbers: their counters' values (text) order as numbers. */
  numeric: readonly string[];
  /**
   * PostgreSQL: the columns each sort index of the list carries beside its key (migration 044;
   * every sortable column's index but the time column's own), so a sorted walk testing only these
   * reads no row.
   */
  sortCarried: readonly string[];
  /**
   * SQLite: a filter's column and the sorted columns whose order follows its values (a VIN names
   * its make; a plate's and an address's form their country), each pair with an index of the two
   * (migration 050; with the list's time, the value-time indexes of 004, 017 and 025), so a page
   * of one of the filter's values in that order is a range of it.
   */
  sortedWithin: Readonly<Record<string, readonly string[]>>;
  /**
   * SQLite: what each sort index (every sortable column's but the time column's own) holds after
   * its column and the id — the list's time column, on the scans also its country and type
   * (migration 051).
   */
  sortCarriedSqlite: readonly string[];
}

export const users = {
  rules: {
    // 020's FTS5 trigram index over the e-mails (SQLite); 001's pg_trgm index (PostgreSQL).
    email: contains('u.email', 'app_users_search'),
    plan: equalsIgnoringCase('u.plan'),
    status: equalsIgnoringCase('u.status'),
    created_from: atLeast('u.created_at'),
    created_to: atMost('u.created_at'),
  } satisfies FilterRules<UserQuery>,
  /** The allow-list of decisions §4: no token or password hash is ever selected. */
  columns: [
    'u.id',
    'u.email',
    'u.name',
    'u.phone',
    'u.country',
    'u.plan',
    'u.status',
    'u.device',
    'u.app_version',
    'u.created_at',
    'u.last_login_at',
  ] as const,
  /** Sortable columns (decisions §9); migration 015 indexes each. Without a sort: newest id first. */
  sort: {
    columns: Object.fromEntries(USER_SORT_FIELDS.map((f) => [f, `u.${f}`])) as Record<
      (typeof USER_SORT_FIELDS)[number],
      string
    >,
    nullable: ['name', 'phone', 'country', 'device', 'app_version', 'last_login_at'],
    default: [],
    key: 'u.id',
  } satisfies SortShape<(typeof USER_SORT_FIELDS)[number]>,
  /**
   * SQLite: what each sort index holds after its column and the id (migration 052), so a sorted
   * walk testing a plan, a status or a creation bound reads no row.
   */
  sortCarriedSqlite: ['plan', 'status', 'created_at'],
};

export const scans = {
  table: 'scans',
  rules: {
    email: contains('email', SEARCH_TABLES.scans),
    make: contains('make', SEARCH_TABLES.scans),
    model: contains('model', SEARCH_TABLES.scans),
    license_plate: contains('license_plate', SEARCH_TABLES.scans),
    country_id: exact('country_id'),
    scan_start_time: atLeast('scan_start_time'),
    scan_end_time: atMost('scan_end_time'),
    type: contains('type', SEARCH_TABLES.scans),
    app_version: contains('app_version', SEARCH_TABLES.scans),
    dtc: reportedCode('id'),
    segment: segmentOfMake('make'),
  } satisfies FilterRules<ScanQuery>,
  columns: [
    'id',
    'email',
    'scan_start_time',
    'scan_end_time',
    'model',
    'license_plate',
    'vin',
    'scan_ended',
    'make',
    'country_id',
    'function',
    'type',
    'app_version',
    'pdf_report',
  ] as const,
  counted: {
    order: 'scan_start_time',
    end: 'scan_end_time',
    byDay: ['make', 'country_id', 'type', 'app_version'],
    totalsOnly: ['email', 'model'],
    byMonth: ['email', 'model'],
    numeric: ['country_id'],
    sortCarried: ['scan_start_time', 'country_id', 'make', 'type', 'app_version'],
    sortedWithin: {
      make: ['vin', 'scan_start_time'],
      country_id: ['license_plate', 'email', 'scan_start_time'],
      type: ['scan_start_time'],
      app_version: ['scan_start_time'],
    },
    sortCarriedSqlite: ['scan_start_time', 'country_id', 'type'],
  },
  /** Sortable columns (decisions §9); migration 015 indexes each. Without a sort: newest start first. */
  sort: {
    columns: sameNames(SCAN_SORT_FIELDS),
    nullable: [
      'scan_end_time',
      'model',
      'license_plate',
      'vin',
      'country_id',
      'function',
      'type',
      'app_version',
    ],
    default: [['scan_start_time', 'desc']],
    key: 'id',
  } satisfies SortShape<(typeof SCAN_SORT_FIELDS)[number]>,
} as const;

export const specialFunctionRuns = {
  table: 'special_function_runs',
  rules: {
    email: contains('user_email', SEARCH_TABLES.special_function_runs),
    make: contains('make', SEARCH_TABLES.special_function_runs),
    module: contains('module', SEARCH_TABLES.special_function_runs),
    model: contains('model', SEARCH_TABLES.special_function_runs),
    function_type: contains('function_type', SEARCH_TABLES.special_function_runs),
    command_type: contains('command_type', SEARCH_TABLES.special_function_runs),
    item_number: exact('item_number'),
    variant: contains('variant', SEARCH_TABLES.special_function_runs),
    license_plate: contains('license_plate', SEARCH_TABLES.special_function_runs),
    scan_ended: flag('scan_ended'),
    hard_coded: flag('hard_coded'),
    scan_start_time: atLeast('scan_start_time'),
    scan_end_time: atMost('scan_end_time'),
  } satisfies FilterRules<SpecialFunctionQuery>,
  columns: [
    'id',
    'user_email',
    'make',
    'module',
    'model',
    'function_type',
    'command_type',
    'item_number',
    'variant',
    'license_plate',
    'scan_ended',
    'hard_coded',
    'scan_start_time',
    'scan_end_time',
  ] as const,
  counted: {
    order: 'scan_start_time',
    end: 'scan_end_time',
    byDay: [
      'make',
      'module',
      'function_type',
      'command_type',
      'item_number',
      'variant',
      'scan_ended',
      'hard_coded',
    ],
    totalsOnly: ['user_email', 'model'],
    byMonth: ['user_email', 'model'],
    numeric: ['item_number', 'scan_ended', 'hard_coded'],
    sortCarried: ['scan_start_time'],
    sortedWithin: Object.fromEntries(
      ['make', 'module', 'function_type', 'command_type', 'variant'].map((c) => [c, ['scan_start_time']]),
    ),
    sortCarriedSqlite: ['scan_start_time'],
  },
  sort: {
    columns: sameNames(SPECIAL_FUNCTION_SORT_FIELDS),
    nullable: [
      'module',
      'model',
      'function_type',
      'command_type',
      'item_number',
      'variant',
      'license_plate',
      'scan_end_time',
    ],
    default: [['scan_start_time', 'desc']],
    key: 'id',
  } satisfies SortShape<(typeof SPECIAL_FUNCTION_SORT_FIELDS)[number]>,
} as const;

export const actuationRuns = {
  table: 'actuation_runs',
  rules: {
    email: contains('user_email', SEARCH_TABLES.actuation_runs),
    make: contains('make', SEARCH_TABLES.actuation_runs),
    model: contains('model', SEARCH_TABLES.actuation_runs),
    input: contains('input', SEARCH_TABLES.actuation_runs),
    actuation_type: contains('actuation_type', SEARCH_TABLES.actuation_runs),
    actuation_option: contains('actuation_option', SEARCH_TABLES.actuation_runs),
    user_car_model_id: exact('user_car_model_id'),
    created_from: atLeast('created_at'),
    created_to: atMost('created_at'),
  } satisfies FilterRules<ActuationRunQuery>,
  columns: [
    'id',
    'user_email',
    'make',
    'model',
    'actuation_type',
    'actuation_option',
    'input',
    'device',
    'product_id',
    'user_car_model_id',
    'end_date',
    'created_at',
    'updated_at',
  ] as const,
  counted: {
    order: 'created_at',
    byDay: ['make', 'input', 'actuation_type', 'actuation_option'],
    totalsOnly: ['user_email', 'model', 'user_car_model_id'],
    byMonth: ['user_email', 'model'],
    numeric: ['user_car_model_id'],
    sortCarried: ['created_at'],
    sortedWithin: Object.fromEntries(
      ['make', 'input', 'actuation_type', 'actuation_option'].map((c) => [c, ['created_at']]),
    ),
    sortCarriedSqlite: ['created_at'],
  },
  sort: {
    columns: sameNames(ACTUATION_SORT_FIELDS),
    nullable: [
      'model',
      'actuation_type',
      'actuation_option',
      'input',
      'device',
      'product_id',
      'user_car_model_id',
      'end_date',
    ],
    default: [['created_at', 'desc']],
    key: 'id',
  } satisfies SortShape<(typeof ACTUATION_SORT_FIELDS)[number]>,
} as const;

/** The counted activity lists by table. */
export const COUNTED_LISTS = {
  scans,
  special_function_runs: specialFunctionRuns,
  actuation_runs: actuationRuns,
} as const satisfies Record<string, { table: string; counted: CountedColumns }>;

export type CountedTableName = keyof typeof COUNTED_LISTS;

/** The counted e-mail columns (004), whose domains (027) and folds (035) are counted too. */
export const EMAIL_COLUMNS: readonly string[] = ['email', 'user_email'];

/** The columns of `table` whose values have their own counters (per day, or in total only). */
export function countedColumnsOf(table: CountedTableName): readonly string[] {
  const { byDay, totalsOnly } = COUNTED_LISTS[table].counted;
  return [...byDay, ...totalsOnly];
}

/**
 * The columns 004 added to a table's time-order index (`<table>_order_filters`: the time, the id,
 * then these): its counted columns of many values, but the ids (actuations' car model). A filter
 * on one of them is tested in that index, no table row read.
 */
export const heldByTimeIndex = (table: CountedTableName): readonly string[] =>
  (COUNTED_LISTS[table].counted.totalsOnly as readonly string[]).filter((c) => !c.endsWith('_id'));

/**
 * SQLite: the sort index of `column` (051's (column, id, carried…): 030's names, 048's "ended"
 * index for the flag), or undefined where the column is the list's time or not sortable. A seek
 * of (value, id) in it tests a row's value without reading the row.
 */
export function sortIndexSqlite(table: CountedTableName, column: string): string | undefined {
  const { sort, counted } = COUNTED_LISTS[table];
  if (!(Object.values(sort.columns) as string[]).includes(column) || column === counted.order)
    return undefined;
  return `${table}_sort_${column === 'scan_ended' ? 'scan_ended_end' : column}`;
}
