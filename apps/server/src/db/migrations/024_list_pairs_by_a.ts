import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 1: migration 017's pair counters in their key's order with the count,
 * `(tbl, a, b, av, bv, n)` (SQLite: a column of the index; PostgreSQL: INCLUDE) — 023's
 * counterpart for a listed first value.
 *
 * A fragment matching too many values to list ('gmail') with a filter on a column that sorts
 * before it (app version, country) sums the pairs of the listed `av`s. The key has the range but
 * not `n`: one table read per pair (SQLite even preferred scanning all of 023's index, ~670,000
 * entries for app version × e-mail at a million scans; PostgreSQL ~8,500 heap pages). Here the
 * range is read from the index alone.
 */
export function listPairsByAMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`CREATE INDEX list_pairs_by_a ON list_pairs (tbl, a, b, av, bv) INCLUDE (n)`.execute(db);
        await sql`ANALYZE list_pairs`.execute(db);
      } else {
        // No ANALYZE on SQLite (see 023): equality on four columns of a covering index is
        // chosen for a listed `av` over the key and over 023's index.
        await sql`CREATE INDEX list_pairs_by_a ON list_pairs (tbl, a, b, av, bv, n)`.execute(db);
      }
    },
  };
}
