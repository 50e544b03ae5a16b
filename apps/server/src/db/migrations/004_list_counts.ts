import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Exact totals of the three activity lists at a million rows each (issue 4), kept by the
 * database itself so that no request has to count a million rows:
 * - `list_totals (tbl, col, val, n)`: rows per value of each column the lists filter on whose
 *   values are few (makes, types, countries, flags, e-mails, models…), plus `col = ''` for the
 *   whole table. A contains filter on such a column is a LIKE over its few distinct values; the
 *   total is the sum of their counts.
 * - `list_days (tbl, col, val, day, n)`: the same per day of the list's sort column for the
 *   columns of very few values, so that page 10,000 starts its walk at the right day instead of
 *   skipping 300,000 rows.
 * The end time is kept as its day (`col = 'scan_end_time'`, `val` = that day) so that
 * "end ≤ to" is a sum too. Triggers keep both tables exact in the same transaction as every
 * insert, update and delete (SQLite: per row; PostgreSQL: per statement, with transition tables).
 */
export interface CountedTable {
  /** The time column the list sorts on (descending, then id). */
  order: string;
  /** Nullable end-time column filtered with "≤", counted by its day. */
  end?: string;
  /** Columns counted per value and per day. */
  byDay: readonly string[];
  /** Columns with many values: counted per value only. */
  totalsOnly: readonly string[];
}

/**
 * Frozen history: the columns this migration counts, as they were when it was written; 007 reads
 * it. The running lists read their own declaration (`modules/operations/lists.ts`); counting
 * another column takes a new migration.
 */
export const COUNTED_TABLES = {
  scans: {
    order: 'scan_start_time',
    end: 'scan_end_time',
    byDay: ['make', 'country_id', 'type', 'app_version'],
    totalsOnly: ['email', 'model'],
  },
  special_function_runs: {
    order: 'scan_start_time',
    end: 'scan_end_time',
    byDay: [
      'make',
      'module',
      'function_type',
      'command_type',
      'item_number',
      'variant',
      'scan_ended',
      'hard_coded',
    ],
    totalsOnly: ['user_email', 'model'],
  },
  actuation_runs: {
    order: 'created_at',
    byDay: ['make', 'input', 'actuation_type', 'actuation_option'],
    totalsOnly: ['user_email', 'model', 'user_car_model_id'],
  },
} as const satisfies Record<string, CountedTable>;

export type CountedTableName = keyof typeof COUNTED_TABLES;

/** The day bucket of a time text: its first ten characters (byte order agrees with the text's). */
const dayOf = (ref: string) => `substr(${ref}, 1, 10)`;

interface Facet {
  col: string;
  /** SQL of the value, over a row alias. */
  value: (alias: string) => string;
  byDay: boolean;
}

function facetsOf(spec: CountedTable): Facet[] {
  const column = (c: string, byDay: boolean): Facet => ({
    col: c,
    value: (a) => `CAST(${a}."${c}" AS TEXT)`,
    byDay,
  });
  return [
    { col: '', value: () => `''`, byDay: true },
    ...spec.byDay.map((c) => column(c, true)),
    ...spec.totalsOnly.map((c) => column(c, false)),
    ...(spec.end ? [{ col: spec.end, value: (a: string) => dayOf(`${a}."${spec.end}"`), byDay: true }] : []),
  ];
}

const watchedColumns = (spec: CountedTable) => [
  spec.order,
  ...spec.byDay,
  ...spec.totalsOnly,
  ...(spec.end ? [spec.end] : []),
];

