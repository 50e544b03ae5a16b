/** A cell value as exports see it: text, a number, or nothing. */
export type CellValue = string | number | null | undefined;

/** One column of an export: its header and how a row shows in it (the screen's display value). */
export interface ExportColumn<Row> {
  header: string;
  value: (row: Row) => CellValue;
}

/**
 * Spreadsheet programs run a cell that starts with one of = + - @ tab CR as a formula (CSV
 * injection), and some turn the full-width forms ＝ ＋ － ＠ (typed with an East Asian input
 * method) into those; decisions §4 says such text is neutralised. A lone '-' (the screens'
 * "empty") cannot be a formula and is left alone. Numbers are typed values, never text, so a
 * negative number is written as a number and not prefixed; only text is judged here. Char
 * codes rather than a regular expression: this runs for every cell of an export.
 */
export function looksLikeFormula(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first === 45) return text.length > 1; // '-'
  if (first < 0xff0b) return first === 61 || first === 43 || first === 64 || first === 9 || first === 13;
  return first === 0xff1d || first === 0xff0b || first === 0xff0d || first === 0xff20; // ＝ ＋ － ＠
}
