/** What every spreadsheet reader (xlsx, xls, csv) offers the import pipeline. */

export type SpreadsheetType = 'xlsx' | 'xls' | 'csv';

/** One row of a sheet: its number as the spreadsheet shows it (1 = first row) and its cells by column. */
export interface SheetRow {
  row: number;
  /** Cell text by zero-based column; a missing or empty cell is undefined or ''. */
  cells: (string | undefined)[];
}

/** One pass over one sheet. A sheet can be read any number of times. */
export interface SheetReading {
  /** The rows in order, in batches; rows without any cell may be left out. */
  rows: AsyncIterable<SheetRow[]>;
  /** How much of the sheet has been read, 0…1. */
  progress(): number;
  /** From now on only these columns are needed: a reader may skip decoding the others. */
  only(columns: number[]): void;
}

export interface Workbook {
  type: SpreadsheetType;
  /** Worksheet names in workbook order; a CSV file is one sheet named after the file. */
  sheetNames: string[];
  read(sheet: string): SheetReading;
  close(): Promise<void>;
}

/** Rows handed to the pipeline at a time: enough to amortise async steps, small enough to bound memory. */
export const ROW_BATCH = 2000;
