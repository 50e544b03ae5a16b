import {
  FUNCTION_TYPES,
  segmentOfMake,
  UPDATE_COMMAND_MAKES,
  type UpdateCommandMake,
  type UpdateCommandsResponse,
} from '@obd/contract';
import { normaliseHeader } from '../../../import/columns.ts';
import type { ImportJob } from '../../../import/run.ts';
import type { SheetPlan } from '../../../import/sheet.ts';
import { fullScanFlag, Reason, requiredText } from '../../../import/values.ts';
import { badRequest } from '../../../lib/errors.ts';
import { type Answer, findSheet, onlySheet, plural, sheetList, skipped } from './common.ts';
import { keepReplacedCommands, lockMake } from './replaced.ts';

/** The make whose commands the upload replaces, and what the write step learns of it. */
interface UpdateCommandsContext {
  make: UpdateCommandMake;
  /** Set before the rows are written: the make's id (created if new). */
  makeId: number;
  /** Set before the rows are written: how many old commands were removed. */
  deleted: number;
}

const FUNCTION_TYPE_BY_NAME = new Map<string, string>(
  FUNCTION_TYPES.flatMap((f) => [
    [normaliseHeader(f.value), f.value],
    [normaliseHeader(f.label), f.value],
  ]),
);

/** POST /api/UpdatesCommands: the make's sheet (form field `sheetName`) replaces that make's mechanic commands. */
export const updateCommandsJob: ImportJob<Answer<UpdateCommandsResponse>, UpdateCommandsContext> = {
  kind: 'update_commands',
  accept: ['xlsx', 'xls', 'csv'],
  start(fields) {
    const asked = fields.sheetName?.trim() ?? '';
    if (!asked)
      throw badRequest('Sheet name is required: choose the make whose commands this file replaces.');
    const make = UPDATE_COMMAND_MAKES.find((m) => m.toLowerCase() === asked.toLowerCase());
    if (!make) {
      throw badRequest(
        `'${asked.slice(0, 60)}' is not one of the makes of the list; choose a make from the list.`,
      );
    }
    return { make, makeId: 0, deleted: 0 };
  },
  plan(workbook, context) {
    const { make } = context;
    const sheet = workbook.type === 'csv' ? workbook.sheetNames[0] : findSheet(workbook, [make]);
    if (!sheet) {
      throw badRequest(`The workbook has no sheet named '${make}'. Its sheets are ${sheetList(workbook)}.`);
    }
    const plan: SheetPlan = {
      label: sheet,
      columns: [
        { key: 'command', label: 'command', required: true },
        { key: 'module', label: 'module', required: true },
        { key: 'function_type', label: 'function_type', aliases: ['Function'], required: true },
        { key: 'full_scan', label: 'full_scan' },
      ],
      key: [0, 1, 2],
      target: {
        table: 'mechanic_commands',
        columns: ['command', 'module', 'function_type', 'full_scan'],
        types: ['text', 'text', 'text', 'int4'],
      },
      // Read when the rows are written, after beforeWrite has found or made the make.
      constants: () => ({ columns: ['make_id'], types: ['int4'], values: [context.makeId] }),
      describe: (values) => `${values[0]} (${values[1]}, ${values[2]})`,
      parse(cell) {
        const command = requiredText(cell('command'), 'command', 1000);
        if (command instanceof Reason) return command;
        const module = requiredText(cell('module'), 'module', 200);
        if (module instanceof Reason) return module;
        const type = requiredText(cell('function_type'), 'function_type', 100);
        if (type instanceof Reason) return type;
        const functionType = FUNCTION_TYPE_BY_NAME.get(normaliseHeader(type));
        if (!functionType) {
          return new Reason(
            `function_type must be one of ${FUNCTION_TYPES.map((f) => f.value).join(', ')}, not '${type.slice(0, 40)}'`,
          );
        }
        const fullScan = fullScanFlag(cell('full_scan'));
        if (fullScan instanceof Reason) return fullScan;
        return [command, module, functionType, fullScan];
      },
    };
    return [{ sheet, plan }];
  },
  async beforeWrite(trx, context, importId) {
    const { make } = context;
    // The make's row locked (PostgreSQL) until the commit: an undo restoring this make's commands
    // (`undo.ts` takes the same lock) either ends before this reads the commands it replaces, or
    // waits for this import; never both replacing at once.
    const existing = await lockMake(trx, make);
    context.makeId = existing
      ? existing.id
      : (
          await trx
            .insertInto('makes')
            .values({ name: make, segment: segmentOfMake(make) })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
    await keepReplacedCommands(trx, importId, context.makeId);
    const result = await trx
      .deleteFrom('mechanic_commands')
      .where('make_id', '=', context.makeId)
      .executeTakeFirst();
    context.deleted = Number(result.numDeletedRows);
  },
  answer(outcome, { make, deleted }) {
    const { stats: s, sheet } = onlySheet(outcome);
    return {
      message: `Replaced the commands of ${make}: ${plural(s.inserted, 'command')} imported, ${plural(deleted, 'old command')} removed${skipped(s) ? `, ${plural(skipped(s), 'row')} skipped` : ''}.`,
      stats: {
        totalRowsProcessed: s.totalRows,
        insertedCount: s.inserted,
        skippedCount: skipped(s),
        deletedCount: deleted,
        processingTimeMs: outcome.ms,
        rowsPerSecond: outcome.rowsPerSecond,
        fileName: outcome.fileName,
        fileSize: outcome.fileSize,
        sheetName: sheet,
        invalidCount: s.invalid,
        duplicateCount: s.inFile,
      },
    };
  },
};
