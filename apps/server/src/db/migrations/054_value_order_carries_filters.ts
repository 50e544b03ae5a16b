import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Frozen: the scans' columns a filter tests (the counted ones: the values of few and of many, the
 * end time) — what a walk of one value's rows in time order must read to test the others.
 */
const SCANS_FILTERED = [
  'make',
  'type',
  'app_version',
  'country_id',
  'scan_end_time',
  'model',
  'email',
] as const;

/**
 * Frozen: the scans' (value, time) indexes by the value's column, named alike on both databases:
 * 017's on SQLite (the rowid after the time) and 025's on PostgreSQL (the id written out, the
 * columns of few values and the end INCLUDEd); 003's (country, time, id) on both.
 */
const ORDER_INDEXES: Record<string, string> = {
  make: 'scans_make_order',
  type: 'scans_type_order',
  app_version: 'scans_app_version_order',
  country_id: 'scans_country_id_scan_start_time_id_ord',
};

/**
 * Issue 12 item 1, three filters together: the filter of the fewest rows drives (session 34's
 * `valuesWhere.ts`), the others are tested on each of its rows. Those tests read the row wherever
 * the driver's index does not hold the column: on SQLite every time (017's indexes hold the value
 * and the time alone), on PostgreSQL for the e-mail and the model (025's INCLUDE list lacks them)
 * and for any test of a country-driven walk (003's index carries nothing). 'gmail' with Toyota in
 * country 91 read Toyota's 50,513 rows whole (SQLite 230–450 ms, PostgreSQL ~300 ms of heap
 * visits); 'gmail' in 91 ending by March, every country-91 row (SQLite 2.9 s).
 *
 * Each of the scans' (value, time) indexes becomes (value, time, id, the other filtered columns),
 * under its name: the same order (ties by id, as the lists sort), every filter of a triple tested
 * in the index itself. On PostgreSQL the filtered columns are INCLUDEd (not ordered), as 025's.
 * Cost per row and index: the e-mail and the model (~35 bytes) on PostgreSQL; on SQLite all of
 * them (~85 bytes). Measured in `bench/RESULTS.md`, session 35.
 */
export function valueOrderCarriesFiltersMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [column, name] of Object.entries(ORDER_INDEXES)) {
        const carried = sql.join(SCANS_FILTERED.filter((c) => c !== column).map((c) => sql.ref(c)));
        const index = sql.id(name);
        await sql`DROP INDEX ${index}`.execute(db);
        if (dialect === 'sqlite')
          await sql`CREATE INDEX ${index} ON scans (${sql.ref(column)}, scan_start_time, id, ${carried})`.execute(
            db,
          );
        else
          await sql`CREATE INDEX ${index} ON scans (${sql.ref(column)}, scan_start_time, id) INCLUDE (${carried})`.execute(
            db,
          );
      }
      if (dialect === 'postgres') await sql`ANALYZE scans`.execute(db);
    },
  };
}
