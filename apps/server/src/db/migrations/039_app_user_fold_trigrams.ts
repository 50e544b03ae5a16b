import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 1 on the Users Table, PostgreSQL: an e-mail fragment without a digit, alone or
 * with a plan, a status or a creation bound, is totalled from 036's counters per folded address
 * (`usersList.ts` `foldedEmailTotal`), found by ILIKE on each of the ~22,000 folded addresses at a
 * million users (`col = 'email#'`): 15–20 ms of every such request ('sharma' page 100: 41 ms).
 *
 * A trigram index over those folded addresses alone (a partial index, the users' counterpart of
 * 038) finds 'sharma''s 821 in under a millisecond: the total in ~3 ms, with a status ~5, with a
 * bound's months ~11. Writes: a user's count changes `n` only, which no index holds (a HOT
 * update); an entry is added only for a folded address new to the table. SQLite: nothing (036).
 */
export function appUserFoldTrigramsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE INDEX user_counts_email_folds_trgm ON user_counts USING gin (val gin_trgm_ops) WHERE col = 'email#' AND day = ''`.execute(
        db,
      );
    },
  };
}
