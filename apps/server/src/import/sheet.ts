import fs from 'node:fs';
import path from 'node:path';
import { MAX_ROW_ERRORS, type RowProblem } from '@obd/contract';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { type ColumnIndex, type ColumnSpec, findColumns, type HeaderMapping } from './columns.ts';
import type { SheetReading } from './formats/workbook.ts';
import { KeySet } from './keySet.ts';
import { copyText } from './pgCopy.ts';
import { Reason } from './values.ts';

/**
 * One sheet of an upload, in two passes. `stageSheet` reads and checks every row, drops repeats
 * within the file and writes the rows to import into a spool file beside the upload; nothing
 * touches the database. `writeSheet` then inserts the spooled rows in batches inside the
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
  parse(cell: (key: K) => string): Values | Reason;
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
      await out.write(text);
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
        const values = plan.parse(cell);
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

/** The spooled batches of a staged sheet, in order, as the JSON text they were written as. */
export async function* spooled(file: string): AsyncGenerator<string> {
  let carry = '';
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = carry + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      yield text.slice(start, nl);
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (carry.trim()) yield carry;
}

/** Below this many rows to write, a sheet is inserted into the table's indexes as they are. */
const REBUILD_MIN_ROWS = 50_000;
/**
 * Up to this many stored rows per row added, the plain indexes are dropped and built again
 * (1,000,000 fault codes into a table of 1,000,000: see bench/RESULTS.md, session 7).
 */
const REBUILD_MAX_RATIO = 2;
/**
 * SQLite page cache during a big write, in KiB: the natural key's unique index of a table that
 * already holds rows is inserted into at every one of its pages; with the default 2 MB cache each
 * insert could evict a dirty page, written to the WAL again and again.
 */
const BULK_CACHE_KIB = 64 * 1024;

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

/**
 * Pass 2: inserts a staged sheet within the transaction `trx`.
 *
 * Each spooled batch goes to the database as the one JSON parameter of a constant statement
 * (`INSERT … SELECT … FROM jsonb_each(?)` / `json_array_elements($n)`): the database unpacks the
 * rows itself, so no statement is compiled per batch and no value is bound one by one. Rows whose
 * natural key is stored are skipped by ON CONFLICT DO NOTHING and counted from the difference;
 * which rows they were is asked only while row problems or duplicate lists still have room.
 */
export async function writeSheet(
  trx: Transaction<Database>,
  dialect: Dialect,
  staged: StagedSheet,
  options: { importId: number; problems: RowProblems; onProgress(written: number): void; phases?: Phases },
) {
  const phases = options.phases ?? new Phases();
  phases.start();
  const started = performance.now();
  const { plan, stats } = staged;
  const constants = importConstants(plan, options.importId);
  const target = plan.target;
  const table = quote(target.table);
  const columns = [...target.columns, ...constants.columns].map(quote).join(', ');
  const sqlite = dialect === 'sqlite';
  // Each spooled row is its values in column order, then its row number.
  const fields = target.columns.map((_, i) => (sqlite ? `value->>${i}` : `(e->>${i})::${target.types[i]}`));
  const constantParams = constants.values.map((_, i) => (sqlite ? '?' : `$${i + 1}::${constants.types[i]}`));
  // PostgreSQL: jsonb, parsed once per batch; with json every `->>` re-parses the row's text
  // (the 1,000,000-row write took ~47 s with json, ~34 s with jsonb).
  const rowsParam = sqlite
    ? 'jsonb_each(?)'
    : `jsonb_array_elements($${constants.values.length + 1}::jsonb) as e`;
  const conflict = target.unique ? ' on conflict do nothing' : '';
  const insert = `insert into ${table} (${columns}) select ${[...fields, ...constantParams].join(', ')} from ${rowsParam} where true${conflict}`;
  // When most rows of a batch were already stored (a file uploaded again), the next batches
  // skip stored keys with an index probe first: ON CONFLICT costs far more per row than that.
  const match = (target.unique ?? [])
    .map((i) => `t.${quote(target.columns[i] as string)} = ${fields[i]}`)
    .join(' and ');
  const insertNew = target.unique
    ? `insert into ${table} (${columns}) select ${[...fields, ...constantParams].join(', ')} from ${rowsParam} where not exists (select 1 from ${table} t where ${match})${conflict}`
    : insert;
  let mostlyStored = false;

  let storedBefore = 0;
  let rebuild: { name: string; sql: string }[] = [];
  if (target.unique) {
    const max = await sql<{
      id: number | null;
    }>`select max(id) as id from ${sql.table(target.table)}`.execute(trx);
    storedBefore = Number(max.rows[0]?.id ?? 0);
  }
  let cacheBefore: number | undefined;
  if (sqlite && staged.accepted >= REBUILD_MIN_ROWS) {
    rebuild = await dropSecondaryIndexes(trx, target.table, staged.accepted);
    const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(trx);
    cacheBefore = cache.rows[0]?.cache_size;
    await sql.raw(`pragma cache_size = -${BULK_CACHE_KIB}`).execute(trx);
  }
  phases.mark('drop indexes');
  let listing = 0;

  try {
    let written = 0;
    let k = 0;
    for await (const batch of spooled(staged.spool)) {
      const statement: string = mostlyStored ? insertNew : insert;
      const result = await trx.executeQuery(CompiledQuery.raw(statement, [...constants.values, batch]));
      const rows = staged.batches[k++] as number;
      const inserted: number = Number(result.numAffectedRows ?? 0);
      mostlyStored = inserted * 2 < rows;
      stats.inserted += inserted;
      if (target.unique && inserted < rows) {
        const duplicates = rows - inserted;
        stats.inDatabase += duplicates;
        const wanted = Math.max(
          MAX_ROW_ERRORS - options.problems.list.length,
          plan.moreDatabaseDuplicates?.() ?? 0,
        );
        const asked = performance.now();
        const found =
          wanted > 0
            ? await storedRows(trx, dialect, target, batch, storedBefore, Math.min(wanted, duplicates))
            : [];
        listing += performance.now() - asked;
        for (const [row, values] of found) {
          const what = plan.describe ? `${plan.describe(values)} is ` : '';
          options.problems.add(plan.label, row, `${what}already in the database`);
          plan.onDatabaseDuplicate?.(values, row);
        }
        options.problems.count += duplicates - found.length;
      }
      written += rows;
      options.onProgress(written);
    }
    phases.mark('insert');
    phases.ms['insert'] = Math.round((phases.ms['insert'] ?? 0) - listing);
    phases.ms['list duplicates'] = Math.round((phases.ms['list duplicates'] ?? 0) + listing);
    for (const index of rebuild) {
      await sql.raw(index.sql).execute(trx);
      phases.mark(`build ${index.name}`);
    }
  } finally {
    // The connection's own cache size again, whatever happened (it outlives the transaction).
    if (cacheBefore !== undefined) await sql.raw(`pragma cache_size = ${Number(cacheBefore)}`).execute(trx);
  }
  stats.ms += performance.now() - started;
}

