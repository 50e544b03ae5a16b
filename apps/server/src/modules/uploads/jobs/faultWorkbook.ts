import {
  FAULT_SUMMARY_KEYS,
  FAULT_WORKBOOK_SHEETS,
  type FaultTableSummary,
  type FaultWorkbookResponse,
} from '@obd/contract';
import type { Db } from '../../../db/database.ts';
import type { ImportJob } from '../../../import/run.ts';
import type { SheetStats } from '../../../import/sheet.ts';
import { badRequest } from '../../../lib/errors.ts';
import { type Answer, findSheet, plural, sheetList } from './common.ts';
import { faultCodePlan, faultTextPlan } from './faultSheets.ts';

/** The names each of the four sheets may go by. */
const SHEET_NAMES: Record<(typeof FAULT_WORKBOOK_SHEETS)[number], string[]> = {
  fault_descriptions: ['fault_descriptions', 'fault_description', 'fault_codes'],
  causes: ['causes', 'cause'],
  symptoms: ['symptoms', 'symptom'],
  solutions: ['solutions', 'solution'],
};

/** POST /api/FaultUplodes: the four-sheet workbook → the four fault tables. No form fields. */
export const faultWorkbookJob: ImportJob<Answer<FaultWorkbookResponse>, undefined> = {
  kind: 'fault_workbook',
  accept: ['xlsx', 'xls'],
  start: () => undefined,
  plan(workbook) {
    const found = FAULT_WORKBOOK_SHEETS.map((s) => ({ s, sheet: findSheet(workbook, SHEET_NAMES[s]) }));
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
  async answer(outcome, _context, db) {
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
  const row = await db.kysely
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
