import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { SORTED } from './015_sort_indexes.ts';

/**
 * Frozen: per activity list, its time column and what its sort indexes (015's, for each of its
 * `SORTED` columns but the time column) carry beside their key. The time column (the start bound,
 * the most common filter with a sort) on all three; on the scans also its short counted columns —
 * country, make, type, app version (13 bytes a row on average) — which its sort benchmark
 * filters by. The long ones (e-mail, model, plate) are left out: they would double each index,
 * and their walks test ids against the matches instead (`sortedList.ts`).
 */
const CARRIED: Record<string, { time: string; include: string[] }> = {
  scans: {
    time: 'scan_start_time',
    include: ['scan_start_time', 'country_id', 'make', 'type', 'app_version'],
  },
  special_function_runs: { time: 'scan_start_time', include: ['scan_start_time'] },
  actuation_runs: { time: 'created_at', include: ['created_at'] },
};

/** Frozen: the lists whose "ended" index 042 replaced by one carrying the end time. */
const ENDED_WITH_END = new Set(['scans', 'special_function_runs']);

/**
 * Issue 12 item 2, PostgreSQL: a sorted page with a filter on another column walks the sort
 * index and tests each entry's row — a heap page per entry. E-mail ascending since 1 May, page
 * 100, walks 26,349 entries of (email, id) and read 24,379 heap pages on every run (the pages it
 * visits, ~190 MB, do not fit a default 128 MB `shared_buffers`): 95–160 ms. Carrying the tested
 * columns in the index answers the same walk from the index alone (5 ms). The key and its order
 * are 015's (read back from the index itself, NULLS clause included), so every sorted read is
 * unchanged; the index is rebuilt beside the old one, which is then dropped, and takes its name.
 * SQLite: unchanged — its walks read the table's own b-tree.
 */
export function sortWalksIndexOnlyMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, { time, include }] of Object.entries(CARRIED)) {
        for (const column of SORTED[table] ?? []) {
          if (column === time) continue;
          const ended = column === 'scan_ended' && ENDED_WITH_END.has(table);
          const name = `${table}_sort_${ended ? 'scan_ended_end' : column}`;
          // 042's "ended" index already carries the end time.
          const carried = ended ? ['scan_end_time', ...include] : include;
          const { rows } = await sql<{ def: string }>`
            SELECT pg_get_indexdef(to_regclass(${name})) AS def`.execute(db);
          // "CREATE INDEX … USING btree (vin NULLS FIRST, id)": the key with its order, and the id.
          const key = /USING btree \(([^()]+)\)/.exec(rows[0]?.def ?? '')?.[1];
          if (!key) throw new Error(`044: the sort index ${name} is missing`);
          await sql
            .raw(`CREATE INDEX ${name}_044 ON ${table} (${key}) INCLUDE (${carried.join(', ')})`)
            .execute(db);
          await sql.raw(`DROP INDEX ${name}`).execute(db);
          await sql.raw(`ALTER INDEX ${name}_044 RENAME TO ${name}`).execute(db);
        }
      }
    },
  };
}
