import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/** Frozen: the activity lists, their e-mail columns (035's) and their time columns. */
const EMAILS: readonly (readonly [string, string, string])[] = [
  ['scans', 'email', 'scan_start_time'],
  ['special_function_runs', 'user_email', 'scan_start_time'],
  ['actuation_runs', 'user_email', 'created_at'],
];

/**
 * Issue 12 item 1, PostgreSQL: a surname's deep page at three million rows. Its page is found
 * in the month holding it (035's folded counters per month), then the time index is walked from
 * that month's end testing each row's address: 'joshi' page 100 at three million scans stepped
 * over ~60,000 entries, a heap page each (50 ms in-process, 85 over HTTP, against 25–40 at a
 * million). The walk grows with the table; the month's matches are a twentieth of it.
 *
 * 041's index of each row's folded address then its id gains the time column between the two:
 * the month's matches of a surname are then one range per folded address ('joshi': ~750), read
 * from the index alone and sorted (~7,000 at three million, ~2,300 at a million). 041's uses
 * (the surname's ids) read the same index, whose id is now its third column. It replaces 041's,
 * which is dropped. Space: the time column (text, ~25 bytes) more per row.
 * SQLite: nothing (it keeps no folded counters).
 */
export function listEmailFoldTimesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, column, time] of EMAILS) {
        await sql
          .raw(
            `CREATE INDEX ${table}_email_fold_times ON ${table} ((regexp_replace(${column}, '[0-9]+', '0', 'g')), ${time}, id) INCLUDE (${column})`,
          )
          .execute(db);
        await sql.raw(`DROP INDEX ${table}_email_fold_ids`).execute(db);
      }
      // The folded address's statistics (an index expression's are gathered by ANALYZE).
      await sql`ANALYZE scans, special_function_runs, actuation_runs`.execute(db);
    },
  };
}
