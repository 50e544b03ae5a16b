import { normaliseHeader } from '../../../import/columns.ts';
import type { Workbook } from '../../../import/formats/workbook.ts';
import type { SheetStats } from '../../../import/sheet.ts';

/** A job's answer without what every upload answer carries (the runner adds those). */
export type Answer<T> = Omit<T, 'importId' | 'errors' | 'duplicateOfImportId' | 'warning'>;

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The sheet whose name matches one of `names` (case, spaces and underscores ignored). */
export function findSheet(workbook: Workbook, names: string[]): string | undefined {
  const wanted = names.map(normaliseHeader);
  return workbook.sheetNames.find((s) => wanted.includes(normaliseHeader(s)));
}

export const sheetList = (workbook: Workbook) => workbook.sheetNames.map((s) => `'${s}'`).join(', ');

/** Rows of a sheet not imported: invalid, or a duplicate in the file or of the database. */
export const skipped = (s: SheetStats) => s.invalid + s.inFile + s.inDatabase;

/** The one sheet of a single-sheet job's outcome. */
export function onlySheet(outcome: { sheets: { sheet: string; stats: SheetStats }[] }) {
  const first = outcome.sheets[0];
  if (!first) throw new Error('an import outcome without its sheet');
  return first;
}
