import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { SORTED } from './015_sort_indexes.ts';
import { soleIndexNames } from './030_sole_sort_indexes.ts';

/** Frozen: the users' filter columns but the e-mail (the lists' `users.sortCarriedSqlite`). */
const CARRIED = ['plan', 'status', 'created_at'];

/**
 * Issue 12 item 2, SQLite: 051's change on the app users, for their plan, status and creation
 * time. A users page sorted by a column under a frequent plan, status or creation bound walks the
 * sorted column's index testing each user's row (the filters kept off their indexes:
 * `usersList.ts`): premium (a tenth of the users) by phone descending, page 100, looked up
 * ~30,000 rows, 114–122 ms at a million users. Each sortable column's index — the column alone
 * (001's, 015's, 030's) — becomes (column, id, plan, status, created_at) less the column itself,
 * so that walk reads the index alone. The e-mail's UNIQUE index cannot be dropped: its carrying
 * index is added beside it. Space: ~45 bytes per user and index.
 */
export function usersSortCarriesFiltersSqliteMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const column of SORTED.app_users ?? []) {
        for (const name of await soleIndexNames(db, 'app_users', column))
          if (!name.startsWith('sqlite_autoindex_')) await sql`DROP INDEX ${sql.id(name)}`.execute(db);
        const carried = CARRIED.filter((c) => c !== column).map((c) => sql.ref(c));
        await sql`CREATE INDEX ${sql.id(`app_users_sort_${column}`)} ON app_users (${sql.ref(column)}, id, ${sql.join(carried)})`.execute(
          db,
        );
      }
    },
  };
}
