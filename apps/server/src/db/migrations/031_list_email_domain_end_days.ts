import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12: 'gmail' with an end bound. 028's domain rows count the end per MONTH (derived from the
 * addresses' end months), so the rows ending within `to`'s month up to `to` were counted from the
 * end-time index testing the fragment on each entry: a month of it, ~80,000 entries at a million
 * scans (15 ms on SQLite, ~100 ms of ILIKE on PostgreSQL). Here each e-mail domain gets its rows
 * per end DAY (`list_end_days`, col `email@day`), kept by triggers on the activity tables with an
 * end time, as 029 keeps them per start day; the part of `to`'s own day is then one day of the index.
 */

/** Frozen: the activity tables with an end time, their e-mail and end columns (021). */
const EMAIL_END_DAYS = {
  scans: { email: 'email', end: 'scan_end_time' },
  special_function_runs: { email: 'user_email', end: 'scan_end_time' },
} as const;

export function listEmailDomainEndDaysMigration(dialect: Dialect) {
  const at = (v: string) => (dialect === 'postgres' ? `strpos(${v}, '@')` : `instr(${v}, '@')`);
  const domain = (v: string) => `substr(${v}, ${at(v)} + 1)`;
  return {
    async up(db: Kysely<any>) {
      for (const [table, { email, end }] of Object.entries(EMAIL_END_DAYS)) {
        const e = (alias: string) => `${alias}."${email}"`;
        const day = (alias: string) => `substr(${alias}."${end}", 1, 10)`;
        const counted = (alias: string) => `${at(e(alias))} > 0 AND ${alias}."${end}" IS NOT NULL`;
        await sql
          .raw(
            `INSERT INTO list_end_days (tbl, col, val, day, n) SELECT '${table}', '${email}@day', ${domain(e('x'))}, ${day('x')}, count(*) FROM "${table}" x WHERE ${counted('x')} GROUP BY 3, 4`,
          )
          .execute(db);
        if (dialect === 'sqlite') {
          const apply = (alias: 'new' | 'old', sign: '1' | '-1') => `
            INSERT INTO list_end_days (tbl, col, val, day, n)
              SELECT '${table}', '${email}@day', ${domain(e(alias))}, ${day(alias)}, ${sign} WHERE ${counted(alias)}
              ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = n + excluded.n;`;
          await sql
            .raw(
              `CREATE TRIGGER "${table}_domain_end_days_ai" AFTER INSERT ON "${table}" BEGIN ${apply('new', '1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_domain_end_days_ad" AFTER DELETE ON "${table}" BEGIN ${apply('old', '-1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_domain_end_days_au" AFTER UPDATE OF "${email}", "${end}" ON "${table}" BEGIN ${apply('old', '-1')} ${apply('new', '1')} END`,
            )
            .execute(db);
        } else {
          await postgresStatementTriggers(
            db,
            table,
            `${table}_domain_end_days`,
            (rows, sign) => `
            INSERT INTO list_end_days (tbl, col, val, day, n)
              SELECT '${table}', '${email}@day', ${domain(e('x'))}, ${day('x')}, ${sign}count(*) FROM ${rows} x
              WHERE ${counted('x')} GROUP BY 3, 4 ORDER BY 3, 4
              ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = list_end_days.n + excluded.n;`,
          );
        }
      }
      if (dialect === 'postgres') await sql`ANALYZE list_end_days`.execute(db);
    },
  };
}
