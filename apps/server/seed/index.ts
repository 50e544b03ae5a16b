import { type Kysely, sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import {
  actuationSource,
  buildActivityPools,
  insertFromSource,
  type RowSource,
  scanSource,
  specialFunctionSource,
} from './activity.ts';
import { type BulkTable, bulkLoad } from './bulk.ts';
import { seedCatalogues } from './catalogue.ts';
import { releaseCsvCache } from './csv.ts';
import { seedFaults } from './faults.ts';
import { type SeedContext, type TableName, withBulkLoadSettings } from './insert.ts';
import { loadUsers, seedUsers } from './users.ts';
import { loadVehicles, seedVehicles } from './vehicles.ts';

/**
 * The deterministic demo dataset: real reference data (makes and models from NHTSA vPIC, fault
 * codes from OBDex / Wal33D / MechanicDB, signals and recorded ECU answers from OBDb) plus
 * generated customers and activity. Same options → same rows, on SQLite and PostgreSQL alike.
 *
 * Layout: vehicles.ts (makes, groups, models), faults.ts (fault codes and their texts),
 * catalogue.ts (command catalogues), users.ts (app users, subscriptions), activity.ts (scans and
 * runs); underneath them csv.ts (data files), random.ts (seeded PRNG, times), insert.ts (batched
 * inserts), protocols.ts (ECU addressing, AT commands), routines.ts (UDS service routines) and
 * lists.ts (hand-written lists). Sources and licences of data/: data/ATTRIBUTION.md.
 */

export interface SeedOptions {
  scans?: number;
  specialFunctions?: number;
  actuations?: number;
  users?: number;
  /**
   * Load the activity with the counting triggers and indexes set aside, then rebuild what they
   * keep (`bulk.ts`): the same database, minutes instead of hours at a million rows. Default:
   * from BULK_FROM activity rows on, so the demo's first start keeps the trigger path.
   */
  bulk?: boolean;
  log?: (msg: string) => void;
}

/** Activity rows (scans + runs) from which a seed or append loads in bulk unless told otherwise. */
export const BULK_FROM = 200_000;

export const DEFAULT_VOLUMES = {
  users: 2000,
  scans: 30_000,
  specialFunctions: 10_000,
  actuations: 10_000,
} as const;

/** True while the database holds no demo data (no makes): the app seeds on its first start. */
export async function isEmpty(db: Db): Promise<boolean> {
  const row = await db.kysely.selectFrom('makes').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

function volume(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`Seed: ${name} must be a whole number ≥ 0 (got ${value})`);
  return n;
}

/**
 * Seeds the whole demo dataset into an empty database, in one transaction: a failure leaves the
 * database empty (and the next start tries again) rather than half-seeded.
 */
export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  const users = volume(options.users, DEFAULT_VOLUMES.users, 'users');
  if (users < 1) throw new Error('Seed: the demo needs at least one user');
  const scans = volume(options.scans, DEFAULT_VOLUMES.scans, 'scans');
  const specialFunctions = volume(
    options.specialFunctions,
    DEFAULT_VOLUMES.specialFunctions,
    'specialFunctions',
  );
  const actuations = volume(options.actuations, DEFAULT_VOLUMES.actuations, 'actuations');
  const bulk = options.bulk ?? scans + specialFunctions + actuations >= BULK_FROM;

  try {
    await withBulkLoadSettings(db, () =>
      db.kysely.transaction().execute(async (trx) => {
        const ctx: SeedContext = { kx: trx, dialect: db.dialect, log };
        const vehicles = await seedVehicles(ctx);
        await seedFaults(ctx, vehicles);
        await seedCatalogues(ctx, vehicles);
        // The stream names carry the starting row count, as the appends do: see appendActivity.
        const activity = async () => {
          const pools = buildActivityPools(vehicles, await seedUsers(ctx, users));
          await insertFromSource(ctx, scanSource(pools, 'scans@0'), scans);
          await insertFromSource(
            ctx,
            specialFunctionSource(pools, 'special_function_runs@0'),
            specialFunctions,
          );
          await insertFromSource(ctx, actuationSource(pools, 'actuation_runs@0'), actuations);
        };
        if (bulk) await bulkLoad(ctx, ['app_users', ...BULK_TABLES], activity);
        else await activity();
        log(`scans ${scans}, special function runs ${specialFunctions}, actuation runs ${actuations}`);
      }),
    );
  } finally {
    releaseCsvCache();
  }
  if (bulk) await vacuum(db, ['app_users', ...BULK_TABLES, 'scan_dtcs']);
}

const BULK_TABLES: BulkTable[] = ['scans', 'special_function_runs', 'actuation_runs'];

/**
 * Benchmarks query right after a bulk load: give PostgreSQL fresh planner statistics, a
 * visibility map for index-only scans (counts) and flushed GIN pending lists, as autovacuum
 * would some minutes later. VACUUM runs outside a transaction, on a pooled connection.
 */