/** The rows of a batch whose key was already stored before this import (id ≤ `storedBefore`). */
async function storedRows(
  trx: Transaction<Database>,
  dialect: Dialect,
  target: TargetTable,
  batch: string,
  storedBefore: number,
  limit: number,
): Promise<[number, Values][]> {
  const unique = target.unique ?? [];
  const sqlite = dialect === 'sqlite';
  const match = unique
    .map((i) => {
      const column = quote(target.columns[i] as string);
      return sqlite ? `t.${column} = s.value->>${i}` : `t.${column} = (s.e->>${i})::${target.types[i]}`;
    })
    .join(' and ');
  const query = sqlite
    ? `select json(s.value) as value from jsonb_each(?) s where exists (select 1 from ${quote(target.table)} t where ${match} and t.id <= ?) limit ?`
    : `select s.e::text as value from jsonb_array_elements($1::jsonb) as s(e) where exists (select 1 from ${quote(target.table)} t where ${match} and t.id <= $2) limit $3`;
  const result = await trx.executeQuery(CompiledQuery.raw(query, [batch, storedBefore, limit]));
  return (result.rows as { value: string }[]).map((r) => {
    const values = JSON.parse(r.value) as Values;
    const row = values.pop() as number;
    return [row, values];
  });
}

/**
 * SQLite bulk load: a big import into a table no bigger than itself is faster without the
 * table's plain (non-unique) indexes, rebuilt once at the end from their own definitions. Unique
 * indexes stay, as they decide the database duplicates — unless the table is empty: then no row
 * can meet a stored key, the file's own repeats were already set aside while reading, and the
 * unique index too is built once at the end (1,000,000 fault codes: ~2.9 s of inserts against
 * ~1.5 s plus ~0.4 s for the index; migration 006 made the fault tables' keys droppable indexes).
 * Should a repeat slip through, rebuilding the unique index fails and the import rolls back.
 * It all happens inside the import transaction, so a failure rolls the indexes back too. Not
 * done on PostgreSQL: there dropping an index locks its table against readers until the
 * transaction ends, and it gained little (the insert without the trigram indexes still took
 * ~35 s of the ~47 s, plus ~8 s to rebuild them).
 */
async function dropSecondaryIndexes(trx: Transaction<Database>, table: string, adding: number) {
  const count = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(trx);
  const stored = Number(count.rows[0]?.n ?? 0);
  if (stored > REBUILD_MAX_RATIO * adding) return [];
  const unique = stored === 0 ? sql`` : sql`and sql not like 'CREATE UNIQUE%'`;
  const indexes = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
    where type = 'index' and tbl_name = ${table} and sql is not null ${unique}`.execute(trx);
  for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return indexes.rows;
}

const quote = (name: string) => `"${name}"`;
