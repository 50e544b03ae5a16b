import type {
  CommandQuery,
  CoverageQuery,
  LiveDataQuery,
  MakeListQuery,
  ModelListQuery,
  OdometerQuery,
} from '@obd/contract';
import type { Db } from '../../db/database.ts';
import { fetchPage } from '../../lib/list.ts';
import { equalsCI } from '../../lib/sql.ts';
import { vehicleWhere } from './vehicleFilter.ts';

// ---------------------------------------------------------------- coverage

function coverageFiltered(db: Db, q: Pick<CoverageQuery, 'make'>) {
  return db.kysely
    .selectFrom('coverage')
    .innerJoin('makes', 'makes.id', 'coverage.make_id')
    .where((eb) => (q.make ? equalsCI(eb, 'makes.name', q.make) : eb.and([])));
}

const coverageColumns = [
  'coverage.id',
  'makes.name as make',
  'coverage.function_name',
  'coverage.function_type',
] as const;

export function listCoverage(db: Db, q: CoverageQuery) {
  return fetchPage(coverageFiltered(db, q), (s) => s.select(coverageColumns).orderBy('coverage.id'), q);
}

export function coverageBatches(db: Db, q: Pick<CoverageQuery, 'make'>) {
  return db.streamRows(coverageFiltered(db, q).select(coverageColumns).orderBy('coverage.id').compile());
}

// ---------------------------------------------------------------- mechanic commands

/**
 * Full scan: the make's full-scan commands of the function type across every module; otherwise
 * the commands of the listed modules (module names exact, case-insensitive).
 */
export function listMechanicCommands(db: Db, q: CommandQuery) {
  const filtered = db.kysely
    .selectFrom('mechanic_commands as mc')
    .innerJoin('makes', 'makes.id', 'mc.make_id')
    .where((eb) =>
      eb.and([
        equalsCI(eb, 'makes.name', q.make),
        eb('mc.function_type', '=', q.function_type),
        q.full_scan
          ? eb('mc.full_scan', '=', 1)
          : eb(
              eb.fn('lower', ['mc.module']),
              'in',
              q.module.length > 0 ? q.module.map((m) => m.toLowerCase()) : [''],
            ),
      ]),
    );
  return fetchPage(
    filtered,
    (s) => s.select(['mc.command', 'mc.module']).orderBy('mc.module').orderBy('mc.id'),
    q,
  );
}

// ---------------------------------------------------------------- makes and models

export function listMakes(db: Db, q: MakeListQuery) {
  return db.kysely
    .selectFrom('makes')
    .select(['name', 'segment'])
    .where((eb) => (q.segment ? equalsCI(eb, 'segment', q.segment) : eb.and([])))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export function listModels(db: Db, q: ModelListQuery) {
  return db.kysely
    .selectFrom('models')
    .innerJoin('makes', 'makes.id', 'models.make_id')
    .select(['models.name', 'makes.name as make'])
    .where((eb) => equalsCI(eb, 'makes.name', q.make))
    .orderBy('models.name')
    .orderBy('models.id')
    .execute();
}

// ---------------------------------------------------------------- odometer and live data

function odometerFiltered(db: Db, q: Omit<OdometerQuery, 'page' | 'limit'>) {
  return db.kysely.selectFrom('odometer_commands as c').where((eb) => vehicleWhere(eb, q));
}

const odometerColumns = [
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
] as const;

export function listOdometer(db: Db, q: OdometerQuery) {
  return fetchPage(odometerFiltered(db, q), (s) => s.select(odometerColumns).orderBy('c.id'), q);
}

export function odometerBatches(db: Db, q: Omit<OdometerQuery, 'page' | 'limit'>) {
  return db.streamRows(odometerFiltered(db, q).select(odometerColumns).orderBy('c.id').compile());
}

export function listLiveData(db: Db, q: LiveDataQuery) {
  const filtered = db.kysely
    .selectFrom('live_data_commands as c')
    .innerJoin('makes', 'makes.id', 'c.make_id')
    .leftJoin('model_groups', 'model_groups.id', 'c.model_group_id')
    .where((eb) => eb.and([vehicleWhere(eb, q), ...(q.module ? [equalsCI(eb, 'c.module', q.module)] : [])]));
  return fetchPage(
    filtered,
    (s) =>
      s
        .select([
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
        ])
        .orderBy('c.id'),
    q,
  );
}