export function listCountsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      const count = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('list_totals')
        .addColumn('tbl', 'text', (c) => c.notNull())
        .addColumn('col', 'text', (c) => c.notNull())
        .addColumn('val', 'text', (c) => c.notNull())
        .addColumn('n', count, (c) => c.notNull())
        .addPrimaryKeyConstraint('list_totals_pk', ['tbl', 'col', 'val'])
        .execute();
      await db.schema
        .createTable('list_days')
        .addColumn('tbl', 'text', (c) => c.notNull())
        .addColumn('col', 'text', (c) => c.notNull())
        .addColumn('val', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('n', count, (c) => c.notNull())
        .addPrimaryKeyConstraint('list_days_pk', ['tbl', 'col', 'val', 'day'])
        .execute();

      for (const [table, spec] of Object.entries(COUNTED_TABLES) as [CountedTableName, CountedTable][]) {
        const facets = facetsOf(spec);
        // Rows already there (a database seeded before this migration).
        for (const f of facets) {
          const v = f.value('x');
          await sql
            .raw(
              `INSERT INTO list_totals (tbl, col, val, n) SELECT '${table}', '${f.col}', ${v}, count(*) FROM "${table}" x WHERE ${v} IS NOT NULL GROUP BY 3`,
            )
            .execute(db);
          if (f.byDay) {
            const d = dayOf(`x."${spec.order}"`);
            await sql
              .raw(
                `INSERT INTO list_days (tbl, col, val, day, n) SELECT '${table}', '${f.col}', ${v}, ${d}, count(*) FROM "${table}" x WHERE ${v} IS NOT NULL GROUP BY 3, 4`,
              )
              .execute(db);
          }
        }
        if (dialect === 'sqlite') await sqliteTriggers(db, table, spec, facets);
        else await postgresTriggers(db, table, spec, facets);
      }
      for (const [table, spec] of Object.entries(COUNTED_TABLES) as [CountedTableName, CountedTable][]) {
        // The time-order index, widened by the filter columns of many values (e-mail, model) and
        // the end time: a deep page filtered on them steps over index entries only, testing the
        // filter there, instead of fetching 100,000 table rows. It replaces 003's (time, id).
        const end = 'end' in spec && spec.end ? [spec.end] : [];
        const widened = [...spec.totalsOnly.filter((c) => !c.endsWith('_id')), ...end];
        await db.schema.dropIndex(`${table}_${spec.order}_id_ord`).execute();
        await db.schema
          .createIndex(`${table}_order_filters`)
          .on(table)
          .columns([spec.order, 'id', ...widened])
          .execute();
        if ('end' in spec && spec.end) {
          // "end ≤ to" counts the rows ending on `to`'s day per start day: (end, start) answers
          // that from the index alone. It replaces 001's (end) index.
          await db.schema.dropIndex(`${table}_${spec.end}_idx`).execute();
          await db.schema
            .createIndex(`${table}_end_order`)
            .on(table)
            .columns([spec.end, spec.order])
            .execute();
        }
      }
      if (dialect === 'postgres') {
        // ILIKE over a column's few thousand values (e-mails): trigram lookup, not a scan.
        await sql`CREATE INDEX list_totals_val_trgm ON list_totals USING gin (val gin_trgm_ops)`.execute(db);
        await sql`ANALYZE list_totals, list_days`.execute(db);
      }
    },
  };
}

async function sqliteTriggers(db: Kysely<any>, table: string, spec: CountedTable, facets: Facet[]) {
  const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => {
    const union = (fs: Facet[]) =>
      fs.map((f) => `SELECT '${f.col}' AS c, ${f.value(alias)} AS v`).join(' UNION ALL ');
    return `
      INSERT INTO list_totals (tbl, col, val, n)
        SELECT '${table}', c, v, ${sign} FROM (${union(facets)}) WHERE v IS NOT NULL
        ON CONFLICT (tbl, col, val) DO UPDATE SET n = n + excluded.n;
      INSERT INTO list_days (tbl, col, val, day, n)
        SELECT '${table}', c, v, ${dayOf(`${alias}."${spec.order}"`)}, ${sign}
        FROM (${union(facets.filter((f) => f.byDay))}) WHERE v IS NOT NULL
        ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = n + excluded.n;`;
  };
  const watched = watchedColumns(spec)
    .map((c) => `"${c}"`)
    .join(', ');
  await sql
    .raw(`CREATE TRIGGER "${table}_counts_ai" AFTER INSERT ON "${table}" BEGIN ${apply('new', '+1')} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER "${table}_counts_ad" AFTER DELETE ON "${table}" BEGIN ${apply('old', '-1')} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER "${table}_counts_au" AFTER UPDATE OF ${watched} ON "${table}" BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<any>, table: string, spec: CountedTable, facets: Facet[]) {
  // One statement's rows are summed before touching the counters: a 5,000-row insert updates
  // a few hundred counter rows once each. Sorted, so concurrent writers lock them in one order.
  const apply = (rows: 'new_rows' | 'old_rows', sign: '' | '-') => {
    const values = (fs: Facet[]) => fs.map((f) => `('${f.col}', ${f.value('x')})`).join(', ');
    const d = dayOf(`x."${spec.order}"`);
    return `
      INSERT INTO list_totals (tbl, col, val, n)
        SELECT '${table}', f.c, f.v, ${sign}count(*) FROM ${rows} x
        CROSS JOIN LATERAL (VALUES ${values(facets)}) AS f(c, v)
        WHERE f.v IS NOT NULL GROUP BY f.c, f.v ORDER BY f.c, f.v
        ON CONFLICT (tbl, col, val) DO UPDATE SET n = list_totals.n + excluded.n;
      INSERT INTO list_days (tbl, col, val, day, n)
        SELECT '${table}', f.c, f.v, ${d}, ${sign}count(*) FROM ${rows} x
        CROSS JOIN LATERAL (VALUES ${values(facets.filter((f) => f.byDay))}) AS f(c, v)
        WHERE f.v IS NOT NULL GROUP BY f.c, f.v, ${d} ORDER BY f.c, f.v, ${d}
        ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = list_days.n + excluded.n;`;
  };
  await postgresStatementTriggers(db, table, `${table}_counts`, apply);
}

/**
 * PostgreSQL: a plpgsql function `fn` that runs `apply` over a statement's old rows (minus) and
 * new rows, and the statement-level insert, delete and update triggers on `table` that call it
 * with their transition tables (007's month counts are kept the same way).
 */
export async function postgresStatementTriggers(
  db: Kysely<any>,
  table: string,
  fn: string,
  apply: (rows: 'new_rows' | 'old_rows', sign: '' | '-') => string,
) {
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