async function vacuum(db: Db, tables: readonly TableName[]) {
  if (db.dialect !== 'postgres') return;
  for (const table of tables) await sql`VACUUM (ANALYZE) ${sql.table(table)}`.execute(db.kysely);
}

/** Rows per transaction when appending: bounded WAL / undo growth, visible progress, same speed. */
const APPEND_CHUNK = 100_000;

/**
 * Adds generated activity to a seeded database (benchmark volumes): more scans, special-function
 * runs and actuation runs for the makes, models and users already there. The PRNG stream of each
 * table starts from its current row count, so repeated appends add new rows, never copies, and
 * the same sequence of appends always gives the same database.
 */
export async function appendActivity(
  db: Db,
  options: Omit<SeedOptions, 'users'> & { users?: number },
): Promise<{ scans: number; specialFunctions: number; actuations: number }> {
  const log = options.log ?? (() => {});
  const ctx: SeedContext = { kx: db.kysely, dialect: db.dialect, log };
  const vehicles = await loadVehicles(ctx);
  if (vehicles.makes.length === 0) throw new Error('The database has no makes: seed the demo data first.');
  let users = await loadUsers(ctx);
  if (users.length > 0 && options.users !== undefined) {
    log(
      `users: the database already has ${users.length} app users; the user volume applies to an empty one only`,
    );
  }
  if (users.length === 0) {
    const count = volume(options.users, DEFAULT_VOLUMES.users, 'users');
    await db.kysely.transaction().execute(async (trx) => {
      await seedUsers({ ...ctx, kx: trx }, Math.max(1, count));
    });
    users = await loadUsers(ctx);
  }
  const pools = buildActivityPools(vehicles, users);
  releaseCsvCache();

  const run = async <T extends TableName>(
    table: T,
    count: number,
    source: (pools: ReturnType<typeof buildActivityPools>, stream: string) => RowSource<T>,
  ) => {
    if (count <= 0) return;
    const existing = await countRows(db, table);
    const rows = source(pools, `${table}@${existing}`);
    const started = performance.now();
    for (let done = 0; done < count; done += APPEND_CHUNK) {
      const n = Math.min(APPEND_CHUNK, count - done);
      await db.kysely.transaction().execute(async (trx) => {
        await insertFromSource({ ...ctx, kx: trx }, rows, n, { done, total: count });
      });
    }
    await vacuum(db, [table]);
    const seconds = (performance.now() - started) / 1000;
    log(`${rows.label}: added ${count.toLocaleString('en-US')} in ${seconds.toFixed(1)} s`);
  };

  const scans = volume(options.scans, 0, 'scans');
  const specialFunctions = volume(options.specialFunctions, 0, 'specialFunctions');
  const actuations = volume(options.actuations, 0, 'actuations');
  if (options.bulk ?? scans + specialFunctions + actuations >= BULK_FROM) {
    // One transaction: the triggers are set aside within it, so no other writer ever sees them gone.
    const volumes: [
      BulkTable,
      number,
      typeof scanSource | typeof specialFunctionSource | typeof actuationSource,
    ][] = [
      ['scans', scans, scanSource],
      ['special_function_runs', specialFunctions, specialFunctionSource],
      ['actuation_runs', actuations, actuationSource],
    ];
    const loaded = volumes.filter(([, count]) => count > 0);
    await withBulkLoadSettings(db, () =>
      db.kysely.transaction().execute(async (trx) => {
        const bulkCtx: SeedContext = { ...ctx, kx: trx };
        await bulkLoad(
          bulkCtx,
          loaded.map(([table]) => table),
          async () => {
            for (const [table, count, source] of loaded) {
              const started = performance.now();
              const rows = source(
                pools,
                `${table}@${await countRows(db, table, trx)}`,
              ) as RowSource<BulkTable>;
              await insertFromSource(bulkCtx, rows, count);
              const seconds = (performance.now() - started) / 1000;
              log(`${rows.label}: added ${count.toLocaleString('en-US')} in ${seconds.toFixed(1)} s`);
            }
          },
        );
      }),
    );
    await vacuum(
      db,
      loaded.flatMap(([table]) => (table === 'scans' ? [table, 'scan_dtcs' as const] : [table])),
    );
    return { scans, specialFunctions, actuations };
  }
  await withBulkLoadSettings(db, async () => {
    await run('scans', scans, scanSource);
    await run('special_function_runs', specialFunctions, specialFunctionSource);
    await run('actuation_runs', actuations, actuationSource);
  });
  return { scans, specialFunctions, actuations };
}

/** Rows in a table (for the totals the CLI prints and the append streams). */
export async function countRows(db: Db, table: TableName, kx: Kysely<Database> = db.kysely): Promise<number> {
  const row = await kx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
