import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 1 on PostgreSQL: the (value, time, id) indexes migration 017 made for SQLite only,
 * for the counted columns the activity lists filter by contains (the exact ones have 003's). A
 * value's rows newest first are then one index range: two filters together walk the rarer
 * value's range, testing the other on each entry, instead of sorting every match (Generic 3.5
 * scans, page 100: 16,000 rows on 41,000 heap pages, 330 ms at a million scans) or walking the
 * whole time index.
 *
 * The scans' indexes carry the other columns a pair or an end bound tests (the other counted
 * columns of few values, the end time) as INCLUDE columns, so that walk reads the index alone
 * (an index-only scan: no heap page per stepped-over entry). They replace 001's plain (type) and
 * (app_version) indexes, which they lead with. The other lists' tables get the plain key only.
 * SQLite: nothing (017 has them there).
 */

/** Frozen: the scans' counted columns of few values (004) and the end time. */
const SCANS_CARRIED = ['make', 'type', 'app_version', 'country_id', 'scan_end_time'] as const;

/** Frozen: 017's contains-by-day columns and each table's time column. */
const CONTAINS_BY_DAY: Record<string, { order: string; columns: readonly string[] }> = {
  scans: { order: 'scan_start_time', columns: ['make', 'type', 'app_version'] },
  special_function_runs: {
    order: 'scan_start_time',
    columns: ['make', 'module', 'function_type', 'command_type', 'variant'],
  },
  actuation_runs: { order: 'created_at', columns: ['make', 'input', 'actuation_type', 'actuation_option'] },
};

export function valueTimeIndexesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, { order, columns }] of Object.entries(CONTAINS_BY_DAY))
        for (const column of columns) {
          const carried = table === 'scans' ? SCANS_CARRIED.filter((c) => c !== column) : [];
          const include =
            carried.length > 0 ? sql` INCLUDE (${sql.join(carried.map((c) => sql.ref(c)))})` : sql``;
          await sql`CREATE INDEX ${sql.id(`${table}_${column}_order`)} ON ${sql.table(table)} (${sql.ref(column)}, ${sql.ref(order)}, id)${include}`.execute(
            db,
          );
        }
      await sql`DROP INDEX scans_type_idx`.execute(db);
      await sql`DROP INDEX scans_app_version_idx`.execute(db);
      await sql`ANALYZE scans, special_function_runs, actuation_runs`.execute(db);
    },
  };
}
