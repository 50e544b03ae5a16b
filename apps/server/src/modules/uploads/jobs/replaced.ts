import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/**
 * The make's row, locked until the transaction ends on PostgreSQL (SQLite writes one transaction
 * at a time anyway): Update commands and the undo of one take it before they touch the make's
 * commands, so the two never interleave.
 */
export async function lockMake(trx: Transaction<Database>, name: string) {
  const found = await sql<{ id: number }>`select id from makes where name = ${name}${
    isPostgres(trx) ? sql` for update` : sql``
  }`.execute(trx);
  const row = found.rows[0];
  return row ? { id: Number(row.id) } : undefined;
}

/** Locks makes by id (PostgreSQL), in id order so two lockers cannot deadlock. */
export async function lockMakesById(trx: Transaction<Database>, ids: number[]) {
  if (ids.length === 0 || !isPostgres(trx)) return;
  await sql`select id from makes where id in (${sql.join(ids)}) order by id for update`.execute(trx);
}

/**
 * Copies the commands an Update commands import is about to replace into
 * `import_replaced_commands` under its id (whole rows, ids included), so its undo puts them back.
 */
export async function keepReplacedCommands(trx: Transaction<Database>, importId: number, makeId: number) {
  await trx
    .insertInto('import_replaced_commands')
    .columns([
      'import_id',
      'id',
      'make_id',
      'command',
      'module',
      'function_type',
      'full_scan',
      'row_import_id',
      'edited_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('mechanic_commands')
        .select([
          sql.lit(importId).as('import_id'),
          'id',
          'make_id',
          'command',
          'module',
          'function_type',
          'full_scan',
          'import_id as row_import_id',
          'edited_at',
        ])
        .where('make_id', '=', makeId),
    )
    .execute();
}

/** Puts back the commands an Update commands import replaced, as they were, and forgets them. */
export async function restoreReplacedCommands(trx: Transaction<Database>, importId: number) {
  const restored = await trx
    .insertInto('mechanic_commands')
    .columns(['id', 'make_id', 'command', 'module', 'function_type', 'full_scan', 'import_id', 'edited_at'])
    .expression((eb) =>
      eb
        .selectFrom('import_replaced_commands')
        .select([
          'id',
          'make_id',
          'command',
          'module',
          'function_type',
          'full_scan',
          'row_import_id',
          'edited_at',
        ])
        .where('import_id', '=', importId),
    )
    .executeTakeFirst();
  await trx.deleteFrom('import_replaced_commands').where('import_id', '=', importId).execute();
  return Number(restored.numInsertedOrUpdatedRows ?? 0);
}

/** The makes whose commands an import wrote or replaced. */
export async function makesOfImport(trx: Transaction<Database>, importId: number): Promise<number[]> {
  const rows = await sql<{
    make_id: number;
  }>`select make_id from mechanic_commands where import_id = ${importId}
    union select make_id from import_replaced_commands where import_id = ${importId}`.execute(trx);
  return rows.rows.map((r) => Number(r.make_id));
}

const isPostgres = (trx: Transaction<Database>) => trx.getExecutor().adapter instanceof PostgresAdapter;
