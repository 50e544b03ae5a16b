/** A cell value as exports see it: text, a number, or nothing. */
export type CellValue = string | number | null | undefined;

/** One column of an export: its header and how a row shows in it (the screen's display value). */
export interface ExportColumn<Row> {
  header: string;
  value: (row: Row) => CellValue;
}

/**
 * Spreadsheet programs run a cell that starts with one of these as a formula (CSV injection);
 * decisions §4 says such text is neutralised.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** True for text a spreadsheet could run; a lone '-' (the screens' "empty") is left alone. */
export const looksLikeFormula = (text: string) => FORMULA_START.test(text) && text !== '-';
