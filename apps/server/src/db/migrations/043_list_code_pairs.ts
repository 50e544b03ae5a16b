import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12 item 1 at 3,000,000 scans: `list_code_pairs (dtc, col, val, n)`, the scans reporting a
 * fault code per value of another filter of the scans list — country, make, type, app version,
 * the end time by its day (`scan_end_time`), and the e-mail by its domain (`email@`, 027's split:
 * after the first '@', addresses holding one only). A fault code with one of those filters was
 * totalled by a count over every scan reporting the code (P0300: 18,000 at a million scans,
 * 54,000 at three; 14 → 44 ms for the count alone, the case over 1.5× its million-row figure);
 * the total is now a sum over a handful of counter rows, whatever the table's size.
 *
 * Kept by triggers on `scans` from the scan's own decoded array (011's reading of the codes: the
 * same distinct codes `scan_dtcs` holds), in the same transaction as every insert, update and
 * delete. Not on `scan_dtcs`: 011's triggers rewrite a scan's codes after its row has changed, so
 * a code's removal there can no longer see the values it was counted under.
 */

/** Frozen: the counted facets of a scan `x` — the counter column and the SQL of its value. */
function facets(dialect: Dialect, x: string): [string, string][] {
  const at = dialect === 'postgres' ? `strpos(${x}.email, '@')` : `instr(${x}.email, '@')`;
  return [
    ['country_id', `CAST(${x}.country_id AS TEXT)`],
    ['make', `CAST(${x}.make AS TEXT)`],
    ['type', `CAST(${x}.type AS TEXT)`],
    ['app_version', `CAST(${x}.app_version AS TEXT)`],
    ['scan_end_time', `substr(${x}.scan_end_time, 1, 10)`],
    ['email@', `CASE WHEN ${at} > 0 THEN substr(${x}.email, ${at} + 1) END`],
  ];
}

/** Frozen: 011's SQLite reading of a decoded array's distinct codes (`dtc`). */
const sqliteCodes = (doc: string) => `SELECT DISTINCT upper(trim(f.key)) AS dtc FROM
  json_each(CASE WHEN json_valid(${doc}) THEN CASE WHEN json_type(${doc}) = 'array' THEN ${doc} ELSE '[]' END ELSE '[]' END) e,
  json_each(CASE WHEN e.type = 'object' THEN CASE WHEN json_type(e.value, '$.decodedFaultArray') = 'object'
    THEN json_extract(e.value, '$.decodedFaultArray') ELSE '{}' END ELSE '{}' END) f
  WHERE f.key IS NOT NULL AND trim(f.key) <> '' AND length(f.key) <= 40`;

const WATCHED = ['decoded_array', 'country_id', 'make', 'type', 'app_version', 'scan_end_time', 'email'];

export function listCodePairsMigration(dialect: Dialect) {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('list_code_pairs')
        .addColumn('dtc', 'text', (c) => c.notNull())
        .addColumn('col', 'text', (c) => c.notNull())
        .addColumn('val', 'text', (c) => c.notNull())
        .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('list_code_pairs_pk', ['dtc', 'col', 'val'])
        .execute();
      // Scans already there: their codes are in scan_dtcs. One pass over the wide scan rows (a
      // scan's JSON is kilobytes) into a narrow copy, then one grouping per facet.
      const list = facets(dialect, 'x');
      await sql
        .raw(
          `CREATE TEMP TABLE code_facets AS SELECT d.dtc, ${list.map(([, value], i) => `${value} AS v${i}`).join(', ')}
             FROM scan_dtcs d JOIN scans x ON x.id = d.scan_id`,
        )
        .execute(db);
      for (const [i, [col]] of list.entries())
        await sql
          .raw(
            `INSERT INTO list_code_pairs (dtc, col, val, n)
               SELECT dtc, '${col}', v${i}, count(*) FROM code_facets WHERE v${i} IS NOT NULL GROUP BY dtc, v${i}`,
          )
          .execute(db);
      await sql.raw('DROP TABLE code_facets').execute(db);
      const upsert = 'ON CONFLICT (dtc, col, val) DO UPDATE SET n = list_code_pairs.n + excluded.n';
      if (postgres) {
        const values = facets(dialect, 'x')
          .map(([col, value]) => `('${col}', ${value})`)
          .join(', ');
        // scan_dtc_codes is 011's function, the one its triggers fill scan_dtcs with.
        await postgresStatementTriggers(
          db,
          'scans',
          'scans_code_pairs',
          (rows, sign) => `
            INSERT INTO list_code_pairs (dtc, col, val, n)
              SELECT c, f.col, f.val, ${sign}count(*) FROM ${rows} x
              CROSS JOIN LATERAL scan_dtc_codes(x.decoded_array) c
              CROSS JOIN LATERAL (VALUES ${values}) AS f(col, val)
              WHERE f.val IS NOT NULL
              GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
              ${upsert};`,
        );
        await sql`ANALYZE list_code_pairs`.execute(db);
        return;
      }
      const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
        INSERT INTO list_code_pairs (dtc, col, val, n)
          SELECT c.dtc, f.col, f.val, ${sign} FROM (${sqliteCodes(`${alias}.decoded_array`)}) c,
            (${facets(dialect, alias)
              .map(([col, value]) => `SELECT '${col}' AS col, ${value} AS val`)
              .join(' UNION ALL ')}) f
          WHERE f.val IS NOT NULL
          ${upsert};`;
      await sql
        .raw(`CREATE TRIGGER scans_code_pairs_ai AFTER INSERT ON scans BEGIN ${apply('new', '+1')} END`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER scans_code_pairs_ad AFTER DELETE ON scans BEGIN ${apply('old', '-1')} END`)
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER scans_code_pairs_au AFTER UPDATE OF ${WATCHED.join(', ')} ON scans BEGIN ${apply('old', '-1')} ${apply('new', '+1')} END`,
        )
        .execute(db);
    },
  };
}
