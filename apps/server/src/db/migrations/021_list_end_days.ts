import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12 item 1, "end ≤ to" with another filter: `list_end_days (tbl, col, val, day, n)`, the
 * rows per value of each counted column per day of their END time — 004's list_days counts them
 * per day of the start time, which cannot total "make = Toyota and end ≤ to" without reading most
 * of the time-order index (0.2–3.5 s at 730,000 scans). A value within an end bound is then a sum
 * over the days before `to`'s day plus the few rows ending within that day.
 *
 * Columns of few values (makes, types, countries, versions, flags) are kept per end day
 * (`YYYY-MM-DD`); columns of many values (e-mail, model) per end month (`YYYY-MM`), or they would
 * hold about a counter row per table row; their part-month at `to` is counted from the end-time
 * index, widened here by those two columns so that count reads no table row. Rows with no end time
 * are not counted (they match no "end ≤ to"). Kept by triggers in the same transaction as every
 * write (SQLite per row, PostgreSQL per statement with transition tables), like 004's.
 */

/** Frozen history: the tables with an end time and their columns, as 004 counted them. */
const ENDED = {
  scans: {
    order: 'scan_start_time',
    end: 'scan_end_time',
    byDay: ['make', 'country_id', 'type', 'app_version'],
    byMonth: ['email', 'model'],
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
    byMonth: ['user_email', 'model'],
  },
} as const;

const text = (alias: string, c: string) => `CAST(${alias}."${c}" AS TEXT)`;

/** (col, val, bucket) of each counted column of a row `alias`. */
function facets(spec: (typeof ENDED)[keyof typeof ENDED], alias: string) {
  const end = `${alias}."${spec.end}"`;
  return [
    ...spec.byDay.map((c) => [c, text(alias, c), `substr(${end}, 1, 10)`] as const),
    ...spec.byMonth.map((c) => [c, text(alias, c), `substr(${end}, 1, 7)`] as const),
  ];
}

export function listEndDaysMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      const postgres = dialect === 'postgres';
      await db.schema
        .createTable('list_end_days')
        .addColumn('tbl', 'text', (c) => c.notNull())
        .addColumn('col', 'text', (c) => c.notNull())
        .addColumn('val', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('list_end_days_pk', ['tbl', 'col', 'val', 'day'])
        .execute();
      for (const [table, spec] of Object.entries(ENDED)) {
        // Rows already there, one grouping per column.
        for (const [col, val, bucket] of facets(spec, 'x'))
          await sql
            .raw(
              `INSERT INTO list_end_days (tbl, col, val, day, n) SELECT '${table}', '${col}', ${val}, ${bucket}, count(*) FROM "${table}" x WHERE ${val} IS NOT NULL AND x."${spec.end}" IS NOT NULL GROUP BY 3, 4`,
            )
            .execute(db);
        if (!postgres) {
          const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
            INSERT INTO list_end_days (tbl, col, val, day, n)
              SELECT '${table}', c, v, d, ${sign} FROM (${facets(spec, alias)
                .map(([c, v, d]) => `SELECT '${c}' AS c, ${v} AS v, ${d} AS d`)
                .join(' UNION ALL ')})
              WHERE v IS NOT NULL AND d IS NOT NULL
              ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = n + excluded.n;`;
          const watched = [spec.end, ...spec.byDay, ...spec.byMonth].map((c) => `"${c}"`).join(', ');
          await sql
            .raw(
              `CREATE TRIGGER "${table}_ends_ai" AFTER INSERT ON "${table}" BEGIN ${apply('new', '+1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_ends_ad" AFTER DELETE ON "${table}" BEGIN ${apply('old', '-1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_ends_au" AFTER UPDATE OF ${watched} ON "${table}" BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
            )
            .execute(db);
        } else {
          const values = facets(spec, 'x')
            .map(([c, v, d]) => `('${c}', ${v}, ${d})`)
            .join(', ');
          await postgresStatementTriggers(
            db,
            table,
            `${table}_ends`,
            (rows, sign) => `
            INSERT INTO list_end_days (tbl, col, val, day, n)
              SELECT '${table}', f.c, f.v, f.d, ${sign}count(*) FROM ${rows} x
              CROSS JOIN LATERAL (VALUES ${values}) AS f(c, v, d)
              WHERE f.v IS NOT NULL AND f.d IS NOT NULL
              GROUP BY f.c, f.v, f.d ORDER BY f.c, f.v, f.d
              ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = list_end_days.n + excluded.n;`,
          );
        }
        // The part-month of an e-mail or model before `to`: the end-time index holds them, so it
        // is counted from the index alone. It replaces 004's (end, start), which it still serves.
        await db.schema.dropIndex(`${table}_end_order`).execute();
        await db.schema
          .createIndex(`${table}_end_filters`)
          .on(table)
          .columns([spec.end, spec.order, ...spec.byMonth])
          .execute();
      }
      if (postgres) await sql`ANALYZE list_end_days`.execute(db);
    },
  };
}
