import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * The overview and the search at a million app users (issue 13):
 * - `user_counts (col, val, day, n)`: app users per plan (`col = 'plan'`) and per status
 *   (`'status'`), `day = ''`; and per day of their creation (`col = 'created'`, `val = ''`).
 *   The overview's "users by plan / by status" read a handful of rows instead of grouping a
 *   million users (1.1 s on SQLite at load 20), and "new app users" of a period sums its days
 *   instead of counting a third of a million index entries for a year. Kept by triggers in the
 *   same transaction as every write, as 004's list counters are (per row on SQLite, per statement
 *   on PostgreSQL).
 * - the search's "contains" over app users' e-mail and name: an FTS5 trigram index on SQLite
 *   (`app_users_search`, external content, as 003's for the activity tables; LIKE over a million
 *   e-mails read them all), a pg_trgm index on the name on PostgreSQL (001 indexes the e-mail).
 */
const FACETS = (x: string) => [
  [`'plan'`, `${x}.plan`, `''`],
  [`'status'`, `${x}.status`, `''`],
  [`'created'`, `''`, `substr(${x}.created_at, 1, 10)`],
];

export function overviewUsersMigration(dialect: Dialect) {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_counts')
        .addColumn('col', 'text', (c) => c.notNull())
        .addColumn('val', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_counts_pk', ['col', 'val', 'day'])
        .execute();
      // Users already there.
      for (const [c, v, d] of FACETS('x'))
        await sql
          .raw(
            `INSERT INTO user_counts (col, val, day, n) SELECT ${c}, ${v}, ${d}, count(*) FROM app_users x WHERE ${v} IS NOT NULL AND ${d} IS NOT NULL GROUP BY 2, 3`,
          )
          .execute(db);

      if (postgres) {
        await postgresStatementTriggers(
          db,
          'app_users',
          'app_users_counts',
          (rows, sign) => `
          INSERT INTO user_counts (col, val, day, n)
            SELECT f.c, f.v, f.d, ${sign}count(*) FROM ${rows} x
            CROSS JOIN LATERAL (VALUES ${FACETS('x')
              .map(([c, v, d]) => `(${c}, ${v}, ${d})`)
              .join(', ')}) AS f(c, v, d)
            WHERE f.v IS NOT NULL AND f.d IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ON CONFLICT (col, val, day) DO UPDATE SET n = user_counts.n + excluded.n;`,
        );
        await sql`CREATE INDEX app_users_name_trgm ON app_users USING gin (name gin_trgm_ops)`.execute(db);
        await sql`ANALYZE user_counts, app_users`.execute(db);
        return;
      }

      const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
        INSERT INTO user_counts (col, val, day, n)
          SELECT c, v, d, ${sign} FROM (${FACETS(alias)
            .map(([c, v, d]) => `SELECT ${c} AS c, ${v} AS v, ${d} AS d`)
            .join(' UNION ALL ')}) WHERE v IS NOT NULL AND d IS NOT NULL
          ON CONFLICT (col, val, day) DO UPDATE SET n = n + excluded.n;`;
      await sql
        .raw(`CREATE TRIGGER app_users_counts_ai AFTER INSERT ON app_users BEGIN ${apply('new', '+1')} END`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER app_users_counts_ad AFTER DELETE ON app_users BEGIN ${apply('old', '-1')} END`)
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_counts_au AFTER UPDATE OF plan, status, created_at ON app_users BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
        )
        .execute(db);

      await sql
        .raw(
          `CREATE VIRTUAL TABLE app_users_search USING fts5(email, name, content='app_users', content_rowid='id', tokenize='trigram')`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_search_ai AFTER INSERT ON app_users BEGIN
            INSERT INTO app_users_search (rowid, email, name) VALUES (new.id, new.email, new.name); END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_search_ad AFTER DELETE ON app_users BEGIN
            INSERT INTO app_users_search (app_users_search, rowid, email, name) VALUES ('delete', old.id, old.email, old.name); END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_users_search_au AFTER UPDATE OF email, name ON app_users BEGIN
            INSERT INTO app_users_search (app_users_search, rowid, email, name) VALUES ('delete', old.id, old.email, old.name);
            INSERT INTO app_users_search (rowid, email, name) VALUES (new.id, new.email, new.name); END`,
        )
        .execute(db);
      await sql.raw(`INSERT INTO app_users_search (app_users_search) VALUES ('rebuild')`).execute(db);
    },
  };
}
