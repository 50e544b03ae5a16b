import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/** Frozen: the lists whose runs carry an ended flag beside their end time (042's). */
const TABLES = ['scans', 'special_function_runs'] as const;

/**
 * Issue 12 item 2, SQLite: 042's change on PostgreSQL. A list sorted by "ended" with an end bound
 * ("ended by 31 December, not ended first") walks 015's index of the flag and tests each row's end
 * time: ascending, the runs that never ended (no end time, so none is within the bound: ~50,000 of
 * a million scans) come first, each a row looked up — 83–112 ms in-process for page 1, 101–104 ms
 * p95 over HTTP at a million scans. The index now holds the end time after the flag and the id
 * (SQLite has no INCLUDE; the id written out keeps 015's order, flag then id), so the walk reads
 * the index alone. It replaces 015's index of the flag. Space: the end time (~24 bytes) per row.
 */
export function sortEndedWithEndSqliteMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const table of TABLES) {
        await sql
          .raw(`CREATE INDEX ${table}_sort_scan_ended_end ON ${table} (scan_ended, id, scan_end_time)`)
          .execute(db);
        await sql.raw(`DROP INDEX IF EXISTS ${table}_sort_scan_ended`).execute(db);
      }
    },
  };
}
