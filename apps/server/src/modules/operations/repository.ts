import type { ActuationRunQuery, ScanQuery, SpecialFunctionQuery, UserQuery } from '@obd/contract';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { whereFilters } from '../../lib/filters.ts';
import { orderBySort } from '../../lib/sort.ts';
import { countedPage } from './countedList.ts';
import { actuationRuns, scans, specialFunctionRuns, users } from './lists.ts';
import { toScanDetail } from './mapper.ts';
import { usersPage } from './usersList.ts';

/**
 * One query per list: `filtered` (the WHERE of the list's rules) and `selected` (its columns and
 * order) build both the page the list shows and the rows its export streams (`…Query`), so the
 * two cannot drift. The shapes — rules, columns, counted columns — are in `lists.ts`. Every
 * function takes the executor (the database or a transaction) and the dialect.
 */

/** A list's filters and sort: its query without the page. */
type Filters<Q> = Omit<Q, 'page' | 'limit'>;
/** The filtered FROM of one table, before its columns are chosen. */
type From<T extends keyof Database> = SelectQueryBuilder<Database, T, object>;

// ---------------------------------------------------------------- app users

type Executor = Kysely<Database>;

function usersFiltered(db: Executor, dialect: Dialect, q: Filters<UserQuery>) {
  return db.selectFrom('app_users as u').where((eb) => whereFilters(eb, dialect, users.rules, q));
}

function usersSelected(dialect: Dialect, sort: Filters<UserQuery>) {
  return (q: ReturnType<typeof usersFiltered>) => orderBySort(usersColumns(q), dialect, users.sort, sort);
}

function usersColumns(q: ReturnType<typeof usersFiltered>) {
  return q.select(users.columns).select((eb) =>
    eb
      .selectFrom('subscriptions as s')
      .select((s) => s.fn.max('s.ends_at').as('ends'))
      .whereRef('s.app_user_id', '=', 'u.id')
      .as('subscription_ends_at'),
  );
}

export function listUsers(db: Executor, dialect: Dialect, q: UserQuery) {
  return usersPage(db, dialect, q, usersSelected(dialect, q));
}

export function usersQuery(db: Executor, dialect: Dialect, q: Filters<UserQuery>) {
  return usersSelected(dialect, q)(usersFiltered(db, dialect, q));
}

/** The plans and statuses in use, for the Users Table's choices. */
export async function userFacets(db: Executor) {
  const [plans, statuses] = await Promise.all([
    db.selectFrom('app_users').select('plan').distinct().orderBy('plan').execute(),
    db.selectFrom('app_users').select('status').distinct().orderBy('status').execute(),
  ]);
  return { plans: plans.map((p) => p.plan), statuses: statuses.map((s) => s.status) };
}

// ---------------------------------------------------------------- scans

/** The list's columns in its order: the asked sort, else newest start first (then id). */
const scansSelected = (dialect: Dialect, sort: Filters<ScanQuery>) => (q: From<'scans'>) =>
  orderBySort(q.select(scans.columns), dialect, scans.sort, sort);

export function listScans(db: Executor, dialect: Dialect, q: ScanQuery) {
  return countedPage(
    db,
    dialect,
    'scans',
    scans.rules,
    q,
    () => db.selectFrom('scans'),
    scansSelected(dialect, q),
  );
}

/** Every row under the filters, in the list's order: the export streams it. */
export function scansQuery(db: Executor, dialect: Dialect, q: Filters<ScanQuery>) {
  return scansSelected(
    dialect,
    q,
  )(db.selectFrom('scans').where((eb) => whereFilters(eb, dialect, scans.rules, q)));
}

export function findScan(db: Executor, id: number) {
  return db
    .selectFrom('scans')
    .select([...scans.columns, 'scan_res_array', 'decoded_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A scan with its results, or a 404 naming the id: the detail screen and the PDF report read this. */
export async function loadScanDetail(db: Executor, id: number) {
  const row = await findScan(db, id);
  if (!row) throw notFound(`There is no scan with id ${id}.`);
  return toScanDetail(row);
}

// ---------------------------------------------------------------- special functions

const specialFunctionsSelected =
  (dialect: Dialect, sort: Filters<SpecialFunctionQuery>) => (q: From<'special_function_runs'>) =>
    orderBySort(q.select(specialFunctionRuns.columns), dialect, specialFunctionRuns.sort, sort);

export function listSpecialFunctions(db: Executor, dialect: Dialect, q: SpecialFunctionQuery) {
  return countedPage(
    db,
    dialect,
    'special_function_runs',
    specialFunctionRuns.rules,
    q,
    () => db.selectFrom('special_function_runs'),
    specialFunctionsSelected(dialect, q),
  );
}

/** Every row under the filters, in the list's order: the export streams it. */
export function specialFunctionsQuery(db: Executor, dialect: Dialect, q: Filters<SpecialFunctionQuery>) {
  return specialFunctionsSelected(
    dialect,
    q,
  )(
    db
      .selectFrom('special_function_runs')
      .where((eb) => whereFilters(eb, dialect, specialFunctionRuns.rules, q)),
  );
}

export function findSpecialFunction(db: Executor, id: number) {
  return db
    .selectFrom('special_function_runs')
    .select([...specialFunctionRuns.columns, 'scan_res_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- actuation runs

const actuationRunsSelected =
  (dialect: Dialect, sort: Filters<ActuationRunQuery>) => (q: From<'actuation_runs'>) =>
    orderBySort(q.select(actuationRuns.columns), dialect, actuationRuns.sort, sort);

export function listActuationRuns(db: Executor, dialect: Dialect, q: ActuationRunQuery) {
  return countedPage(
    db,
    dialect,
    'actuation_runs',
    actuationRuns.rules,
    q,
    () => db.selectFrom('actuation_runs'),
    actuationRunsSelected(dialect, q),
  );
}

/** Every row under the filters, in the list's order: the export streams it. */
export function actuationRunsQuery(db: Executor, dialect: Dialect, q: Filters<ActuationRunQuery>) {
  return actuationRunsSelected(
    dialect,
    q,
  )(db.selectFrom('actuation_runs').where((eb) => whereFilters(eb, dialect, actuationRuns.rules, q)));
}

export function findActuationRun(db: Executor, id: number) {
  return db
    .selectFrom('actuation_runs')
    .select([...actuationRuns.columns, 'scan_res_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}
