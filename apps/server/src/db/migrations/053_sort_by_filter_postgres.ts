import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Frozen: per activity list, a filter's column and the sorted columns whose order follows its
 * values, other than the list's time (050's pairs; the time pairs have 003's and 025's
 * (value, time, id) indexes on PostgreSQL already), each with the NULLS clause of 015's sort index
 * of the sorted column (NOT NULL columns have none).
 */
const PAIRS: Record<string, Record<string, readonly { column: string; nullable: boolean }[]>> = {
  scans: {
    make: [{ column: 'vin', nullable: true }],
    country_id: [
      { column: 'license_plate', nullable: true },
      { column: 'email', nullable: false },
    ],
  },
};

/**
 * Issue 12 item 2, PostgreSQL: 050's indexes. 044's sort indexes carry the make and the country,
 * so a walk of the VIN index reads no row, but it still meets Toyota's VINs only past every later
 * maker's: Toyota by VIN descending, page 1, read ~500,000 entries (68 ms warm, 226 ms on a fresh
 * database). With (filter column, sorted column, id) one value's page is a range of it, in the
 * sorted order: `NULLS FIRST` as 015's, so that read backwards it is the descending order with
 * the nulls last, as the lists ask for.
 */
export function sortByFilterPostgresMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, pairs] of Object.entries(PAIRS)) {
        for (const [filter, sorted] of Object.entries(pairs))
          for (const { column, nullable } of sorted)
            await sql`CREATE INDEX ${sql.id(`${table}_sort_${column}_by_${filter}`)} ON ${sql.table(table)} (${sql.ref(filter)}, ${sql.ref(column)}${nullable ? sql` NULLS FIRST` : sql``}, id)`.execute(
              db,
            );
        await sql`ANALYZE ${sql.table(table)}`.execute(db);
      }
    },
  };
}
