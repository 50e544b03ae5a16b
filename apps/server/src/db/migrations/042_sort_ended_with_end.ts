import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/** Frozen: the lists whose runs carry an ended flag beside their end time. */
const TABLES = ['scans', 'special_function_runs'] as const;

/**
 * Issue 12 item 2, PostgreSQL: a list sorted by "ended" with an end bound ("ended by 31 December,
 * not ended first"). Its page walks 015's (scan_ended, id) index and tests each row's end time:
 * ascending, the runs that never ended (no end time, so none is within the bound: 49,944 of a
 * million scans) come first, each a heap read — 54,000 lookups, 100–140 ms for pages 1 and 100.
 * The same index carrying the end time answers the walk from the index alone (the order and the
 * entries are 015's; 21 → 55 MB at a million rows). SQLite: unchanged — its walk of that index reads the
 * rows in their own b-tree order and took 65 ms.
 */
export function sortEndedWithEndMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const table of TABLES) {
        await sql
          .raw(
            `CREATE INDEX ${table}_sort_scan_ended_end ON ${table} (scan_ended, id) INCLUDE (scan_end_time)`,
          )
          .execute(db);
        await sql.raw(`DROP INDEX ${table}_sort_scan_ended`).execute(db);
      }
    },
  };
}
