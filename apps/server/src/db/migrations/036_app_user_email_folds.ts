import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12 item 1 on the Users Table, PostgreSQL: an e-mail fragment with a plan, a status or a
 * creation bound ('sharma' with `status=active`: 42,430 candidates, each re-checked on the heap by
 * pg_trgm, then tested: 130–140 ms for the count alone; SQLite answers from 033's index).
 *
 * As 035 does for the activity lists, each address is folded (every run of ASCII digits one '0'):
 * a fragment without a digit is in an address exactly when it is in its folded form, and a
 * million users' addresses fold into a few tens of thousands. `user_counts` gets the users per
 * folded address (`col = 'email#'`), per folded address and case-folded status or plan
 * (`email#status`, `email#plan`, the value in `day`), and per folded address and month of creation
 * (`email#month`, 'YYYY-MM' in `day`), kept by triggers in the same transaction as every write,
 * as 020's and 034's are; `seed/bulk.ts` rebuilds them. The page walks a narrow index of the
 * ids with every filter's column (`app_users_id_email_filters`).
 *
 * SQLite: nothing (no regexp_replace for a trigger; 033 answers there).
 */

/** Frozen: the facets counted, as `[col, day]` SQL of the user row `x` (val: its folded address). */
const EMAIL_FACETS = (x: string): [string, string][] => [
  [`'email#'`, `''`],
  [`'email#status'`, `lower(${x}.status)`],
  [`'email#plan'`, `lower(${x}.plan)`],
  [`'email#month'`, `substr(${x}.created_at, 1, 7)`],
];

export function appUserEmailFoldsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      const counts = (rows: string, sign: string) => `
        INSERT INTO user_counts (col, val, day, n)
          SELECT f.c, regexp_replace(x.email, '[0-9]+', '0', 'g'), f.d, ${sign}count(*) FROM ${rows} x
          CROSS JOIN LATERAL (VALUES ${EMAIL_FACETS('x')
            .map(([c, d]) => `(${c}, ${d})`)
            .join(', ')}) AS f(c, d)
          WHERE x.email IS NOT NULL AND f.d IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT (col, val, day) DO UPDATE SET n = user_counts.n + excluded.n;`;
      await sql.raw(counts('app_users', '')).execute(db);
      await postgresStatementTriggers(db, 'app_users', 'app_users_email_folds', counts);
      // The page: the ids newest first with every filter's column, so a walk tests each user in
      // the index alone (an index-only scan; 033's counterpart, with the address): page 100 of
      // 'sharma' since a date read 42,000 candidates' rows for the sort, 25,000 heap blocks (200 ms).
      await sql`CREATE INDEX app_users_id_email_filters ON app_users (id, email, lower(status), lower(plan), created_at)`.execute(
        db,
      );
      await sql`ANALYZE user_counts, app_users`.execute(db);
    },
  };
}
