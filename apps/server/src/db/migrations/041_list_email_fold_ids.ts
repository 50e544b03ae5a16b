import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/** Frozen: the activity lists and their e-mail columns (035's). */
const EMAILS: readonly (readonly [string, string])[] = [
  ['scans', 'email'],
  ['special_function_runs', 'user_email'],
  ['actuation_runs', 'user_email'],
];

/**
 * Issue 12 item 2, PostgreSQL: the ids of the rows of an e-mail surname, by folded address. A
 * surname sorted by another column than time ('joshi' by app version, page 100) walks that
 * column's index testing each id against every match's id, read once first: 'joshi''s 42,424
 * scans through its 25,156 addresses (037's trigram index over the counters, then the e-mail
 * index once per address) took 55–70 ms of the 80–120 the page took at a million scans.
 *
 * An index of each row's address folded as 035 folds it (every run of ASCII digits one '0'),
 * then its id, finds them from the surname's ~750 folded addresses (035's counters, which the
 * plan reads anyway) in ~10 ms, from the index alone. The address is carried (`INCLUDE`) only
 * because PostgreSQL's planner takes an index-only scan just when every column the expression
 * reads is in the index; without it, it read the whole index (610 ms). A digit-free fragment is
 * in an address exactly when it is in its folded form (035), so the rows are those counted.
 * Space: ~80 MB per million rows; writes: one regexp_replace and one entry per row.
 * SQLite: nothing (it keeps no folded counters).
 */
export function listEmailFoldIdsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, column] of EMAILS)
        await sql
          .raw(
            `CREATE INDEX ${table}_email_fold_ids ON ${table} ((regexp_replace(${column}, '[0-9]+', '0', 'g')), id) INCLUDE (${column})`,
          )
          .execute(db);
    },
  };
}
