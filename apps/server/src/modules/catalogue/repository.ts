import type {
  ActuationCommandQuery,
  CommandQuery,
  CoverageQuery,
  CustomCommandQuery,
  LiveDataQuery,
  MakeListQuery,
  ModelListQuery,
  OdometerQuery,
  SpfCommandQuery,
} from '@obd/contract';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { type FilterRules, whereFilters } from '../../lib/filters.ts';
import { fetchPage } from '../../lib/list.ts';
import { orderBySort } from '../../lib/sort.ts';
import {
  actuationCommands,
  coverage,
  customCommands,
  type GroupedList,
  liveData,
  makes,
  mechanicCommands,
  models,
  odometer,
  spfCommands,
} from './lists.ts';

/**
 * One query per list: `…Filtered` (the WHERE of the list's rules, from `lists.ts`) and
 * `…Selected` (its columns and order) build both the page a list shows and the rows its export
 * reads, so the two cannot drift. Every function takes the executor — the database or a
 * transaction — and the dialect; the mapping to the contract's DTOs is in `mapper.ts`.
 */

type Executor = Kysely<Database>;
type Filters<Q> = Omit<Q, 'page' | 'limit'>;
type Paging = { page: number; limit: number };
type GroupSort = { sort?: string | undefined; order?: 'asc' | 'desc' | undefined };

/** The direction of a grouped list's groups: its one sortable field is the group key (`lists.ts`). */
const groupOrder = (q: GroupSort): 'asc' | 'desc' => (q.sort && q.order === 'desc' ? 'desc' : 'asc');

// ---------------------------------------------------------------- coverage

function coverageFiltered(db: Executor, dialect: Dialect, q: Filters<CoverageQuery>) {
  return db
    .selectFrom('coverage')
    .innerJoin('makes', 'makes.id', 'coverage.make_id')
    .where((eb) => whereFilters(eb, dialect, coverage.rules, q));
}

const coverageSelected =
  (dialect: Dialect, q: Filters<CoverageQuery>) => (s: ReturnType<typeof coverageFiltered>) =>
    orderBySort(s.select(coverage.columns), dialect, coverage.sort, q);

export function listCoverage(db: Executor, dialect: Dialect, q: CoverageQuery) {
  return fetchPage(coverageFiltered(db, dialect, q), coverageSelected(dialect, q), q);
}

/** Every coverage row under the filters, in the list's order: the export streams it. */
export function coverageQuery(db: Executor, dialect: Dialect, q: Filters<CoverageQuery>) {
  return coverageSelected(dialect, q)(coverageFiltered(db, dialect, q));
}

// ---------------------------------------------------------------- mechanic commands

export function listMechanicCommands(db: Executor, dialect: Dialect, q: CommandQuery) {
  const rules = q.full_scan ? mechanicCommands.rules.fullScan : mechanicCommands.rules.modules;
  const filtered = db
    .selectFrom('mechanic_commands as mc')
    .innerJoin('makes', 'makes.id', 'mc.make_id')
    .where((eb) => whereFilters(eb, dialect, rules, q));
  const [first, second] = mechanicCommands.order;
  return fetchPage(filtered, (s) => s.select(mechanicCommands.columns).orderBy(first).orderBy(second), q);
}

// ---------------------------------------------------------------- makes and models

/** Every make (of a segment): the list is short and unpaged; its export is the same query. */
export function listMakes(db: Executor, dialect: Dialect, q: MakeListQuery) {
  return orderBySort(
    db
      .selectFrom('makes')
      .select(makes.columns)
      .where((eb) => whereFilters(eb, dialect, makes.rules, q)),
    dialect,
    makes.sort,
    q,
  ).execute();
}

/** Every model of a make: unpaged, like the makes. */
export function listModels(db: Executor, dialect: Dialect, q: ModelListQuery) {
  return orderBySort(
    db
      .selectFrom('models')
      .innerJoin('makes', 'makes.id', 'models.make_id')
      .select(models.columns)
      .where((eb) => whereFilters(eb, dialect, models.rules, q)),
    dialect,
    models.sort,
    q,
  ).execute();
}

// ---------------------------------------------------------------- odometer and live data

function odometerFiltered(db: Executor, dialect: Dialect, q: Filters<OdometerQuery>) {
  return db.selectFrom('odometer_commands as c').where((eb) => whereFilters(eb, dialect, odometer.rules, q));
}

const odometerSelected =
  (dialect: Dialect, q: Filters<OdometerQuery>) => (s: ReturnType<typeof odometerFiltered>) =>
    orderBySort(s.select(odometer.columns), dialect, odometer.sort, q);

export function listOdometer(db: Executor, dialect: Dialect, q: OdometerQuery) {
  return fetchPage(odometerFiltered(db, dialect, q), odometerSelected(dialect, q), q);
}

/** Every odometer command under the filters, in the list's order: the export streams it. */
export function odometerQuery(db: Executor, dialect: Dialect, q: Filters<OdometerQuery>) {
  return odometerSelected(dialect, q)(odometerFiltered(db, dialect, q));
}

export function listLiveData(db: Executor, dialect: Dialect, q: LiveDataQuery) {
  const filtered = db
    .selectFrom('live_data_commands as c')
    .innerJoin('makes', 'makes.id', 'c.make_id')
    .leftJoin('model_groups', 'model_groups.id', 'c.model_group_id')
    .where((eb) => whereFilters(eb, dialect, liveData.rules, q));
  return fetchPage(filtered, (s) => orderBySort(s.select(liveData.columns), dialect, liveData.sort, q), q);
}

// ---------------------------------------------------------------- the grouped catalogues

