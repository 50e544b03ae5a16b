import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12: 'gmail' with a start bound, and deep pages of 'gmail' alone. 004's `list_days` counts
 * the columns of few values per day of the list's time column; e-mails are counted per month only
 * (007), so "e-mail contains … and start ≥ from" was a count over every row since `from` (80 ms
 * on SQLite, 180 ms on PostgreSQL at a million scans), and a deep page of 'gmail' had no day to
 * start its walk from. Here each e-mail domain (after the first '@', as 027) gets its rows per
 * day in `list_days` (col `email@`), kept by triggers on the activity tables (SQLite per row,
 * PostgreSQL per statement, as 004's); a fragment's rows per day are then its domains' days plus
 * its few local-only addresses' rows (`modules/operations/emailDomains.ts`).
 */

/** Frozen: each activity table's e-mail column and time column (004). */
const EMAIL_DAYS = {
  scans: { email: 'email', order: 'scan_start_time' },
  special_function_runs: { email: 'user_email', order: 'scan_start_time' },
  actuation_runs: { email: 'user_email', order: 'created_at' },
} as const;

export function listEmailDomainDaysMigration(dialect: Dialect) {
  const at = (v: string) => (dialect === 'postgres' ? `strpos(${v}, '@')` : `instr(${v}, '@')`);
  const domain = (v: string) => `substr(${v}, ${at(v)} + 1)`;
  return {
    async up(db: Kysely<any>) {
      for (const [table, { email, order }] of Object.entries(EMAIL_DAYS)) {
        const e = (alias: string) => `${alias}."${email}"`;
        const day = (alias: string) => `substr(${alias}."${order}", 1, 10)`;
        await sql
          .raw(
            `INSERT INTO list_days (tbl, col, val, day, n) SELECT '${table}', '${email}@', ${domain(e('x'))}, ${day('x')}, count(*) FROM "${table}" x WHERE ${at(e('x'))} > 0 GROUP BY 3, 4`,
          )
          .execute(db);
        if (dialect === 'sqlite') {
          const apply = (alias: 'new' | 'old', sign: '1' | '-1') => `
            INSERT INTO list_days (tbl, col, val, day, n)
              SELECT '${table}', '${email}@', ${domain(e(alias))}, ${day(alias)}, ${sign} WHERE ${at(e(alias))} > 0
              ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = n + excluded.n;`;
          await sql
            .raw(
              `CREATE TRIGGER "${table}_domain_days_ai" AFTER INSERT ON "${table}" BEGIN ${apply('new', '1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_domain_days_ad" AFTER DELETE ON "${table}" BEGIN ${apply('old', '-1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_domain_days_au" AFTER UPDATE OF "${email}", "${order}" ON "${table}" BEGIN ${apply('old', '-1')} ${apply('new', '1')} END`,
            )
            .execute(db);
        } else {
          await postgresStatementTriggers(
            db,
            table,
            `${table}_domain_days`,
            (rows, sign) => `
            INSERT INTO list_days (tbl, col, val, day, n)
              SELECT '${table}', '${email}@', ${domain(e('x'))}, ${day('x')}, ${sign}count(*) FROM ${rows} x
              WHERE ${at(e('x'))} > 0 GROUP BY 3, 4 ORDER BY 3, 4
              ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = list_days.n + excluded.n;`,
          );
        }
      }
      if (dialect === 'postgres') await sql`ANALYZE list_days`.execute(db);
    },
  };
}
