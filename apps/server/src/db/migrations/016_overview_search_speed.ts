import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 13, the search's free text at a million scans: fault-code titles searched by "contains"
 * (`title ILIKE '%misfire%'`) read all 12,000 reference rows on PostgreSQL (144 ms p95 at load
 * 8–10); a pg_trgm GIN index on `fault_codes.title` answers it from the index, as 001 and 003 do
 * for the lists' contains filters. SQLite reads the same 12,000 short rows with LIKE in a few
 * milliseconds (its FTS5 trigram tables serve the million-row activity tables only), so this is
 * PostgreSQL's alone.
 */
export function overviewSearchSpeedMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
      await sql`CREATE INDEX IF NOT EXISTS fault_codes_title_trgm ON fault_codes USING gin (title gin_trgm_ops)`.execute(
        db,
      );
    },
  };
}
