import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/** Frozen: the activity lists and their e-mail columns. */
const EMAILS: readonly (readonly [string, string])[] = [
  ['scans', 'email'],
  ['special_function_runs', 'user_email'],
  ['actuation_runs', 'user_email'],
];

/**
 * Issue 12 item 2, SQLite: 033's partial index of the addresses beyond ASCII, on the activity
 * lists. An e-mail fragment sorted by another column walks that column's index against the
 * fragment's ids ('joshi': 42,424 scans). Those ids were listed through its addresses' counters
 * and the e-mail index (25,156 addresses: 31 ms); the trigram table lists them in ~5 ms, exactly
 * for an ASCII fragment but on the addresses holding other characters, where its case folding and
 * LIKE's differ — those few are read here and tested with LIKE (`trigramMatchIds`). Over HTTP
 * 'joshi' sorted by another column, page 100, took 92–134 ms p95 at a million scans.
 * PostgreSQL: nothing (its walk against the ids reads them through 045's folded addresses).
 */
export function listEmailNonAsciiMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const [table, column] of EMAILS)
        await sql
          .raw(
            `CREATE INDEX ${table}_${column}_non_ascii ON ${table} (${column}) WHERE length(${column}) <> length(CAST(${column} AS BLOB))`,
          )
          .execute(db);
    },
  };
}
