import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 1, PostgreSQL, the users list at three million app users: an e-mail fragment
 * with a creation bound is totalled from 036's folded counters per month, plus the users of the
 * bound's own month on its side, counted with the fragment (`usersList.ts` `foldedEmailTotal`).
 * That count ANDed the fragment's trigram bitmap ('sharma': 126,779 users) with half a month of
 * the creation index and read ~10,700 heap pages: 100–120 ms at three million users (23 at one).
 *
 * 015's sort index of the creation time (created_at, id) now carries the address, so that count
 * is a range of it read alone, each address tested there (39,517 entries, 18 ms). The same key,
 * the same name: the sort by creation time reads it as before. Space: the address per user
 * (~25 bytes). SQLite: nothing (its users' totals do not count this way).
 */
export function usersCreatedWithEmailMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE INDEX app_users_sort_created_at_with_email ON app_users (created_at, id) INCLUDE (email)`.execute(
        db,
      );
      await sql`DROP INDEX IF EXISTS app_users_sort_created_at`.execute(db);
      await sql`ALTER INDEX app_users_sort_created_at_with_email RENAME TO app_users_sort_created_at`.execute(
        db,
      );
    },
  };
}
