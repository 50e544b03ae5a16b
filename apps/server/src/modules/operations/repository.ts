import type { ActuationRunQuery, ScanQuery, SpecialFunctionQuery, UserQuery } from '@obd/contract';
import type { Db } from '../../db/database.ts';
import {
  atLeast,
  atMost,
  contains,
  equalsIgnoringCase,
  exact,
  type FilterRules,
  flag,
  whereFilters,
} from '../../lib/filters.ts';
import { fetchPage } from '../../lib/list.ts';
import { countedPage } from './countedList.ts';

type Filters<Q> = Omit<Q, 'page' | 'limit'>;

// ---------------------------------------------------------------- app users

const userRules: FilterRules<UserQuery> = {
  email: contains('u.email'),
  plan: equalsIgnoringCase('u.plan'),
  status: equalsIgnoringCase('u.status'),
};

/** The allow-list of decisions §4: no token or password hash is ever selected. */
const userColumns = [
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
] as const;

function usersFiltered(db: Db, q: Filters<UserQuery>) {
  return db.kysely.selectFrom('app_users as u').where((eb) => whereFilters(eb, db.dialect, userRules, q));
}

function selectUsers(q: ReturnType<typeof usersFiltered>) {
  return q.select(userColumns).select((eb) =>
    eb
      .selectFrom('subscriptions as s')
      .select((s) => s.fn.max('s.ends_at').as('ends'))
      .whereRef('s.app_user_id', '=', 'u.id')
      .as('subscription_ends_at'),
  );
}

export function listUsers(db: Db, q: UserQuery) {
  return fetchPage(usersFiltered(db, q), (s) => selectUsers(s).orderBy('u.id', 'desc'), q);
}

export function userBatches(db: Db, q: Filters<UserQuery>) {
  return db.streamRows(selectUsers(usersFiltered(db, q)).orderBy('u.id', 'desc').compile());
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

const scanRules: FilterRules<ScanQuery> = {
  email: contains('email', 'scans'),
  make: contains('make', 'scans'),
  model: contains('model', 'scans'),
  license_plate: contains('license_plate', 'scans'),
  country_id: exact('country_id'),
  scan_start_time: atLeast('scan_start_time'),
  scan_end_time: atMost('scan_end_time'),
  type: contains('type', 'scans'),
  app_version: contains('app_version', 'scans'),
};

const scanColumns = [
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
] as const;

function scansFiltered(db: Db, q: Filters<ScanQuery>) {
  return db.kysely.selectFrom('scans').where((eb) => whereFilters(eb, db.dialect, scanRules, q));
}

export function listScans(db: Db, q: ScanQuery) {
  return countedPage(
    db,
    'scans',
    scanRules,
    q,
    () => db.kysely.selectFrom('scans'),
    (s) => s.select(scanColumns).orderBy('scan_start_time', 'desc').orderBy('id', 'desc'),
  );
}

export function scanBatches(db: Db, q: Filters<ScanQuery>) {
  return db.streamRows(
    scansFiltered(db, q)
      .select(scanColumns)
      .orderBy('scan_start_time', 'desc')
      .orderBy('id', 'desc')
      .compile(),
  );
}

export function findScan(db: Db, id: number) {
  return db.kysely
    .selectFrom('scans')
    .select([...scanColumns, 'scan_res_array', 'decoded_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- special functions

const specialFunctionRules: FilterRules<SpecialFunctionQuery> = {
  email: contains('user_email', 'special_function_runs'),
  make: contains('make', 'special_function_runs'),
  module: contains('module', 'special_function_runs'),
  model: contains('model', 'special_function_runs'),
  function_type: contains('function_type', 'special_function_runs'),
  command_type: contains('command_type', 'special_function_runs'),
  item_number: exact('item_number'),
  variant: contains('variant', 'special_function_runs'),
  license_plate: contains('license_plate', 'special_function_runs'),
  scan_ended: flag('scan_ended'),
  hard_coded: flag('hard_coded'),
  scan_start_time: atLeast('scan_start_time'),
  scan_end_time: atMost('scan_end_time'),
};

const specialFunctionColumns = [
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
] as const;

function specialFunctionsFiltered(db: Db, q: Filters<SpecialFunctionQuery>) {
  return db.kysely
    .selectFrom('special_function_runs')
    .where((eb) => whereFilters(eb, db.dialect, specialFunctionRules, q));
}

export function listSpecialFunctions(db: Db, q: SpecialFunctionQuery) {
  return countedPage(
    db,
    'special_function_runs',
    specialFunctionRules,
    q,
    () => db.kysely.selectFrom('special_function_runs'),
    (s) => s.select(specialFunctionColumns).orderBy('scan_start_time', 'desc').orderBy('id', 'desc'),
  );
}

export function specialFunctionBatches(db: Db, q: Filters<SpecialFunctionQuery>) {
  return db.streamRows(
    specialFunctionsFiltered(db, q)
      .select(specialFunctionColumns)
      .orderBy('scan_start_time', 'desc')
      .orderBy('id', 'desc')
      .compile(),
  );
}

export function findSpecialFunction(db: Db, id: number) {
  return db.kysely
    .selectFrom('special_function_runs')
    .select([...specialFunctionColumns, 'scan_res_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- actuation runs

const actuationRules: FilterRules<ActuationRunQuery> = {
  email: contains('user_email', 'actuation_runs'),
  make: contains('make', 'actuation_runs'),
  model: contains('model', 'actuation_runs'),
  input: contains('input', 'actuation_runs'),
  actuation_type: contains('actuation_type', 'actuation_runs'),
  actuation_option: contains('actuation_option', 'actuation_runs'),
  user_car_model_id: exact('user_car_model_id'),
};

const actuationColumns = [
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
] as const;

function actuationsFiltered(db: Db, q: Filters<ActuationRunQuery>) {
  return db.kysely
    .selectFrom('actuation_runs')
    .where((eb) => whereFilters(eb, db.dialect, actuationRules, q));
}

export function listActuationRuns(db: Db, q: ActuationRunQuery) {
  return countedPage(
    db,
    'actuation_runs',
    actuationRules,
    q,
    () => db.kysely.selectFrom('actuation_runs'),
    (s) => s.select(actuationColumns).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
}

export function actuationRunBatches(db: Db, q: Filters<ActuationRunQuery>) {
  return db.streamRows(
    actuationsFiltered(db, q)
      .select(actuationColumns)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .compile(),
  );
}

export function findActuationRun(db: Db, id: number) {
  return db.kysely
    .selectFrom('actuation_runs')
    .select([...actuationColumns, 'scan_res_array'])
    .where('id', '=', id)
    .executeTakeFirst();
}
