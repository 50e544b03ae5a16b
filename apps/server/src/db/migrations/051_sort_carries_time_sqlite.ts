import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { SORTED } from './015_sort_indexes.ts';
import { soleIndexNames } from './030_sole_sort_indexes.ts';

/** Frozen: per activity list, its time column (the lists' `sqliteSortCarried`). */
const TIME: Record<string, string> = {
  scans: 'scan_start_time',
  special_function_runs: 'scan_start_time',
  actuation_runs: 'created_at',
};

/**
 * Issue 12 item 2, SQLite: 044's change on PostgreSQL, for the time column. A page sorted by a
 * column with a bound on the list's time (the filter most often beside a sort) walked the sorted
 * column's index and looked up each entry's row to test its time: since 1 May by VIN descending,
 * page 100, ~27,000 rows at ~4 µs each on a million scans, 85–150 ms in-process. Each sortable
 * column's index — the column alone, ending in the rowid (015's, 030's, or 001's filter index
 * that 015 reused) — becomes (column, id, time): the same order (the id written out, as 048
 * did), the time read from the index itself, so the walk reads no row; 048's "ended" indexes
 * hold it after the end time. The time column's own index is left as it is. Each index keeps its
 * name (a filter index of 001's that 015 reused takes 015's); an equality or range on the column (001's filters) reads it as before.
 * Space: the time (~24 bytes) and the id per row and index.
 */
export function sortCarriesTimeSqliteMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const [table, time] of Object.entries(TIME))
        for (const column of SORTED[table] ?? []) {
          if (column === time) continue;
          if (column === 'scan_ended') {
            // 048's (flag, id, end time) gains the time after the end time, under its name.
            const name = sql.id(`${table}_sort_scan_ended_end`);
            await sql`DROP INDEX ${name}`.execute(db);
            await sql`CREATE INDEX ${name} ON ${sql.table(table)} (scan_ended, id, scan_end_time, ${sql.ref(time)})`.execute(
              db,
            );
            continue;
          }
          for (const name of await soleIndexNames(db, table, column))
            await sql`DROP INDEX ${sql.id(name)}`.execute(db);
          await sql`CREATE INDEX ${sql.id(`${table}_sort_${column}`)} ON ${sql.table(table)} (${sql.ref(column)}, id, ${sql.ref(time)})`.execute(
            db,
          );
        }
    },
  };
}
