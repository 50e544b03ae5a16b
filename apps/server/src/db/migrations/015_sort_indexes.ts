import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 2, sort by any column: an index per sortable column of the activity lists and
 * the users (a frozen copy of the `sort` shapes of `modules/operations/lists.ts`), so that a page
 * of any order at a million rows is read from one end of an index and the id breaks ties:
 * - SQLite: `(column)` — every SQLite index ends in the rowid, which is the id; a column that
 *   already leads a plain index (001's exact filters, 004's time-order index) is skipped.
 * - PostgreSQL: `(column NULLS FIRST, id)` — the order the lists ask for (NULLs first ascending,
 *   last descending, as on SQLite); one index serves both directions, scanned forwards or back.
 * The list's own order (the time column descending) keeps its existing indexes.
 */
export const SORTED: Record<string, string[]> = {
  scans: [
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
  ],
  special_function_runs: [
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
  ],
  actuation_runs: [
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
  ],
  app_users: [
    'email',
    'name',
    'phone',
    'country',
    'plan',
    'status',
    'device',
    'app_version',
    'created_at',
    'last_login_at',
  ],
};

/** Columns NOT NULL in 001: sorted without a NULLS clause, so indexed without one. */
const NOT_NULL = new Set([
  'scans.email',
  'scans.scan_start_time',
  'scans.scan_ended',
  'scans.make',
  'special_function_runs.user_email',
  'special_function_runs.make',
  'special_function_runs.scan_ended',
  'special_function_runs.hard_coded',
  'special_function_runs.scan_start_time',
  'actuation_runs.user_email',
  'actuation_runs.make',
  'actuation_runs.created_at',
  'actuation_runs.updated_at',
  'app_users.email',
  'app_users.plan',
  'app_users.status',
  'app_users.created_at',
]);

/** Does a plain (BINARY, not partial) index of `table` lead with `column`? (SQLite) */
async function leadingIndex(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  const indexes = (
    await sql<{
      name: string;
      partial: number;
    }>`SELECT name, partial FROM pragma_index_list(${table})`.execute(db)
  ).rows;
  for (const index of indexes) {
    if (index.partial) continue;
    const first = (
      await sql<{
        name: string | null;
        coll: string;
      }>`SELECT name, coll FROM pragma_index_xinfo(${index.name}) WHERE seqno = 0`.execute(db)
    ).rows[0];
    if (first?.name === column && first.coll === 'BINARY') return true;
  }
  return false;
}

export function sortIndexesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [table, columns] of Object.entries(SORTED)) {
        for (const column of columns) {
          const name = sql.id(`${table}_sort_${column}`);
          if (dialect === 'sqlite') {
            if (await leadingIndex(db, table, column)) continue;
            await sql`CREATE INDEX ${name} ON ${sql.table(table)} (${sql.ref(column)})`.execute(db);
          } else {
            // A NOT NULL column is asked for without a NULLS clause (lib/sort.ts): its index has none.
            const nulls = NOT_NULL.has(`${table}.${column}`) ? sql`` : sql` NULLS FIRST`;
            await sql`CREATE INDEX ${name} ON ${sql.table(table)} (${sql.ref(column)}${nulls}, id)`.execute(
              db,
            );
          }
        }
      }
      if (dialect === 'postgres')
        await sql`ANALYZE scans, special_function_runs, actuation_runs, app_users`.execute(db);
    },
  };
}
