import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { COUNTED_TABLES, type CountedTableName, postgresStatementTriggers } from './004_list_counts.ts';

/**
 * `list_totals.months`: for the filter columns of many values (e-mail, model), which 004 counts
 * per value only (per day they would take a million counter rows), each value's rows per month of
 * the list's sort time, as a JSON object `{"2026-05": 123, …}` in the value's own counter row. A
 * contains filter on them matching a third of a million scans ('gmail') used to reach page 10,000
 * by stepping over 37,000 matches from the oldest end; with the months it starts in the right
 * month and reads from that month's nearer end (`modules/operations/countedList.ts`). The months
 * arrive with the value counts the filter reads anyway: no second query, and 680 rows for 680
 * matching e-mails rather than 12,000 (value, month) rows. Kept by triggers of their own beside
 * 004's, in the same transaction as every write; both upsert the counter row, so their order
 * does not matter.
 */
/** Frozen history, like 004's `COUNTED_TABLES`; the running lists read `modules/operations/lists.ts`. */
const MONTH_COUNTED: Record<CountedTableName, readonly string[]> = {
  scans: ['email', 'model'],
  special_function_runs: ['user_email', 'model'],
  actuation_runs: ['user_email', 'model'],
};

/** The month bucket of a time text: its first seven characters ('2026-05'). */
const monthOf = (ref: string) => `substr(${ref}, 1, 7)`;

export function listMonthsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      const postgres = dialect === 'postgres';
      await db.schema
        .alterTable('list_totals')
        .addColumn('months', postgres ? 'jsonb' : 'text')
        .execute();
      if (postgres) {
        // Adds two month objects key by key (the counts of one statement into the stored ones).
        await sql
          .raw(`CREATE FUNCTION list_months_add(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $fn$
            SELECT coalesce(jsonb_object_agg(k, coalesce((a->>k)::bigint, 0) + coalesce((b->>k)::bigint, 0)), '{}'::jsonb)
            FROM (SELECT jsonb_object_keys(coalesce(a, '{}'::jsonb)) UNION SELECT jsonb_object_keys(coalesce(b, '{}'::jsonb))) AS s(k)
          $fn$`)
          .execute(db);
      }
      for (const [table, columns] of Object.entries(MONTH_COUNTED) as [CountedTableName, string[]][]) {
        const order = COUNTED_TABLES[table].order;
        for (const col of columns) {
          // Rows already there (a database seeded before this migration), grouped once.
          const perMonth = `SELECT CAST(x."${col}" AS TEXT) AS v, ${monthOf(`x."${order}"`)} AS m, count(*) AS n FROM "${table}" x WHERE x."${col}" IS NOT NULL GROUP BY 1, 2`;
          if (postgres) {
            await sql
              .raw(
                `UPDATE list_totals t SET months = a.months FROM (SELECT v, jsonb_object_agg(m, n) AS months FROM (${perMonth}) g GROUP BY v) a WHERE t.tbl = '${table}' AND t.col = '${col}' AND t.val = a.v`,
              )
              .execute(db);
          } else {
            await sql.raw('DROP TABLE IF EXISTS temp.list_months_backfill').execute(db);
            await sql
              .raw(
                `CREATE TEMP TABLE list_months_backfill AS SELECT v, json_group_object(m, n) AS months FROM (${perMonth}) GROUP BY v`,
              )
              .execute(db);
            await sql.raw('CREATE INDEX temp.list_months_backfill_v ON list_months_backfill (v)').execute(db);
            await sql
              .raw(
                `UPDATE list_totals SET months = (SELECT b.months FROM list_months_backfill b WHERE b.v = list_totals.val) WHERE tbl = '${table}' AND col = '${col}'`,
              )
              .execute(db);
            await sql.raw('DROP TABLE temp.list_months_backfill').execute(db);
          }
        }
        if (postgres) await postgresTriggers(db, table, order, columns);
        else await sqliteTriggers(db, table, order, columns);
      }
    },
  };
}

async function sqliteTriggers(db: Kysely<any>, table: string, order: string, columns: string[]) {
  const apply = (alias: 'new' | 'old', sign: 1 | -1) => {
    const month = monthOf(`${alias}."${order}"`);
    const key = `'$."' || ${month} || '"'`;
    return `
      INSERT INTO list_totals (tbl, col, val, n, months)
        SELECT '${table}', c, v, 0, json_object(${month}, ${sign})
        FROM (${columns.map((c) => `SELECT '${c}' AS c, CAST(${alias}."${c}" AS TEXT) AS v`).join(' UNION ALL ')})
        WHERE v IS NOT NULL
        ON CONFLICT (tbl, col, val) DO UPDATE SET months = json_set(coalesce(months, '{}'), ${key},
          coalesce(json_extract(months, ${key}), 0) + ${sign});`;
  };
  const watched = [order, ...columns].map((c) => `"${c}"`).join(', ');
  await sql
    .raw(`CREATE TRIGGER "${table}_months_ai" AFTER INSERT ON "${table}" BEGIN ${apply('new', 1)} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER "${table}_months_ad" AFTER DELETE ON "${table}" BEGIN ${apply('old', -1)} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER "${table}_months_au" AFTER UPDATE OF ${watched} ON "${table}" BEGIN ${apply('old', -1)} ${apply('new', 1)} END`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<any>, table: string, order: string, columns: string[]) {
  // As in 004: one statement's rows summed first (per value: its months as one object), each
  // counter row touched once, in one order.
  const apply = (rows: 'new_rows' | 'old_rows', sign: '' | '-') => {
    const m = monthOf(`x."${order}"`);
    return `
      INSERT INTO list_totals (tbl, col, val, n, months)
        SELECT '${table}', c, v, 0, jsonb_object_agg(m, d) FROM (
          SELECT f.c, f.v, ${m} AS m, ${sign}count(*) AS d FROM ${rows} x
          CROSS JOIN LATERAL (VALUES ${columns.map((c) => `('${c}', CAST(x."${c}" AS TEXT))`).join(', ')}) AS f(c, v)
          WHERE f.v IS NOT NULL GROUP BY 1, 2, 3
        ) g GROUP BY c, v ORDER BY c, v
        ON CONFLICT (tbl, col, val) DO UPDATE SET months = list_months_add(list_totals.months, excluded.months);`;
  };
  await postgresStatementTriggers(db, table, `${table}_months`, apply);
}
