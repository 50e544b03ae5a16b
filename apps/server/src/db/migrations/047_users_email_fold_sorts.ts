import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 2, PostgreSQL: the Users Table under an e-mail fragment, sorted by another column.
 * 'sharma' (42,430 of a million users) sorted by phone, country, creation… page 100: 75–230 ms.
 * A walk of the sorted column's index looked each user up on the heap to test the address (47,000
 * heap pages for creation ascending), and meets the matches late where the column follows the name
 * (country descending: the first 'sharma' 149,765 users in); sorting them read each match's row.
 *
 * An index of every user by folded address (036's fold: each run of ASCII digits one '0') that
 * carries each sortable column: a fragment without a digit is in an address exactly when it is in
 * its folded form, so its users are one range per folded address holding it (036's counters list
 * them: 'sharma', 821), read from this index alone and sorted by any column (~25 ms for 42,430,
 * `usersSortedList.ts`). One index for the ten sortable columns, where carrying the address in each
 * of their sort indexes (046's way) would take about twice the space. Space: ~200 MB at a million
 * users (the table: ~290 MB). SQLite: nothing (no folded counters; 020's trigram table answers).
 */
export function usersEmailFoldSortsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE INDEX app_users_email_fold_sorts ON app_users ((regexp_replace(email, '[0-9]+', '0', 'g')))
        INCLUDE (id, email, name, phone, country, plan, status, device, app_version, created_at, last_login_at)`.execute(
        db,
      );
      // The folded address's statistics (an index expression's are gathered by ANALYZE).
      await sql`ANALYZE app_users`.execute(db);
    },
  };
}
