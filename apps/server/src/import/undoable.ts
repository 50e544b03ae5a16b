import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Records how many rows an import's write added, last in its write transaction (just before its
 * audit event), so the record's row is locked only for the moment before the commit. Its undo
 * (`modules/uploads/undo.ts`) removes the rows carrying the import's id and refuses unless
 * exactly this many are there, unedited.
 */
export async function recordInsertedRows(trx: Transaction<Database>, importId: number, rows: number) {
  await trx.updateTable('imports').set({ rows_inserted: rows }).where('id', '=', importId).execute();
}
