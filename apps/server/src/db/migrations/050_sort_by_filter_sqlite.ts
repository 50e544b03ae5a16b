import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Frozen: per activity list, a filter's column and the sorted columns whose order follows its
 * values (a copy of the shapes' `sortedWithin`, `modules/operations/lists.ts`).
 */
const PAIRS: Record<string, Record<string, readonly string[]>> = {
  scans: { make: ['vin'], country_id: ['license_plate', 'email'] },
};

/**
 * Issue 12 item 2, SQLite: a page of one filter value sorted by a column whose values follow it
 * walks the sorted column's index and meets the matches late, in long stretches. A VIN begins
 * with its maker's code: Toyota by VIN descending, page 1, walked ~500,000 entries of the VIN
 * index before Toyota's (the walk against its 50,513 ids: 92–122 ms). A plate's and an address's
 * form follow their country: country 91 by plate descending, page 100, looked up ~60,000 rows for
 * their country (99–119 ms p95 over HTTP). With an index of (filter column, sorted column) the
 * page is a range of it, in order, and the rowid (the id) breaks ties as the sort does.
 * PostgreSQL: nothing — 044's sort indexes carry the country and the make, so its walks read the
 * index alone.
 */
export function sortByFilterSqliteMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const [table, pairs] of Object.entries(PAIRS))
        for (const [filter, sorted] of Object.entries(pairs))
          for (const column of sorted)
            await sql
              .raw(`CREATE INDEX ${table}_sort_${column}_by_${filter} ON ${table} (${filter}, ${column})`)
              .execute(db);
    },
  };
}
