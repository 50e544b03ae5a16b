import type { Kysely } from 'kysely';

/**
 * What the import history and progress polling need beyond 001's `imports` table: the phase
 * and percentage of a running import, the rows it will write, the number of row problems
 * (only the first 100 are kept), and the earlier import of an identical file.
 */
export function importsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('imports').addColumn('phase', 'text').execute();
      await db.schema
        .alterTable('imports')
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('imports').addColumn('rows_total', 'integer').execute();
      await db.schema
        .alterTable('imports')
        .addColumn('error_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('imports')
        .addColumn('duplicate_of', 'integer', (c) => c.references('imports.id'))
        .execute();
      await db.schema.createIndex('imports_file_hash_idx').on('imports').columns(['file_hash']).execute();
      await db.schema.createIndex('imports_status_idx').on('imports').columns(['status']).execute();
    },
  };
}
