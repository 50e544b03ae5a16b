import type { FaultCodesResponse } from '@obd/contract';
import type { ImportJob } from '../../../import/run.ts';
import type { SheetPlan } from '../../../import/sheet.ts';
import { Reason } from '../../../import/values.ts';
import { badRequest } from '../../../lib/errors.ts';
import { type Answer, findSheet, onlySheet, plural, sheetList, skipped } from './common.ts';
import { faultCodePlan } from './faultSheets.ts';

/** What the fault-code upload carries from its form fields through reading to its answer. */
interface FaultCodesContext {
  /** The `sheetName` field, if any: the sheet to read instead of the first. */
  askedSheet: string | undefined;
  /** The `companyId` field: the company of rows that name none. */
  fieldCompany: number | undefined;
  /** The company ids of the valid rows, up to two: one means the upload was for one company. */
  companies: Set<number>;
}

/** A whole number of 0 or more sent as a form field, or undefined when absent. */
function companyField(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const v = raw.trim();
  if (!/^\d+$/.test(v) || Number(v) > 2147483647) {
    throw badRequest(`companyId must be a whole number of 0 or more, not '${v.slice(0, 40)}'.`);
  }
  return Number(v);
}

/** POST /api/faultCodes: one sheet of fault codes (the `sheetName` field, else the first sheet). */
export const faultCodesJob: ImportJob<Answer<FaultCodesResponse>, FaultCodesContext> = {
  kind: 'fault_codes',
  accept: ['xlsx', 'xls', 'csv'],
  start: (fields) => ({
    askedSheet: fields.sheetName?.trim() || undefined,
    fieldCompany: companyField(fields.companyId),
    companies: new Set(),
  }),
  plan(workbook, context) {
    const { askedSheet } = context;
    const sheet =
      askedSheet && workbook.type !== 'csv' ? findSheet(workbook, [askedSheet]) : workbook.sheetNames[0];
    if (!sheet)
      throw badRequest(
        `The workbook has no sheet named '${askedSheet}'. Its sheets are ${sheetList(workbook)}.`,
      );
    const base = faultCodePlan(sheet, context.fieldCompany ?? 0);
    const plan: SheetPlan = {
      ...base,
      parse(cell, row) {
        const values = base.parse(cell, row);
        if (!(values instanceof Reason) && context.companies.size < 2)
          context.companies.add(values[1] as number);
        return values;
      },
    };
    return [{ sheet, plan }];
  },
  answer(outcome, { fieldCompany, companies }) {
    const { sheet, stats: s } = onlySheet(outcome);
    const company = fieldCompany ?? (companies.size === 1 ? ([...companies][0] as number) : null);
    return {
      message: `Imported ${plural(s.inserted, 'fault code')} from '${sheet}'${skipped(s) ? `; ${plural(skipped(s), 'row')} skipped (${s.inFile + s.inDatabase} duplicates, ${s.invalid} invalid)` : ''}.`,
      stats: {
        insertedCount: s.inserted,
        skippedCount: skipped(s),
        totalRowsProcessed: s.totalRows,
        processingTimeMs: outcome.ms,
        rowsPerSecond: outcome.rowsPerSecond,
        worksheetName: sheet,
        companyId: company,
        invalidCount: s.invalid,
        duplicates: { inFile: s.inFile, inDatabase: s.inDatabase },
      },
    };
  },
};
