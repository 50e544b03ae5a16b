import {
  type ActivationCodesResponse,
  FAULT_SUMMARY_KEYS,
  FAULT_WORKBOOK_SHEETS,
  type FaultCodesResponse,
  type FaultTableSummary,
  type FaultWorkbookResponse,
  FUNCTION_TYPES,
  MAX_LISTED_DUPLICATES,
  segmentOfMake,
  UPDATE_COMMAND_MAKES,
  type UpdateCommandsResponse,
} from '@obd/contract';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../lib/errors.ts';
import { isoNow } from '../../lib/time.ts';
import { normaliseHeader } from '../columns.ts';
import { importDb } from '../record.ts';
import type { ImportJob } from '../run.ts';
import type { SheetPlan, SheetStats } from '../sheet.ts';
import { fullScanFlag, Reason, requiredText } from '../values.ts';
import type { Workbook } from '../workbook.ts';
import { faultCodePlan, faultTextPlan } from './faults.ts';

type Answer<T> = Omit<T, 'importId' | 'errors' | 'duplicateOfImportId' | 'warning'>;

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The sheet whose name matches one of `names` (case, spaces and underscores ignored). */
function findSheet(workbook: Workbook, names: string[]): string | undefined {
  const wanted = names.map(normaliseHeader);
  return workbook.sheetNames.find((s) => wanted.includes(normaliseHeader(s)));
}

const sheetList = (workbook: Workbook) => workbook.sheetNames.map((s) => `'${s}'`).join(', ');

const skipped = (s: SheetStats) => s.invalid + s.inFile + s.inDatabase;

/** A whole number of 0 or more sent as a form field, or undefined when absent. */
function companyField(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const v = raw.trim();
  if (!/^\d+$/.test(v) || Number(v) > 2147483647) {
    throw badRequest(`companyId must be a whole number of 0 or more, not '${v.slice(0, 40)}'.`);
  }
  return Number(v);
}

/** POST /api/FaultUplodes: the four-sheet workbook → the four fault tables. */
export function faultWorkbookJob(): ImportJob<Answer<FaultWorkbookResponse>> {
  return {
    kind: 'fault_workbook',
    accept: ['xlsx', 'xls'],
    plan(workbook) {
      const names: Record<(typeof FAULT_WORKBOOK_SHEETS)[number], string[]> = {
        fault_descriptions: ['fault_descriptions', 'fault_description', 'fault_codes'],
        causes: ['causes', 'cause'],
        symptoms: ['symptoms', 'symptom'],
        solutions: ['solutions', 'solution'],
      };
      const found = FAULT_WORKBOOK_SHEETS.map((s) => ({ s, sheet: findSheet(workbook, names[s]) }));
      const missing = found.filter((f) => !f.sheet).map((f) => `'${f.s}'`);
      if (missing.length > 0) {
        throw badRequest(
          `The workbook has no sheet named ${missing.join(', ')}. It needs the sheets fault_descriptions, causes, symptoms and solutions (one may be empty); its sheets are ${sheetList(workbook)}.`,
        );
      }
      return found.map(({ s, sheet }) => {
        const name = sheet as string;
        const plan = s === 'fault_descriptions' ? faultCodePlan(name, 0) : faultTextPlan(name, s);
        return { sheet: name, plan };
      });
    },
    async answer(outcome, db) {
      const summaries = Object.fromEntries(
        outcome.sheets.map(({ stats }, i) => [FAULT_SUMMARY_KEYS[i], tableSummary(stats)]),
      ) as FaultWorkbookResponse['summary'];
      const previous = await previousSpeed(db, 'fault_workbook');
      const ratio = previous ? outcome.rowsPerSecond / previous : 0;
      return {
        success: true,
        message: `Imported ${plural(outcome.inserted, 'row')} of ${plural(outcome.totalRows, 'data row')}${outcome.inserted < outcome.totalRows ? `; ${plural(outcome.totalRows - outcome.inserted, 'row')} skipped as duplicates or invalid` : ''}.`,
        stats: {
          totalRowsInserted: outcome.inserted,
          totalProcessingTime: outcome.ms,
          fileSize: outcome.fileSize,
          performance: {
            rowsPerSecond: outcome.rowsPerSecond,
            improvement: previous
              ? `${ratio.toFixed(1)}× the speed of the previous upload (${previous.toLocaleString('en-US')} rows/s)`
              : 'No earlier upload to compare with',
          },
        },
        summary: summaries,
      };
    },
  };
}

