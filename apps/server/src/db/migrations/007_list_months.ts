import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { COUNTED_TABLES, type CountedTableName } from './004_list_counts.ts';

/**
 * `list_months (tbl, col, val, month, n)`: the rows per value and month of the list's sort time,
 * for the filter columns of many values (e-mail, model) that 004 counts per value only (per day
 * they would take a million counter rows). A contains filter on them matching a third of a
 * million scans ('gmail') used to reach page 10,000 by stepping over 37,000 matches from the
 * oldest end; with the month counts it starts in the right month and reads from that month's
 * nearer end (`modules/operations/countedList.ts`). Kept by triggers of their own beside 004's,
 * in the same transaction as every write.
 */
export const MONTH_COUNTED: Record<CountedTableName, readonly string[]> = {
  scans: ['email', 'model'],
  special_function_runs: ['user_email', 'model'],
  actuation_runs: ['user_email', 'model'],
};

/** The month bucket of a time text: its first seven characters ('2026-05'). */
const monthOf = (ref: string) => `substr(${ref}, 1, 7)`;

export function listMonthsMigration(dialect: Dialect) {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('list_months')
        .addColumn('tbl', 'text', (c) => c.notNull())
        .addColumn('col', 'text', (c) => c.notNull())
        .addColumn('val', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('n', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('list_months_pk', ['tbl', 'col', 'val', 'month'])
        .execute();
      for (const [table, columns] of Object.entries(MONTH_COUNTED) as [CountedTableName, string[]][]) {
        const order = COUNTED_TABLES[table].order;
        for (const col of columns) {
          // Rows already there (a database seeded before this migration).
          await sql
            .raw(
              `INSERT INTO list_months (tbl, col, val, month, n) SELECT '${table}', '${col}', CAST(x."${col}" AS TEXT), ${monthOf(`x."${order}"`)}, count(*) FROM "${table}" x WHERE x."${col}" IS NOT NULL GROUP BY 3, 4`,
            )
            .execute(db);
        }
        if (dialect === 'sqlite') await sqliteTriggers(db, table, order, columns);
        else await postgresTriggers(db, table, order, columns);
      }
      if (dialect === 'postgres') await sql`ANALYZE list_months`.execute(db);
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: as above
async function sqliteTriggers(db: Kysely<any>, table: string, order: string, columns: string[]) {
  const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
      INSERT INTO list_months (tbl, col, val, month, n)
        SELECT '${table}', c, v, ${monthOf(`${alias}."${order}"`)}, ${sign}
        FROM (${columns.map((c) => `SELECT '${c}' AS c, CAST(${alias}."${c}" AS TEXT) AS v`).join(' UNION ALL ')})
        WHERE v IS NOT NULL
        ON CONFLICT (tbl, col, val, month) DO UPDATE SET n = n + excluded.n;`;
  const watched = [order, ...columns].map((c) => `"${c}"`).join(', ');
  await sql
    .raw(`CREATE TRIGGER "${table}_months_ai" AFTER INSERT ON "${table}" BEGIN ${apply('new', '+1')} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER "${table}_months_ad" AFTER DELETE ON "${table}" BEGIN ${apply('old', '-1')} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER "${table}_months_au" AFTER UPDATE OF ${watched} ON "${table}" BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
    )
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: as above
async function postgresTriggers(db: Kysely<any>, table: string, order: string, columns: string[]) {
  // As in 004: one statement's rows summed first, counter rows touched once each, in one order.
  const apply = (rows: 'new_rows' | 'old_rows', sign: '' | '-') => {
    const m = monthOf(`x."${order}"`);
    return `
      INSERT INTO list_months (tbl, col, val, month, n)
        SELECT '${table}', f.c, f.v, ${m}, ${sign}count(*) FROM ${rows} x
        CROSS JOIN LATERAL (VALUES ${columns.map((c) => `('${c}', CAST(x."${c}" AS TEXT))`).join(', ')}) AS f(c, v)
        WHERE f.v IS NOT NULL GROUP BY f.c, f.v, ${m} ORDER BY f.c, f.v, ${m}
        ON CONFLICT (tbl, col, val, month) DO UPDATE SET n = list_months.n + excluded.n;`;
  };
  const fn = `${table}_months`;
  await sql
    .raw(`CREATE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${apply('old_rows', '-')} END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${apply('new_rows', '')} END IF;
      RETURN NULL;
    END $fn$`)
    .execute(db);
  for (const [suffix, event, referencing] of [
    ['ai', 'INSERT', 'NEW TABLE AS new_rows'],
    ['ad', 'DELETE', 'OLD TABLE AS old_rows'],
    ['au', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ] as const) {
    await sql
      .raw(
        `CREATE TRIGGER "${fn}_${suffix}" AFTER ${event} ON "${table}" REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"()`,
      )
      .execute(db);
  }
}
