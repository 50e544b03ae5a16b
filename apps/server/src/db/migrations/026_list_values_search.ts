import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 (single filters at any size): a contains filter on a column of many values finds
 * them in `list_totals` (004) before it counts or pages. With a million app users the scans'
 * e-mail column has ~600,000 values, and SQLite ran `val LIKE '%…%'` over all of them on every
 * e-mail search (one customer's address: 135 ms at load 6). PostgreSQL has had a trigram index
 * on `list_totals.val` since 004; this gives SQLite the same: an FTS5 trigram index over the
 * counter rows' values (external content, no copy of the text), kept in step by triggers. The
 * values never change once a counter row exists (only `n` and `months` do), so insert and delete
 * are enough, and a scan insert that only bumps a counter costs nothing more.
 * PostgreSQL: nothing.
 */
export function listValuesSearchMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await sql`CREATE VIRTUAL TABLE list_values_search USING fts5(val, content='list_totals', content_rowid='rowid', tokenize='trigram')`.execute(
        db,
      );
      await sql`CREATE TRIGGER list_values_search_ai AFTER INSERT ON list_totals BEGIN
        INSERT INTO list_values_search (rowid, val) VALUES (new.rowid, new.val); END`.execute(db);
      await sql`CREATE TRIGGER list_values_search_ad AFTER DELETE ON list_totals BEGIN
        INSERT INTO list_values_search (list_values_search, rowid, val) VALUES ('delete', old.rowid, old.val); END`.execute(
        db,
      );
      // Values never change, but a hand-made UPDATE of one would leave the index stale: follow it.
      await sql`CREATE TRIGGER list_values_search_au AFTER UPDATE OF val ON list_totals BEGIN
        INSERT INTO list_values_search (list_values_search, rowid, val) VALUES ('delete', old.rowid, old.val);
        INSERT INTO list_values_search (rowid, val) VALUES (new.rowid, new.val); END`.execute(db);
      // The counter rows that existed before this migration.
      await sql`INSERT INTO list_values_search (list_values_search) VALUES ('rebuild')`.execute(db);
    },
  };
}
