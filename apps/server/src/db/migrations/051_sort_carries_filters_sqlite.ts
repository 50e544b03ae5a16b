import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { SORTED } from './015_sort_indexes.ts';
import { soleIndexNames } from './030_sole_sort_indexes.ts';

/**
 * Frozen: per activity list, its time column and what its sort indexes carry after the id (the
 * lists' `sortCarriedSqlite`): the time; on the scans also the two counted columns of few, dense
 * values (country, type: 2 and ~7 bytes). Not the make and the app version 044 carries on
 * PostgreSQL: their values are sparse, so walks against their ids serve, and wider entries slowed
 * the walks against an e-mail fragment's ids ('joshi' by make, page 100: p50 30 → 62 ms over HTTP).
 */
const CARRIED: Record<string, { time: string; carried: string[] }> = {
  scans: { time: 'scan_start_time', carried: ['scan_start_time', 'country_id', 'type'] },
  special_function_runs: { time: 'scan_start_time', carried: ['scan_start_time'] },
  actuation_runs: { time: 'created_at', carried: ['created_at'] },
};

/**
 * Issue 12 item 2, SQLite: 044's change on PostgreSQL. A page sorted by a column with a bound on
 * the list's time (the filter most often beside a sort), or a frequent value of another column,
 * walked the sorted column's index and looked up each entry's row to test it: since 1 May by VIN
 * descending, page 100, ~27,000 rows at ~4 µs each on a million scans, 85–150 ms in-process;
 * type 'generic' by anything, page 100, ~15,000 rows, 88–120 ms p95 over HTTP. Each sortable
 * column's index — the column alone, ending in the rowid (015's, 030's, or 001's filter index
 * that 015 reused) — becomes (column, id, carried…) less the column itself: the same order (the
 * id written out, as 048 did), the filters read from the index itself, so the walk reads no row.
 * 048's "ended" indexes hold them after the end time; the time column's own index is left as it
 * is. Each index keeps its name (a filter index of 001's that 015 reused takes 015's); an
 * equality or range on the column (001's filters) reads it as before. Space per row and index:
 * the id and the time (~24 bytes); on the scans ~9 more.
 */
export function sortCarriesFiltersSqliteMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const [table, { time, carried }] of Object.entries(CARRIED))
        for (const column of SORTED[table] ?? []) {
          if (column === time) continue;
          const held = sql.join(carried.filter((c) => c !== column).map((c) => sql.ref(c)));
          if (column === 'scan_ended') {
            // 048's (flag, id, end time) gains them after the end time, under its name.
            const name = sql.id(`${table}_sort_scan_ended_end`);
            await sql`DROP INDEX ${name}`.execute(db);
            await sql`CREATE INDEX ${name} ON ${sql.table(table)} (scan_ended, id, scan_end_time, ${held})`.execute(
              db,
            );
            continue;
          }
          for (const name of await soleIndexNames(db, table, column))
            await sql`DROP INDEX ${sql.id(name)}`.execute(db);
          await sql`CREATE INDEX ${sql.id(`${table}_sort_${column}`)} ON ${sql.table(table)} (${sql.ref(column)}, id, ${held})`.execute(
            db,
          );
        }
    },
  };
}
