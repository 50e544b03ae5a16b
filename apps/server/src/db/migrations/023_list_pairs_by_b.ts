import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 1: migration 017's pair counters ordered by their second value too,
 * `(tbl, a, b, bv, av)` with the count (SQLite: a column of the index; PostgreSQL: INCLUDE).
 *
 * A fragment matching more values than are worth listing ('gmail': ~200,000 of the addresses at a
 * million scans) is tested on each pair's own value instead. With a second filter on a column that
 * sorts after it (e-mail with make, model, type) the key `(tbl, a, b, av, bv)` held those pairs
 * scattered over every e-mail; this index holds them as one range per listed value, read from
 * the index alone. With a column sorting first (country, version) the key already did.
 */
export function listPairsByBMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`CREATE INDEX list_pairs_by_b ON list_pairs (tbl, a, b, bv, av) INCLUDE (n)`.execute(db);
        await sql`ANALYZE list_pairs`.execute(db);
      } else {
        // No ANALYZE on SQLite (the project keeps no statistics there): equality on four of its
        // columns makes the planner choose it for a listed `bv`, the key for a listed `av`.
        await sql`CREATE INDEX list_pairs_by_b ON list_pairs (tbl, a, b, bv, av, n)`.execute(db);
      }
    },
  };
}
