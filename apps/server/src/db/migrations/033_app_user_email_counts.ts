import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 1: an e-mail fragment on the Users Table without reading a user's row per
 * candidate (SQLite). 020's trigram table finds the users whose address holds a fragment — 'sharma'
 * among a million users: 42,430, in 6 ms — but each was then re-read for a LIKE, because the
 * trigram match folds case beyond ASCII where LIKE does not: 145 ms for the row look-ups alone
 * (a user's row is wide), 167 ms the request. For a fragment of ASCII characters the two agree on
 * every ASCII address; only an address holding other characters can differ, and those are few:
 * - `app_users_email_non_ascii`: the addresses holding a character beyond ASCII (the length in
 *   characters differs from the length in bytes; an address with a NUL is counted in too, harmless),
 *   which are tested with LIKE — the only candidates re-read;
 * - `app_users_id_filters`: the other filters' columns by id, so a candidate is tested against a
 *   plan, a status or a creation range in a narrow index (42,430 probes: ~50 ms) rather than in its
 *   row (~140 ms).
 * PostgreSQL: nothing (pg_trgm re-checks every candidate on the heap).
 */
export function appUserEmailCountsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await sql`CREATE INDEX app_users_email_non_ascii ON app_users (email) WHERE length(email) <> length(CAST(email AS BLOB))`.execute(
        db,
      );
      await sql`CREATE INDEX app_users_id_filters ON app_users (id, lower(status), lower(plan), created_at)`.execute(
        db,
      );
      await sql`ANALYZE app_users`.execute(db);
    },
  };
}
