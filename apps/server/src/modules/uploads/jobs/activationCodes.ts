import { type ActivationCodesResponse, MAX_LISTED_DUPLICATES } from '@obd/contract';
import type { ImportJob } from '../../../import/run.ts';
import type { SheetPlan } from '../../../import/sheet.ts';
import { Reason, requiredText } from '../../../import/values.ts';
import { isoNow } from '../../../lib/time.ts';
import { type Answer, findSheet, onlySheet, plural, skipped } from './common.ts';

/** The duplicates the answer lists, gathered while the rows are checked. */
interface ActivationCodesContext {
  /** Code → the file rows it stands on (the first listed ones only). */
  fileDuplicates: Map<string, number[]>;
  /** Codes already stored (the first listed ones only). */
  dbDuplicates: string[];
}

/** POST /api/uplodeactivationcode: activation codes, unique by code. No form fields. */
export const activationCodesJob: ImportJob<Answer<ActivationCodesResponse>, ActivationCodesContext> = {
  kind: 'activation_codes',
  accept: ['xlsx', 'xls', 'csv'],
  start: () => ({ fileDuplicates: new Map(), dbDuplicates: [] }),
  plan(workbook, { fileDuplicates, dbDuplicates }) {
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
      constants: () => ({ columns: ['created_at'], types: ['text'], values: [isoNow()] }),
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
  answer(outcome, { fileDuplicates, dbDuplicates }) {
    const { stats: s } = onlySheet(outcome);
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
