import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 1 on the Users Table, measured at 1,000,000 app users for the first time: its
 * plan and status filters are exact but case-insensitive (`lower(plan) = ?`), which no index
 * held, so every count read the table: `plan=premium` 147 ms, `status=active&plan=premium`
 * 387 ms, `status=active&created_from=…` 1.6 s (SQLite). An index on each pair of filters — the
 * two case-folded columns together, and each with the creation time — makes each count one range
 * of one index, on both dialects (expression indexes); a single plan or status is the leading
 * part of them. The e-mail fragment has its trigram indexes already (020's FTS5 table, 001's
 * pg_trgm).
 */
const INDEXES: [name: string, keys: string, columns: string][] = [
  ['app_users_plan_status_ci', 'lower(plan), lower(status)', 'plan, status'],
  ['app_users_plan_created_ci', 'lower(plan), created_at', 'plan'],
  ['app_users_status_created_ci', 'lower(status), created_at', 'status'],
];

export function appUserFilterIndexesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL reads an expression index alone (an index-only scan) only when it also holds
      // the columns the expressions read: without them it scanned the plan index or the table
      // instead (`plan=premium` 325 ms; with them 30 ms at a million users).
      for (const [name, keys, columns] of INDEXES)
        await sql
          .raw(
            `CREATE INDEX ${name} ON app_users (${keys})${dialect === 'postgres' ? ` INCLUDE (${columns})` : ''}`,
          )
          .execute(db);
      await sql`ANALYZE app_users`.execute(db);
    },
  };
}
