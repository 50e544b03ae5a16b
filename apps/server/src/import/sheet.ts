import fs from 'node:fs';
import path from 'node:path';
import { MAX_ROW_ERRORS, type RowProblem } from '@obd/contract';
import type { Database } from '../db/schema.ts';
import { type ColumnIndex, type ColumnSpec, findColumns, type HeaderMapping } from './columns.ts';
import type { SheetReading } from './formats/workbook.ts';
import { KeySet } from './keySet.ts';
import { copyText } from './pgCopy.ts';
import { Reason } from './values.ts';

/**
 * One sheet of an upload, in two passes. `stageSheet` reads and checks every row, drops repeats
 * within the file and writes the rows to import into a spool file beside the upload; nothing
 * touches the database. `writeSheet` (writeSqlite.ts) or `writeSheetPostgres` then inserts the spooled rows in batches inside the
 * caller's transaction, counting the rows whose natural key is already stored. So a file is
 * known to be whole and readable before anything is written, and the import is all or nothing.
 */

export type Value = string | number | null;
export type Values = Value[];

/** The table a sheet fills. */
export interface TargetTable {
  table: keyof Database & string;
  /** Columns filled from each row's values, in order. */
  columns: string[];
  /** PostgreSQL types of those columns (for the array insert). */
  types: ('text' | 'int4')[];
  /**
   * Indices (into the values) of the natural key that a unique index guards: a row whose key
   * is stored is a database duplicate (INSERT … ON CONFLICT DO NOTHING skips it).
   */
  unique?: number[];
}

export interface SheetPlan<K extends string = string> {
  /** The sheet's name, as row problems name it. */
  label: string;
  columns: readonly ColumnSpec<K>[];
  /** Columns named by hand for fields no header matched (issue 15), and who hears the header row. */
  mapping?: HeaderMapping;
  /** A data row → the values to store (in `target.columns` order), or why it cannot be. */
  parse(cell: (key: K) => string, row: number): Values | Reason;
  /** Indices of the values that identify a row within the file. */
  key: number[];
  target: TargetTable;
  /** Values of extra columns, the same for every row, known when writing starts. */
  constants?: (context: { importId: number }) => {
    columns: string[];
    types: ('text' | 'int4')[];
    values: Value[];
  };
  /** Says which row a problem is about, e.g. `P0300 (company 21)`. */
  describe?(values: Values): string;
  onFileDuplicate?(values: Values, row: number, firstRow: number): void;
  onDatabaseDuplicate?(values: Values, row: number): void;
  /** How many more database duplicates `onDatabaseDuplicate` wants to hear of (it lists them). */
  moreDatabaseDuplicates?(): number;
}

export interface SheetStats {
  /** Data rows (blank rows not counted). */
  totalRows: number;
  inserted: number;
  invalid: number;
  inFile: number;
  inDatabase: number;
  /** Milliseconds spent reading and writing this sheet. */
  ms: number;
}

/** The first row problems of an import, and how many there were in all. */
export class RowProblems {
  readonly list: RowProblem[] = [];
  count = 0;

  add(sheet: string, row: number, reason: string) {
    this.count++;
    if (this.list.length < MAX_ROW_ERRORS) this.list.push({ sheet, row, reason });
  }

  /** The problems in sheet order (as given), then row order. */
  sorted(sheets: string[]): RowProblem[] {
    const order = (sheet: string) => sheets.indexOf(sheet);
    return [...this.list].sort((a, b) => order(a.sheet) - order(b.sheet) || a.row - b.row);
  }
}

export type SpoolFormat = 'json' | 'copy';

export interface StagedSheet {
  plan: SheetPlan;
  /**
   * A file of JSON lines, one per batch: `[[...values, row], …]`; or (format 'copy') of COPY
   * text lines, one per row: the values, then the row number, tab-separated.
   */
  spool: string;
  /** Rows in each line of the spool. */
  batches: number[];
  /** Rows to insert. */
  accepted: number;
  stats: SheetStats;
}

const key = (values: Values, indices: number[]) => {
  if (indices.length === 1) return String(values[indices[0] as number]);
  let k = '';
  for (const i of indices) k += `${values[i]}\u0000`;
  return k;
};

/**
 * Milliseconds per phase of an import's write (load, insert, index builds…), summed over its
 * sheets and logged with 'import written', so a slow import says where its time went.
 */
export class Phases {
  readonly ms: Record<string, number> = {};
  /** This process's CPU time (all threads) per phase: on a busy machine the steadier figure. */
  readonly cpuMs: Record<string, number> = {};
  private last = performance.now();
  private lastCpu = process.cpuUsage();

  /** Ends the phase running since the previous mark (or since `start`), as `name`. */
  mark(name: string) {
    const now = performance.now();
    const cpu = process.cpuUsage(this.lastCpu);
    this.ms[name] = Math.round((this.ms[name] ?? 0) + now - this.last);
    this.cpuMs[name] = Math.round((this.cpuMs[name] ?? 0) + (cpu.user + cpu.system) / 1000);
    this.last = now;
    this.lastCpu = process.cpuUsage();
  }

