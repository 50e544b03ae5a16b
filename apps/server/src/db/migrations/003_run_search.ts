import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Substring search over the free-text filters of the three activity tables (decisions §2:
 * contains, case-insensitive), at a million rows each.
 * - SQLite: an FTS5 trigram index per table (external content, kept in step by triggers);
 *   `LIKE '%abc%'` on its columns is answered from the index for fragments of 3+ characters.
 * - PostgreSQL: pg_trgm GIN indexes answer ILIKE '%abc%' (001 made those of the most used
 *   columns; this adds the rest).
 * Composite (filter, time) indexes let exact filters page in time order without sorting.
 */
const SEARCH_COLUMNS = {
  scans: ['email', 'make', 'model', 'license_plate', 'type', 'app_version'],
  special_function_runs: [
    'user_email',
    'make',
    'module',
    'model',
    'function_type',
    'command_type',
    'variant',
    'license_plate',
  ],
  actuation_runs: ['user_email', 'make', 'model', 'input', 'actuation_type', 'actuation_option'],
} as const;

type SearchTable = keyof typeof SEARCH_COLUMNS;
const searchTableOf = (table: SearchTable) => `${table}_search`;

const ALREADY_TRGM = new Set([
  'scans.email',
  'scans.make',
  'scans.model',
  'scans.license_plate',
  'special_function_runs.user_email',
  'special_function_runs.make',
  'special_function_runs.model',
  'special_function_runs.license_plate',
  'actuation_runs.user_email',
  'actuation_runs.make',
  'actuation_runs.model',
]);

export function runSearchMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [table, columns] of Object.entries(SEARCH_COLUMNS) as [SearchTable, readonly string[]][]) {
        if (dialect === 'sqlite') await createFts(db, table, columns);
        else {
          for (const column of columns) {
            if (ALREADY_TRGM.has(`${table}.${column}`)) continue;
            await sql`CREATE INDEX ${sql.id(`${table}_${column}_trgm`)} ON ${sql.table(table)} USING gin (${sql.ref(column)} gin_trgm_ops)`.execute(
              db,
            );
          }
        }
      }
      const composite: [string, string[]][] = [
        ['scans', ['scan_start_time', 'id']],
        ['scans', ['country_id', 'scan_start_time', 'id']],
        ['special_function_runs', ['scan_start_time', 'id']],
        ['special_function_runs', ['item_number', 'scan_start_time', 'id']],
        ['special_function_runs', ['hard_coded', 'scan_start_time', 'id']],
        ['special_function_runs', ['scan_ended', 'scan_start_time', 'id']],
        ['actuation_runs', ['created_at', 'id']],
        ['actuation_runs', ['user_car_model_id', 'created_at', 'id']],
      ];
      for (const [table, cols] of composite) {
        await db.schema
          .createIndex(`${table}_${cols.join('_')}_ord`)
          .on(table)
          .columns(cols)
          .execute();
      }
    },
  };
}

async function createFts(db: Kysely<any>, table: SearchTable, columns: readonly string[]) {
  const fts = searchTableOf(table);
  const list = sql.raw(columns.map((c) => `"${c}"`).join(', '));
  const newValues = sql.raw(columns.map((c) => `new."${c}"`).join(', '));
  const oldValues = sql.raw(columns.map((c) => `old."${c}"`).join(', '));
  await sql`CREATE VIRTUAL TABLE ${sql.table(fts)} USING fts5(${list}, content=${sql.lit(table)}, content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`CREATE TRIGGER ${sql.id(`${fts}_ai`)} AFTER INSERT ON ${sql.table(table)} BEGIN
    INSERT INTO ${sql.table(fts)} (rowid, ${list}) VALUES (new.id, ${newValues}); END`.execute(db);
  await sql`CREATE TRIGGER ${sql.id(`${fts}_ad`)} AFTER DELETE ON ${sql.table(table)} BEGIN
    INSERT INTO ${sql.table(fts)} (${sql.table(fts)}, rowid, ${list}) VALUES ('delete', old.id, ${oldValues}); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER ${sql.id(`${fts}_au`)} AFTER UPDATE ON ${sql.table(table)} BEGIN
    INSERT INTO ${sql.table(fts)} (${sql.table(fts)}, rowid, ${list}) VALUES ('delete', old.id, ${oldValues});
    INSERT INTO ${sql.table(fts)} (rowid, ${list}) VALUES (new.id, ${newValues}); END`.execute(db);
  // Rows that existed before this migration.
  await sql`INSERT INTO ${sql.table(fts)} (${sql.table(fts)}) VALUES ('rebuild')`.execute(db);
}