function tableSummary(s: SheetStats): FaultTableSummary {
  return {
    totalRows: s.totalRows,
    inserted: s.inserted,
    duplicates: s.inFile + s.inDatabase,
    skipped: s.invalid,
    processingTime: Math.round(s.ms),
    duplicateBreakdown: { excelDuplicates: s.inFile, databaseDuplicates: s.inDatabase },
  };
}

/** rows/s of the last successful import of a kind, for the "improvement" figure. */
async function previousSpeed(db: Db, kind: string): Promise<number | undefined> {
  const row = await importDb(db)
    .selectFrom('imports')
    .select('stats')
    .where('kind', '=', kind)
    .where('status', '=', 'succeeded')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  try {
    const speed = row?.stats ? JSON.parse(row.stats)?.performance?.rowsPerSecond : undefined;
    return typeof speed === 'number' && speed > 0 ? speed : undefined;
  } catch {
    return undefined;
  }
}

/** POST /api/faultCodes: one sheet of fault codes (the `sheetName` field, else the first sheet). */
export function faultCodesJob(fields: Record<string, string>): ImportJob<Answer<FaultCodesResponse>> {
  const fieldCompany = companyField(fields.companyId);
  let sheetName = '';
  // The company ids of the valid rows, up to two: one means the upload was for one company.
  const companies = new Set<number>();
  return {
    kind: 'fault_codes',
    accept: ['xlsx', 'xls', 'csv'],
    plan(workbook) {
      const asked = fields.sheetName?.trim();
      const sheet = asked && workbook.type !== 'csv' ? findSheet(workbook, [asked]) : workbook.sheetNames[0];
      if (!sheet)
        throw badRequest(
          `The workbook has no sheet named '${asked}'. Its sheets are ${sheetList(workbook)}.`,
        );
      sheetName = sheet;
      const base = faultCodePlan(sheet, fieldCompany ?? 0);
      const plan: SheetPlan = {
        ...base,
        parse(cell) {
          const values = base.parse(cell);
          if (!(values instanceof Reason) && companies.size < 2) companies.add(values[1] as number);
          return values;
        },
      };
      return [{ sheet, plan }];
    },
    answer(outcome) {
      const s = (outcome.sheets[0] as { stats: SheetStats }).stats;
      const company = fieldCompany ?? (companies.size === 1 ? ([...companies][0] as number) : null);
      return {
        message: `Imported ${plural(s.inserted, 'fault code')} from '${sheetName}'${skipped(s) ? `; ${plural(skipped(s), 'row')} skipped (${s.inFile + s.inDatabase} duplicates, ${s.invalid} invalid)` : ''}.`,
        stats: {
          insertedCount: s.inserted,
          skippedCount: skipped(s),
          totalRowsProcessed: s.totalRows,
          processingTimeMs: outcome.ms,
          rowsPerSecond: outcome.rowsPerSecond,
          worksheetName: sheetName,
          companyId: company,
          invalidCount: s.invalid,
          duplicates: { inFile: s.inFile, inDatabase: s.inDatabase },
        },
      };
    },
  };
}

