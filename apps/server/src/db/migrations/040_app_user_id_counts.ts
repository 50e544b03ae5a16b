import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12 item 1 on the Users Table: a deep page of one plan, one status or one creation bound,
 * newest first (`status=active&page=10000`), stepped over every earlier match in id order — on
 * PostgreSQL a walk of the primary key reading ~300,000 rows (94–119 ms; 032's index holds
 * `lower(status)`, which an index-only scan cannot test; a creation bound 31–40 ms), and the
 * further the deeper the page, however many users.
 *
 * Users are counted per case-folded plan, per case-folded status and per month of creation
 * ('YYYY-MM') per block of ID_BLOCK ids (`user_counts` rows `col = 'plan#ids' | 'status#ids' |
 * 'created#ids'`, `val` the value, `day` the block's number zero-padded so that text order is
 * number order). A page's offset then names its block from the counters (~1,000 rows a value at
 * a million users; a bound's months beyond its own, and its own month's users counted in the
 * creation index), and the walk starts at that block's edge, stepping over fewer than ID_BLOCK
 * matches. Kept by triggers in the same transaction as
 * every write, as 020's and 034's are; `seed/bulk.ts` rebuilds them (`test/seedBulk.test.ts`).
 */

/** Frozen: ids per counted block. */
const ID_BLOCK = 1024;

/** Frozen: a block's key as SQL of an id (12 digits, zero-padded: text order is number order). */
const idBlockKey = (dialect: Dialect, id: string) =>
  dialect === 'postgres'
    ? `lpad((${id} / ${ID_BLOCK})::text, 12, '0')`
    : `printf('%012d', ${id} / ${ID_BLOCK})`;

/** Frozen: the facets counted, as `[col, value, block]` SQL of the user row `x`. */
const USER_ID_FACETS = (dialect: Dialect, x: string): [string, string, string][] => [
  [`'plan#ids'`, `lower(${x}.plan)`, idBlockKey(dialect, `${x}.id`)],
  [`'status#ids'`, `lower(${x}.status)`, idBlockKey(dialect, `${x}.id`)],
  [`'created#ids'`, `substr(${x}.created_at, 1, 7)`, idBlockKey(dialect, `${x}.id`)],
];

export function appUserIdCountsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [c, v, d] of USER_ID_FACETS(dialect, 'x'))
        await sql
          .raw(
            `INSERT INTO user_counts (col, val, day, n) SELECT ${c}, ${v}, ${d}, count(*) FROM app_users x WHERE ${v} IS NOT NULL GROUP BY 2, 3`,
          )
          .execute(db);
      if (dialect === 'postgres') {
        await postgresStatementTriggers(
          db,
          'app_users',
          'app_users_id_counts',
          (rows, sign) => `
          INSERT INTO user_counts (col, val, day, n)
            SELECT f.c, f.v, f.d, ${sign}count(*) FROM ${rows} x
            CROSS JOIN LATERAL (VALUES ${USER_ID_FACETS(dialect, 'x')
              .map(([c, v, d]) => `(${c}, ${v}, ${d})`)
              .join(', ')}) AS f(c, v, d)
            WHERE f.v IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ON CONFLICT (col, val, day) DO UPDATE SET n = user_counts.n + excluded.n;`,
        );
        await sql`ANALYZE user_counts`.execute(db);
        return;
      }
      const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
        INSERT INTO user_counts (col, val, day, n)
          SELECT c, v, d, ${sign} FROM (${USER_ID_FACETS(dialect, alias)
            .map(([c, v, d]) => `SELECT ${c} AS c, ${v} AS v, ${d} AS d`)
            .join(' UNION ALL ')}) WHERE v IS NOT NULL
          ON CONFLICT (col, val, day) DO UPDATE SET n = n + excluded.n;`;
      await sql
        .raw(
          `CREATE TRIGGER app_users_id_counts_ai AFTER INSERT ON app_users BEGIN ${apply('new', '+1')} END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_id_counts_ad AFTER DELETE ON app_users BEGIN ${apply('old', '-1')} END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_id_counts_au AFTER UPDATE OF id, plan, status, created_at ON app_users BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
        )
        .execute(db);
    },
  };
}