  /** Starts timing afresh (what ran since the last mark belongs to no phase). */
  start() {
    this.last = performance.now();
    this.lastCpu = process.cpuUsage();
  }
}

/** Rows per spooled batch, so per INSERT statement of pass 2. */
const SPOOL_BATCH = 5000;

/** Whether a row has nothing in the columns the import reads. */
function isBlank(cells: (string | undefined)[], columns: number[]): boolean {
  for (const i of columns) {
    const c = cells[i];
    if (c !== undefined && c !== '' && c.trim() !== '') return false;
  }
  return true;
}

/**
 * Whether any cell of a row holds text. Only the cells present are visited (`for…in`), so a
 * row whose one cell is at column XFD costs one step, not 16,384.
 */
function hasText(cells: (string | undefined)[]): boolean {
  for (const k in cells) if (cells[k as unknown as number]?.trim()) return true;
  return false;
}

/** Pass 1: reads, checks and de-duplicates one sheet into a spool file. */
export async function stageSheet(
  reading: SheetReading,
  plan: SheetPlan,
  options: {
    dir: string;
    problems: RowProblems;
    onProgress(rows: number, fraction: number): void;
    /**
     * How the rows are spooled: JSON lines (SQLite's `jsonb_each`), or COPY text (PostgreSQL: the
     * file goes to COPY as it is, no row parsed or formatted again; bulkPostgres.ts).
     */
    format?: SpoolFormat;
    /**
     * Told of each spooled batch (COPY text bytes, rows) once it is in the spool; awaited, so a
     * consumer that falls behind holds the reading back (PostgreSQL's COPY during reading).
     */
    onBatch?(bytes: Buffer, rows: number): Promise<void>;
  },
): Promise<StagedSheet> {
  const started = performance.now();
  const stats: SheetStats = { totalRows: 0, inserted: 0, invalid: 0, inFile: 0, inDatabase: 0, ms: 0 };
  const spool = path.join(
    options.dir,
    `spool-${plan.target.table}-${Math.random().toString(36).slice(2)}.ndjson`,
  );
  const out = await fs.promises.open(spool, 'w');
  const seen = new KeySet();
  let index: ColumnIndex<string> | null = null;
  let wanted: number[] = [];
  let accepted = 0;
  const batches: number[] = [];
  let row = 0;
  let cells: (string | undefined)[] = [];
  const cell = (k: string) => {
    const i = (index as ColumnIndex<string>)[k] as number;
    return i < 0 ? '' : (cells[i] ?? '');
  };
  let staged: (Value | number)[][] = [];
  const format = options.format ?? 'json';
  const flush = async () => {
    if (staged.length === 0) return;
    if (format === 'copy') {
      let text = '';
      for (const row of staged) {
        for (let i = 0; i < row.length; i++) text += (i === 0 ? '' : '\t') + copyText(row[i] as Value);
        text += '\n';
      }
      const bytes = Buffer.from(text, 'utf8');
      await out.write(bytes);
      await options.onBatch?.(bytes, staged.length);
    } else await out.write(`${JSON.stringify(staged)}\n`);
    batches.push(staged.length);
    staged = [];
  };
  try {
    for await (const batch of reading.rows) {
      for (const r of batch) {
        cells = r.cells;
        if (!index) {
          if (!hasText(cells)) continue;
          index = findColumns(cells, plan.columns, plan.label, plan.mapping);
          wanted = Object.values(index).filter((i) => i >= 0);
          reading.only(wanted);
          continue;
        }
        if (isBlank(cells, wanted)) continue;
        row = r.row;
        stats.totalRows++;
        const values = plan.parse(cell, row);
        if (values instanceof Reason) {
          stats.invalid++;
          options.problems.add(plan.label, row, values.text);
          continue;
        }
        const first = seen.add(key(values, plan.key), row);
        if (first >= 0) {
          stats.inFile++;
          const what = plan.describe ? `${plan.describe(values)} ` : '';
          options.problems.add(plan.label, row, `${what}repeats row ${first} of this file`.trimStart());
          plan.onFileDuplicate?.(values, row, first);
          continue;
        }
        accepted++;
        values.push(row); // the row number rides at the end of the spooled row
        staged.push(values);
      }
      if (staged.length >= SPOOL_BATCH) await flush();
      options.onProgress(stats.totalRows, reading.progress());
    }
    await flush();
  } finally {
    await out.close();
  }
  stats.ms = performance.now() - started;
  return { plan, spool, batches, accepted, stats };
}

/** The columns every row of a sheet gets besides the file's: the plan's own and the import's id
 * (every imported row carries it: the undo removes exactly those, migration 013). */
export function importConstants(plan: StagedSheet['plan'], importId: number) {
  const own = plan.constants?.({ importId }) ?? { columns: [], types: [], values: [] };
  return {
    columns: [...own.columns, 'import_id'],
    types: [...own.types, 'int4' as const],
    values: [...own.values, importId],
  };
}
