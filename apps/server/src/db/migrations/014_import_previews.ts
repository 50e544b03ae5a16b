import type { Kysely } from 'kysely';

/**
 * Issue 15, the flow around an import:
 * - a preview keeps its uploaded file for a while: where it is, until when, the form fields it
 *   came with (the commit runs the same job on it), and the figures it answered (the commit says
 *   when its own differ); `status` takes 'preview', 'cancelled' and 'expired' besides the others;
 * - every problem row of an import (up to a bound), with its cells as the file had them, for the
 *   problems file (`import_problems`; the headers of those cells per sheet in `problem_columns`);
 * - the column mappings operators gave, per kind of upload and set of file headers.
 */
export function importPreviewsMigration() {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['preview_path', 'expires_at', 'fields', 'preview_stats', 'problem_columns']) {
        await db.schema.alterTable('imports').addColumn(column, 'text').execute();
      }
      await db.schema
        .createTable('import_problems')
        .addColumn('import_id', 'integer', (c) => c.notNull().references('imports.id').onDelete('cascade'))
        .addColumn('sheet_index', 'integer', (c) => c.notNull())
        .addColumn('sheet', 'text', (c) => c.notNull())
        .addColumn('row', 'integer', (c) => c.notNull())
        .addColumn('problem', 'text', (c) => c.notNull())
        /** JSON array of the row's cells, in the order of its sheet's `problem_columns`. */
        .addColumn('cells', 'text')
        .execute();
      await db.schema
        .createIndex('import_problems_import_idx')
        .on('import_problems')
        .columns(['import_id', 'sheet_index', 'row'])
        .execute();
      await db.schema
        .createTable('import_column_mappings')
        .addColumn('kind', 'text', (c) => c.notNull())
        /** sha-256 of the sheet's headers, normalised, sorted and joined. */
        .addColumn('headers_key', 'text', (c) => c.notNull())
        .addColumn('mapping', 'text', (c) => c.notNull())
        .addColumn('operator_id', 'integer')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('import_column_mappings_pk', ['kind', 'headers_key'])
        .execute();
      await db.schema.createIndex('imports_expires_at_idx').on('imports').columns(['expires_at']).execute();
    },
  };
}
