import type { ActuationRunQuery, ScanQuery, SpecialFunctionQuery, UserQuery } from '@obd/contract';
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { whereFilters } from '../../lib/filters.ts';
import { fetchPage } from '../../lib/list.ts';
import { countedPage } from './countedList.ts';
import { actuationRuns, scans, specialFunctionRuns, users } from './lists.ts';
import { toScanDetail } from './mapper.ts';

/**
 * One query per list: `filtered` (the WHERE of the list's rules) and `selected` (its columns and
 * order) build both the page the list shows and the rows its export streams, so the two cannot
 * drift. The shapes — rules, columns, counted columns — are in `lists.ts`.
 */

type Filters<Q> = Omit<Q, 'page' | 'limit'>;
/** The filtered FROM of one table, before its columns are chosen. */
type From<T extends keyof Database> = SelectQueryBuilder<Database, T, object>;

// ---------------------------------------------------------------- app users

function usersFiltered(db: Db, q: Filters<UserQuery>) {
  return db.kysely.selectFrom('app_users as u').where((eb) => whereFilters(eb, db.dialect, users.rules, q));
}

function usersSelected(q: ReturnType<typeof usersFiltered>) {
  return q
    .select(users.columns)
    .select((eb) =>
      eb
        .selectFrom('subscriptions as s')
        .select((s) => s.fn.max('s.ends_at').as('ends'))
        .whereRef('s.app_user_id', '=', 'u.id')
        .as('subscription_ends_at'),
    )
    .orderBy('u.id', 'desc');
}

export function listUsers(db: Db, q: UserQuery) {
  return fetchPage(usersFiltered(db, q), usersSelected, q);
}

export function userBatches(db: Db, q: Filters<UserQuery>) {
  return db.streamRows(usersSelected(usersFiltered(db, q)).compile());
}

/** The plans and statuses in use, for the Users Table's choices. */
export async function userFacets(db: Db) {
  const [plans, statuses] = await Promise.all([
    db.kysely.selectFrom('app_users').select('plan').distinct().orderBy('plan').execute(),
    db.kysely.selectFrom('app_users').select('status').distinct().orderBy('status').execute(),
  ]);
  return { plans: plans.map((p) => p.plan), statuses: statuses.map((s) => s.status) };
}

// ---------------------------------------------------------------- scans

const scansSelected = (q: From<'scans'>) =>
  q.select(scans.columns).orderBy(scans.counted.order, 'desc').orderBy('id', 'desc');

export function listScans(db: Db, q: ScanQuery) {
  return countedPage(db, 'scans', scans.rules, q, () => db.kysely.selectFrom('scans'), scansSelected);
}

export function scanBatches(db: Db, q: Filters<ScanQuery>) {
  const filtered = db.kysely.selectFrom('scans').where((eb) => whereFilters(eb, db.dialect, scans.rules, q));
  return db.streamRows(scansSelected(filtered).compile());
}

export function findScan(db: Db, id: number) {
  return db.kysely
    .selectFrom('scans')
    .select([...scans.columns, 'scan_res_array', 'decoded_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A scan with its results, or a 404 naming the id: the detail screen and the PDF report read this. */
export async function loadScanDetail(db: Db, id: number) {
  const row = await findScan(db, id);
  if (!row) throw notFound(`There is no scan with id ${id}.`);
  return toScanDetail(row);
}

// ---------------------------------------------------------------- special functions

const specialFunctionsSelected = (q: From<'special_function_runs'>) =>
  q
    .select(specialFunctionRuns.columns)
    .orderBy(specialFunctionRuns.counted.order, 'desc')
    .orderBy('id', 'desc');

export function listSpecialFunctions(db: Db, q: SpecialFunctionQuery) {
  return countedPage(
    db,
    'special_function_runs',
    specialFunctionRuns.rules,
    q,
    () => db.kysely.selectFrom('special_function_runs'),
    specialFunctionsSelected,
  );
}

export function specialFunctionBatches(db: Db, q: Filters<SpecialFunctionQuery>) {
  const filtered = db.kysely
    .selectFrom('special_function_runs')
    .where((eb) => whereFilters(eb, db.dialect, specialFunctionRuns.rules, q));
  return db.streamRows(specialFunctionsSelected(filtered).compile());
}

export function findSpecialFunction(db: Db, id: number) {
  return db.kysely
    .selectFrom('special_function_runs')
    .select([...specialFunctionRuns.columns, 'scan_res_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- actuation runs

const actuationRunsSelected = (q: From<'actuation_runs'>) =>
  q.select(actuationRuns.columns).orderBy(actuationRuns.counted.order, 'desc').orderBy('id', 'desc');

export function listActuationRuns(db: Db, q: ActuationRunQuery) {
  return countedPage(
    db,
    'actuation_runs',
    actuationRuns.rules,
    q,
    () => db.kysely.selectFrom('actuation_runs'),
    actuationRunsSelected,
  );
}

export function actuationRunBatches(db: Db, q: Filters<ActuationRunQuery>) {
  const filtered = db.kysely
    .selectFrom('actuation_runs')
    .where((eb) => whereFilters(eb, db.dialect, actuationRuns.rules, q));
  return db.streamRows(actuationRunsSelected(filtered).compile());
}

export function findActuationRun(db: Db, id: number) {
  return db.kysely
    .selectFrom('actuation_runs')
    .select([...actuationRuns.columns, 'scan_res_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}
