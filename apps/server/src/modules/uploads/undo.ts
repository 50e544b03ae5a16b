import { IMPORTS_PATH, type ImportKind, importIdParamsSchema, importUndoResponseSchema } from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { currentOperator } from '../../auth/plugin.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { lockTargets } from '../../import/bulkPostgres.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { isoNow } from '../../lib/time.ts';
import { type AuditActor, actorOf, recordAudit } from '../audit/record.ts';
import { plural } from './jobs/common.ts';
import { lockMakesById, makesOfImport, restoreReplacedCommands } from './jobs/replaced.ts';

/** The tables each kind of upload writes, whose rows carry its id (migration 013). */
const TABLES: Record<ImportKind, (keyof Database & string)[]> = {
  fault_codes: ['fault_codes'],
  fault_workbook: ['fault_codes', 'fault_code_causes', 'fault_code_symptoms', 'fault_code_solutions'],
  activation_codes: ['activation_codes'],
  update_commands: ['mechanic_commands'],
};

const conflict = (message: string) => new HttpError('CONFLICT', message);

/** Why an import that is not (or no longer) 'succeeded' cannot be undone. */
function notUndoable(id: number, status: string, undoneAt: string | null): HttpError {
  if (status === 'undone')
    return conflict(
      `Import #${id} was already undone${undoneAt ? ` on ${undoneAt.slice(0, 16).replace('T', ' ')} UTC` : ''}; there is nothing left to remove.`,
    );
  if (status === 'running')
    return conflict(`Import #${id} is still running; wait for it to finish, then undo it.`);
  return conflict(`Import #${id} did not import anything (it is ${status}), so there is nothing to undo.`);
}

/**
 * Undoes an import in one transaction: removes exactly the rows carrying its id, puts back what it
 * replaced (Update commands), marks it 'undone' and records the audit event; or refuses (409),
 * changing nothing, when some of its rows were edited or removed since.
 *
 * The first statement claims the import (`status` 'succeeded' → 'undone'): on PostgreSQL it locks
 * the record's row, so a second undo waits and then finds it undone; on SQLite it makes the
 * transaction a writer at once (no read-then-upgrade). On PostgreSQL the makes whose commands it
 * restores are locked next, as Update commands locks its make, so an undo and a new replacement
 * of the same make run one after the other.
 */
export async function undoImport(db: Db, id: number, actor: AuditActor) {
  const undoneAt = isoNow();
  return db.kysely.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('imports')
      .set({ status: 'undone', undone_at: undoneAt, undone_by: actor.operatorId })
      .where('id', '=', id)
      .where('status', '=', 'succeeded')
      .executeTakeFirst();
    const record = await trx
      .selectFrom('imports')
      .select(['kind', 'status', 'undone_at', 'rows_inserted'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!record) throw notFound(`There is no import #${id}.`);
    if (Number(claimed.numUpdatedRows) === 0) throw notUndoable(id, record.status, record.undone_at);
    const kind = record.kind as ImportKind;
    if (record.rows_inserted === null) {
      throw conflict(
        `Import #${id} was made before imports recorded their rows, so it cannot be undone; remove its rows by hand if needed.`,
      );
    }
    const expected = Number(record.rows_inserted);
    // PostgreSQL: the tables locked against writers as an import locks them (before any make):
    // an undo racing a new import of the same tables waits for it, and neither can deadlock.
    if (db.dialect === 'postgres') await lockTargets(trx, TABLES[kind]);
    if (kind === 'update_commands') await lockMakesById(trx, await makesOfImport(trx, id));

    const tables = TABLES[kind];
    let removed = 0;
    for (const table of tables) {
      const result =
        await sql`delete from ${sql.table(table)} where import_id = ${id} and edited_at is null`.execute(trx);
      removed += Number(result.numAffectedRows ?? 0);
    }
    if (removed !== expected) {
      const changed = expected - removed;
      throw conflict(
        `${plural(changed, 'row')} of the ${plural(expected, 'row')} import #${id} added ${changed === 1 ? 'has' : 'have'} been edited or removed since (by a later import or by hand), so nothing was undone.`,
      );
    }
    const restored = kind === 'update_commands' ? await restoreReplacedCommands(trx, id) : 0;
    await recordAudit(trx, actor, {
      action: 'import-undone',
      target: `import #${id}`,
      details: { kind, removed, restored },
    });
    return {
      importId: id,
      removed,
      restored,
      undoneAt,
      message: `Undid import #${id}: ${plural(removed, 'row')} removed${restored ? `, ${plural(restored, 'replaced command')} put back` : ''}.`,
    };
  });
}

/** `POST /api/imports/:id/undo`: editors and admins, like the uploads. */
export function undoRoutes(app: FastifyInstance, db: Db) {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${IMPORTS_PATH}/:id/undo`,
    {
      config: { role: 'editor' },
      schema: { params: importIdParamsSchema, response: { 200: importUndoResponseSchema } },
    },
    async (request) => {
      currentOperator(request);
      return undoImport(db, request.params.id, actorOf(request));
    },
  );
}
