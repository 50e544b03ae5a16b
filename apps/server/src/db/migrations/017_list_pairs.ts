import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import {
  COUNTED_TABLES,
  type CountedTable,
  type CountedTableName,
  postgresStatementTriggers,
} from './004_list_counts.ts';

/**
 * Issue 12 item 1, filters together with exact totals: `list_pairs (tbl, a, b, av, bv, n)`, the
 * rows per pair of values of two counted columns of an activity table (`a` < `b` by name) — the
 * counter vectors of 004 one dimension up. Two filters on counted columns (make and country,
 * e-mail and make…) total as the sum over the pairs of their matching values, instead of a count
 * over every row that matches one of them (1.9–2.6 s at a million scans). Kept by triggers beside
 * 004's and 007's, in the same transaction as every write.
 */
/** Frozen history: the columns paired, as counted by 004 when this was written. */
const PAIRED: Record<CountedTableName, readonly string[]> = Object.fromEntries(
  Object.entries(COUNTED_TABLES).map(([t, s]) => [t, [...s.byDay, ...s.totalsOnly].sort()]),
) as unknown as Record<CountedTableName, readonly string[]>;

/** Frozen: the counted columns the activity lists filter by contains, counted per day by 004. */
const CONTAINS_BY_DAY: Record<CountedTableName, readonly string[]> = {
  scans: ['make', 'type', 'app_version'],
  special_function_runs: ['make', 'module', 'function_type', 'command_type', 'variant'],
  actuation_runs: ['make', 'input', 'actuation_type', 'actuation_option'],
};

const pairsOf = (columns: readonly string[]) =>
  columns.flatMap((a, i) => columns.slice(i + 1).map((b) => [a, b] as const));

const text = (alias: string, c: string) => `CAST(${alias}."${c}" AS TEXT)`;

export function listPairsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      const postgres = dialect === 'postgres';
      await db.schema
        .createTable('list_pairs')
        .addColumn('tbl', 'text', (c) => c.notNull())
        .addColumn('a', 'text', (c) => c.notNull())
        .addColumn('b', 'text', (c) => c.notNull())
        .addColumn('av', 'text', (c) => c.notNull())
        .addColumn('bv', 'text', (c) => c.notNull())
        .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('list_pairs_pk', ['tbl', 'a', 'b', 'av', 'bv'])
        .execute();
      for (const [table, columns] of Object.entries(PAIRED) as [CountedTableName, string[]][]) {
        const pairs = pairsOf(columns);
        // Rows already there, one grouping per pair.
        for (const [a, b] of pairs)
          await sql
            .raw(
              `INSERT INTO list_pairs (tbl, a, b, av, bv, n) SELECT '${table}', '${a}', '${b}', ${text('x', a)}, ${text('x', b)}, count(*) FROM "${table}" x WHERE x."${a}" IS NOT NULL AND x."${b}" IS NOT NULL GROUP BY 4, 5`,
            )
            .execute(db);
        const union = (alias: string) =>
          pairs
            .map(
              ([a, b]) => `SELECT '${a}' AS a, '${b}' AS b, ${text(alias, a)} AS av, ${text(alias, b)} AS bv`,
            )
            .join(' UNION ALL ');
        if (!postgres) {
          const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
            INSERT INTO list_pairs (tbl, a, b, av, bv, n)
              SELECT '${table}', a, b, av, bv, ${sign} FROM (${union(alias)})
              WHERE av IS NOT NULL AND bv IS NOT NULL
              ON CONFLICT (tbl, a, b, av, bv) DO UPDATE SET n = n + excluded.n;`;
          const watched = columns.map((c) => `"${c}"`).join(', ');
          await sql
            .raw(
              `CREATE TRIGGER "${table}_pairs_ai" AFTER INSERT ON "${table}" BEGIN ${apply('new', '+1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_pairs_ad" AFTER DELETE ON "${table}" BEGIN ${apply('old', '-1')} END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER "${table}_pairs_au" AFTER UPDATE OF ${watched} ON "${table}" BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
            )
            .execute(db);
        } else {
          const values = pairs
            .map(([a, b]) => `('${a}', '${b}', ${text('x', a)}, ${text('x', b)})`)
            .join(', ');
          await postgresStatementTriggers(
            db,
            table,
            `${table}_pairs`,
            (rows, sign) => `
            INSERT INTO list_pairs (tbl, a, b, av, bv, n)
              SELECT '${table}', p.a, p.b, p.av, p.bv, ${sign}count(*) FROM ${rows} x
              CROSS JOIN LATERAL (VALUES ${values}) AS p(a, b, av, bv)
              WHERE p.av IS NOT NULL AND p.bv IS NOT NULL
              GROUP BY p.a, p.b, p.av, p.bv ORDER BY p.a, p.b, p.av, p.bv
              ON CONFLICT (tbl, a, b, av, bv) DO UPDATE SET n = list_pairs.n + excluded.n;`,
          );
        }
      }
      if (!postgres)
        // SQLite: a (value, time) index for each counted column filtered by contains (the exact
        // ones have 001's), so that a value within a date range, or a value's rows newest first,
        // is one index range (`countPlan.ts` countedValuesWhere).
        for (const [table, spec] of Object.entries(COUNTED_TABLES) as [CountedTableName, CountedTable][])
          for (const column of CONTAINS_BY_DAY[table])
            await sql
              .raw(`CREATE INDEX "${table}_${column}_order" ON "${table}" ("${column}", "${spec.order}")`)
              .execute(db);
      if (postgres) await sql`ANALYZE list_pairs`.execute(db);
    },
  };
}