/** POST /api/uplodeactivationcode: activation codes, unique by code. */
export function activationCodesJob(): ImportJob<Answer<ActivationCodesResponse>> {
  const fileDuplicates = new Map<string, number[]>();
  const dbDuplicates: string[] = [];
  return {
    kind: 'activation_codes',
    accept: ['xlsx', 'xls', 'csv'],
    plan(workbook) {
      const sheet =
        findSheet(workbook, ['activation codes', 'activation_codes', 'codes']) ??
        (workbook.sheetNames[0] as string);
      const plan: SheetPlan = {
        label: sheet,
        columns: [
          {
            key: 'code',
            label: 'ActivationCode',
            aliases: ['Activation Code', 'activation_code', 'code'],
            required: true,
          },
          { key: 'plan', label: 'Plan' },
          { key: 'duration', label: 'Duration' },
          { key: 'vehicle', label: 'Vehicle' },
        ],
        key: [0],
        target: {
          table: 'activation_codes',
          columns: ['code', 'plan', 'duration', 'vehicle'],
          types: ['text', 'text', 'text', 'text'],
          unique: [0],
        },
        constants: ({ importId }) => ({
          columns: ['import_id', 'created_at'],
          types: ['int4', 'text'],
          values: [importId, isoNow()],
        }),
        describe: (values) => `Code ${values[0]}`,
        parse(cell) {
          const code = requiredText(cell('code'), 'ActivationCode', 200);
          if (code instanceof Reason) return code;
          // All four are required (decisions §8): a row missing one is skipped and reported.
          const out: string[] = [code];
          for (const [key, label] of [
            ['plan', 'Plan'],
            ['duration', 'Duration'],
            ['vehicle', 'Vehicle'],
          ] as const) {
            const v = requiredText(cell(key), label, 200);
            if (v instanceof Reason) return v;
            out.push(v);
          }
          return out;
        },
        onFileDuplicate(values, row, first) {
          const code = values[0] as string;
          const rows = fileDuplicates.get(code);
          if (rows) rows.push(row);
          else if (fileDuplicates.size < MAX_LISTED_DUPLICATES) fileDuplicates.set(code, [first, row]);
        },
        onDatabaseDuplicate(values) {
          if (dbDuplicates.length < MAX_LISTED_DUPLICATES) dbDuplicates.push(values[0] as string);
        },
        moreDatabaseDuplicates: () => MAX_LISTED_DUPLICATES - dbDuplicates.length,
      };
      return [{ sheet, plan }];
    },
    history: ({ duplicates, ...rest }) => ({
      ...rest,
      duplicates: { inFile: duplicates.inFile, inDatabase: duplicates.inDatabase },
    }),
    answer(outcome) {
      const s = (outcome.sheets[0] as { stats: SheetStats }).stats;
      return {
        message: `Imported ${plural(s.inserted, 'activation code')} of ${plural(s.totalRows, 'row')}${skipped(s) ? ` (${s.inFile} repeated in the file, ${s.inDatabase} already stored, ${s.invalid} invalid)` : ''}.`,
        totalRows: s.totalRows,
        importedRows: s.inserted,
        invalidRows: s.invalid,
        duplicates: {
          inFile: s.inFile,
          inDatabase: s.inDatabase,
          fileDuplicateDetails: [...fileDuplicates].map(([code, rows]) => ({ code, rows })),
          dbDuplicateCodes: dbDuplicates,
        },
      };
    },
  };
}

const FUNCTION_TYPE_BY_NAME = new Map<string, string>(
  FUNCTION_TYPES.flatMap((f) => [
    [normaliseHeader(f.value), f.value],
    [normaliseHeader(f.label), f.value],
  ]),
);

/** POST /api/UpdatesCommands: the make's sheet replaces that make's mechanic commands. */
export function updateCommandsJob(fields: Record<string, string>): ImportJob<Answer<UpdateCommandsResponse>> {
  const asked = fields.sheetName?.trim() ?? '';
  if (!asked) throw badRequest('Sheet name is required: choose the make whose commands this file replaces.');
  const make = UPDATE_COMMAND_MAKES.find((m) => m.toLowerCase() === asked.toLowerCase());
  if (!make) {
    throw badRequest(
      `'${asked.slice(0, 60)}' is not one of the makes of the list; choose a make from the list.`,
    );
  }
  let makeId = 0;
  let deleted = 0;
  return {
    kind: 'update_commands',
    accept: ['xlsx', 'xls', 'csv'],
    plan(workbook) {
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
        constants: () => ({ columns: ['make_id'], types: ['int4'], values: [makeId] }),
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
    async beforeWrite(trx) {
      const existing = await trx.selectFrom('makes').select('id').where('name', '=', make).executeTakeFirst();
      makeId = existing
        ? existing.id
        : (
            await trx
              .insertInto('makes')
              .values({ name: make, segment: segmentOfMake(make) })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
      const result = await trx
        .deleteFrom('mechanic_commands')
        .where('make_id', '=', makeId)
        .executeTakeFirst();
      deleted = Number(result.numDeletedRows);
    },
    answer(outcome) {
      const { stats: s, sheet } = outcome.sheets[0] as { stats: SheetStats; sheet: string };
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
}
