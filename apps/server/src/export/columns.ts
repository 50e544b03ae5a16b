/** A cell value as exports see it: text, a number, or nothing. */
export type CellValue = string | number | null | undefined;

/** One column of an export: its header and how a row shows in it (the screen's display value). */
export interface ExportColumn<Row> {
  header: string;
  value: (row: Row) => CellValue;
}

/**
 * Spreadsheet programs run a cell that starts with one of = + - @ tab CR as a formula (CSV
 * injection); decisions §4 says such text is neutralised. A lone '-' (the screens' "empty") is
 * left alone. Char codes rather than a regular expression: this runs for every cell of an export.
 */
export function looksLikeFormula(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first === 45) return text.length > 1; // '-'
  return first === 61 || first === 43 || first === 64 || first === 9 || first === 13;
}
