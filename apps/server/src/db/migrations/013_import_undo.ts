import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/** The tables the four upload jobs write (activation_codes had `import_id` from 001). */
export const IMPORTED_TABLES = [
  'fault_codes',
  'fault_code_causes',
  'fault_code_symptoms',
  'fault_code_solutions',
  'mechanic_commands',
  'activation_codes',
] as const;

/**
 * Undo an import (issue 15 item 3):
 * - every imported table carries the id of the import that inserted each row (`import_id`, indexed:
 *   the undo deletes by it). No foreign key on the new columns: PostgreSQL would check it once per
 *   inserted row, a million lookups in a big import, and an import record is never deleted;
 * - `edited_at`, stamped by a row trigger on every UPDATE of an imported table, in whatever way it
 *   comes (a future edit screen, a hand-written statement). The undo refuses while any of the
 *   import's rows has one. Chosen over a row hash kept at import time: the trigger costs nothing on
 *   insert (imports only insert) and nothing has to be hashed or compared for a million rows;
 *   rows removed since (a later Update commands replaced them) are found by counting against
 *   `imports.rows_inserted`;
 * - `imports.rows_inserted`: rows the import's write added, set in its write transaction;
 *   `undone_at` / `undone_by`: when and by whom it was undone (status 'undone');
 * - `import_replaced_commands`: the commands an Update commands import replaced, keyed by that
 *   import's id, as they were (their ids too), so that undoing it puts them back.
 */
export function importUndoMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const table of IMPORTED_TABLES) {
        if (table !== 'activation_codes')
          await db.schema.alterTable(table).addColumn('import_id', 'integer').execute();
        await db.schema.alterTable(table).addColumn('edited_at', 'text').execute();
        await db.schema.createIndex(`${table}_import_id_idx`).on(table).column('import_id').execute();
      }
      await db.schema.alterTable('imports').addColumn('rows_inserted', 'integer').execute();
      await db.schema.alterTable('imports').addColumn('undone_at', 'text').execute();
      await db.schema.alterTable('imports').addColumn('undone_by', 'integer').execute();

      await db.schema
        .createTable('import_replaced_commands')
        .addColumn('import_id', 'integer', (c) => c.notNull())
        .addColumn('id', 'integer', (c) => c.notNull())
        .addColumn('make_id', 'integer', (c) => c.notNull())
        .addColumn('command', 'text', (c) => c.notNull())
        .addColumn('module', 'text', (c) => c.notNull())
        .addColumn('function_type', 'text', (c) => c.notNull())
        .addColumn('full_scan', 'integer', (c) => c.notNull())
        /** The replaced row's own `import_id` and `edited_at`, restored with it. */
        .addColumn('row_import_id', 'integer')
        .addColumn('edited_at', 'text')
        .execute();
      await db.schema
        .createIndex('import_replaced_commands_import_id_idx')
        .on('import_replaced_commands')
        .column('import_id')
        .execute();

      if (dialect === 'postgres') {
        await sql
          .raw(`CREATE FUNCTION "imported_row_edited"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.edited_at := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  RETURN NEW;
END $fn$`)
          .execute(db);
        for (const table of IMPORTED_TABLES) {
          await sql
            .raw(
              `CREATE TRIGGER "${table}_edited" BEFORE UPDATE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "imported_row_edited"()`,
            )
            .execute(db);
        }
      } else {
        for (const table of IMPORTED_TABLES) {
          // recursive_triggers is off: the trigger's own UPDATE does not fire it again.
          await sql
            .raw(
              `CREATE TRIGGER "${table}_edited" AFTER UPDATE ON "${table}" FOR EACH ROW WHEN NEW.edited_at IS OLD.edited_at
BEGIN UPDATE "${table}" SET edited_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = NEW.id; END`,
            )
            .execute(db);
        }
      }
    },
  };
}
