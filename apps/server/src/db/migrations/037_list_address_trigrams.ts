import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 2 on PostgreSQL: a surname sorted by another column than the time ('joshi' by
 * end time, page 100). The sort's walk tests each id against the matches' ids, read first through
 * the address counters: the ~25,000 addresses of `list_totals` (004) holding the fragment, then
 * their rows in the e-mail's (email, id) index. Finding those addresses cost ~300 ms: 004's
 * trigram index covers every counter value of every table (80,149 candidates for 'joshi'), so the
 * planner read the table's ~594,000 address counters through the primary key instead, testing
 * ILIKE on each.
 *
 * One trigram index per activity table's address counters (a partial index: each holds only
 * that table's addresses, ~32 MB at a million runs) finds the 25,156 in ~7 ms and their rows in
 * ~70 ms (`sortedList.ts`). Writes: no counter update is HOT (035's index includes `n`), so each
 * run written adds an entry here too — about +10 % on a run's ~5 ms at a million (bench/RESULTS.md,
 * session 18). SQLite: nothing (its FTS5 index, 026, is answered first).
 */

/** Frozen: each activity table's counted e-mail column (004). */
export const ADDRESS_COLUMNS = [
  ['scans', 'email'],
  ['special_function_runs', 'user_email'],
  ['actuation_runs', 'user_email'],
] as const;

export function listAddressTrigramsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, column] of ADDRESS_COLUMNS)
        await sql
          .raw(
            `CREATE INDEX list_totals_${table}_${column}_trgm ON list_totals USING gin (val gin_trgm_ops) WHERE tbl = '${table}' AND col = '${column}'`,
          )
          .execute(db);
    },
  };
}