/** The WHERE of a grouped catalogue's rules (and, given keys, of those groups), over its table as `c`. */
function groupedWhere<Q extends object>(dialect: Dialect, list: GroupedList, q: Q, keys?: readonly string[]) {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      whereFilters(eb, dialect, list.rules as FilterRules<Q>, q),
      ...(keys ? [eb(sql.ref(`c.${list.groupBy}`), 'in', keys)] : []),
    ]);
}

/**
 * One page of group keys and the number of groups (decisions §3): the page is cut between
 * groups, never inside one, and `total` counts groups, not rows.
 */
async function pageOfGroups<Q extends Paging & GroupSort>(
  db: Executor,
  dialect: Dialect,
  list: GroupedList,
  q: Q,
): Promise<{ keys: string[]; total: number }> {
  const keyRef = sql.ref(`c.${list.groupBy}`);
  const offset = (q.page - 1) * q.limit;
  // The three tables share the grouped and filtered columns; typing the query as one of them
  // keeps one builder for all three.
  const filtered = () =>
    db.selectFrom(`${list.table} as c` as 'custom_commands as c').where(groupedWhere(dialect, list, q));
  const keys = await filtered()
    .select(sql<string>`${keyRef}`.as('key'))
    .groupBy(keyRef)
    .orderBy(keyRef, groupOrder(q))
    .limit(q.limit)
    .offset(offset)
    .execute();
  // A page short of the limit is the last one: it tells the total (the usual case — the demo
  // catalogues have 8 groups each — saves counting them).
  if (keys.length < q.limit && (keys.length > 0 || offset === 0)) {
    return { keys: keys.map((k) => k.key), total: offset + keys.length };
  }
  const count = await filtered()
    .select(sql<number>`count(distinct ${keyRef})`.as('total'))
    .executeTakeFirstOrThrow();
  return { keys: keys.map((k) => k.key), total: Number(count.total) };
}

/**
 * A page of custom-command groups: each distinct variants text of a group once, in the order of
 * its first row (most rows of a group repeat the variants of another model group: merging each
 * distinct text once gives the same map as merging every row in order), and the make and model
 * group of every row, in row order (deduplicating narrow rows costs less than two GROUP BYs).
 */
export async function listCustomCommands(db: Executor, dialect: Dialect, q: CustomCommandQuery) {
  const { keys, total } = await pageOfGroups(db, dialect, customCommands, q);
  if (keys.length === 0) return { keys, total, variantTexts: [], names: [] };
  const inPage = () =>
    db.selectFrom('custom_commands as c').where(groupedWhere(dialect, customCommands, q, keys));
  const [variantTexts, names] = await Promise.all([
    inPage()
      .select(['c.function_name', 'c.variants', sql<number>`min(c.id)`.as('first')])
      .groupBy(['c.function_name', 'c.variants'])
      .orderBy('c.function_name', groupOrder(q))
      .orderBy('first')
      .execute(),
    inPage()
      .innerJoin('makes', 'makes.id', 'c.make_id')
      .leftJoin('model_groups', 'model_groups.id', 'c.model_group_id')
      .select(['c.function_name', 'makes.name as make', 'model_groups.name as model'])
      .orderBy('c.function_name', groupOrder(q))
      .orderBy('c.id')
      .execute(),
  ]);
  return { keys, total, variantTexts, names };
}

/**
 * A page of actuation cards. Unfiltered, a page of 200 types is the whole table (908 rows,
 * ~800 KB of details, ~100 distinct step lists): model groups of a make often share the very same
 * step list, which a card lists once, where its first row puts it, so the database drops the
 * repeats (`GROUP BY actuation_type, details`). A card's message is the first message of its
 * rows that is set. The export reads the same pages.
 */
export async function listActuationCommands(
  db: Executor,
  dialect: Dialect,
  q: Filters<ActuationCommandQuery> & Paging,
) {
  const { keys, total } = await pageOfGroups(db, dialect, actuationCommands, q);
  if (keys.length === 0) return { total, stepLists: [], messages: [] };
  const inPage = () =>
    db.selectFrom('actuation_commands as c').where(groupedWhere(dialect, actuationCommands, q, keys));
  const [stepLists, messages] = await Promise.all([
    inPage()
      .select(['c.actuation_type', 'c.details', sql<number>`min(c.id)`.as('first')])
      .groupBy(['c.actuation_type', 'c.details'])
      .orderBy('c.actuation_type', groupOrder(q))
      .orderBy('first')
      .execute(),
    db
      .selectFrom('actuation_commands as m')
      .select(['m.actuation_type', 'm.message'])
      .where(
        'm.id',
        'in',
        inPage()
          .select(sql<number>`min(c.id)`.as('id'))
          .where('c.message', 'is not', null)
          .groupBy('c.actuation_type'),
      )
      .execute(),
  ]);
  return { total, stepLists, messages };
}

/**
 * A page of SPF functions: each distinct step list of a function once, in the order its first
 * row puts it (decisions §3 lists a command once, as ActuationCommands does); a function is
 * hard-coded when any of its rows is.
 */
export async function listSpfCommands(db: Executor, dialect: Dialect, q: SpfCommandQuery) {
  const { keys, total } = await pageOfGroups(db, dialect, spfCommands, q);
  if (keys.length === 0) return { total, stepLists: [] };
  const stepLists = await db
    .selectFrom('spf_commands as c')
    .where(groupedWhere(dialect, spfCommands, q, keys))
    .select([
      'c.function_name',
      'c.details',
      sql<number>`min(c.id)`.as('first'),
      sql<number>`max(c.hard_coded)`.as('hard_coded'),
    ])
    .groupBy(['c.function_name', 'c.details'])
    .orderBy('c.function_name', groupOrder(q))
    .orderBy('first')
    .execute();
  return { total, stepLists };
}
