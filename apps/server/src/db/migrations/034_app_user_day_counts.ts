import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12 item 1 on the Users Table: a plan or a status with a creation bound
 * (`status=active&created_to=…`) was counted over one range of 032's indexes — 343,000 entries,
 * 145–160 ms on PostgreSQL (20 ms on SQLite). 020 counts users per creation day, and per plan and
 * per status overall; this counts them per case-folded plan and per case-folded status per
 * creation day too (`user_counts` rows `col = 'plan@day' | 'status@day'`, `val` the folded value,
 * `day` the day), so such a total is the days beyond the bound's own summed, plus that day's users
 * counted in 032's index. Kept by triggers in the same transaction as every write, as 020's are;
 * `seed/bulk.ts` rebuilds them (`test/seedBulk.test.ts` holds it to what the triggers write).
 */

/** Frozen: the facets counted, as `[col, value, day]` SQL of the user row `x`. */
const USER_DAY_FACETS = (x: string): [string, string, string][] => [
  [`'plan@day'`, `lower(${x}.plan)`, `substr(${x}.created_at, 1, 10)`],
  [`'status@day'`, `lower(${x}.status)`, `substr(${x}.created_at, 1, 10)`],
];

export function appUserDayCountsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [c, v, d] of USER_DAY_FACETS('x'))
        await sql
          .raw(
            `INSERT INTO user_counts (col, val, day, n) SELECT ${c}, ${v}, ${d}, count(*) FROM app_users x WHERE ${v} IS NOT NULL AND ${d} IS NOT NULL GROUP BY 2, 3`,
          )
          .execute(db);
      if (dialect === 'postgres') {
        await postgresStatementTriggers(
          db,
          'app_users',
          'app_users_day_counts',
          (rows, sign) => `
          INSERT INTO user_counts (col, val, day, n)
            SELECT f.c, f.v, f.d, ${sign}count(*) FROM ${rows} x
            CROSS JOIN LATERAL (VALUES ${USER_DAY_FACETS('x')
              .map(([c, v, d]) => `(${c}, ${v}, ${d})`)
              .join(', ')}) AS f(c, v, d)
            WHERE f.v IS NOT NULL AND f.d IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ON CONFLICT (col, val, day) DO UPDATE SET n = user_counts.n + excluded.n;`,
        );
        await sql`ANALYZE user_counts`.execute(db);
        return;
      }
      const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
        INSERT INTO user_counts (col, val, day, n)
          SELECT c, v, d, ${sign} FROM (${USER_DAY_FACETS(alias)
            .map(([c, v, d]) => `SELECT ${c} AS c, ${v} AS v, ${d} AS d`)
            .join(' UNION ALL ')}) WHERE v IS NOT NULL AND d IS NOT NULL
          ON CONFLICT (col, val, day) DO UPDATE SET n = n + excluded.n;`;
      await sql
        .raw(
          `CREATE TRIGGER app_users_day_counts_ai AFTER INSERT ON app_users BEGIN ${apply('new', '+1')} END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_day_counts_ad AFTER DELETE ON app_users BEGIN ${apply('old', '-1')} END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_day_counts_au AFTER UPDATE OF plan, status, created_at ON app_users BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
        )
        .execute(db);
    },
  };
}
