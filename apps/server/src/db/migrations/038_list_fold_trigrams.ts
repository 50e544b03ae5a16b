import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
// Frozen with 037: each activity table's counted e-mail column (004).
import { ADDRESS_COLUMNS } from './037_list_address_trigrams.ts';

/**
 * Issue 12 on PostgreSQL: an e-mail surname ('kumar') alone, sorted or with another filter. Its
 * plan first reads 035's folded addresses holding it (`emailFolds.ts` `foldedFacts`): ILIKE on
 * each of a table's ~20,000 folded addresses, 10–20 ms at a million runs, on every such request
 * (page 100 of 'joshi' under any sort is ~100 ms in all).
 *
 * One trigram index per activity table's folded address counts (`<email>#addresses`, a partial
 * index of ~20,000 values, ~1 MB) finds 'kumar''s 756 in under a millisecond. Writes: such a
 * counter changes only when an address gains its first row or loses its last, so a run written
 * for a known address adds no entry here. SQLite: nothing (no folded counters, 035).
 */

export function listFoldTrigramsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, column] of ADDRESS_COLUMNS)
        await sql
          .raw(
            `CREATE INDEX list_totals_${table}_${column}_folds_trgm ON list_totals USING gin (val gin_trgm_ops) WHERE tbl = '${table}' AND col = '${column}#addresses'`,
          )
          .execute(db);
    },
  };
}
