import fs from 'node:fs';
import path from 'node:path';
import { MAX_STORED_PROBLEMS } from '@obd/contract';
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/database.ts';
import type { HeaderMapping } from './columns.ts';
import { openWorkbook } from './formats/open.ts';
import type { SpreadsheetType } from './formats/workbook.ts';
import { RowTexts } from './rowTexts.ts';
import { RowProblems, type SheetPlan } from './sheet.ts';
import { spooled as spooledLines } from './writeSqlite.ts';

/*
 * Every problem row of an import, for its problems file (issue 15 item 2). Decided: kept as the
 * import runs, in the database (`import_problems`), bounded by MAX_STORED_PROBLEMS — not made
 * later by reading the upload again. The upload's file is gone once its import ends (a preview's
 * after 30 minutes), the history offers the file for every import, and the download may reach
 * any server process sharing the database, so only the database has what it needs.
 *
 * The cells of an invalid row or an in-file duplicate are taken while the row is read (the
 * reader's own cells, so the row as the file had it). A database duplicate is only known once the
 * write meets its key, when the row is long gone: so while reading a sheet whose table holds rows,
 * the cells of its first rows (as many as could still be kept) are kept aside by row number, and a
 * database duplicate takes its cells from there; only one beyond them (or one met because another
 * import filled the table meanwhile) has its row read again from the file after the run. A file
 * uploaded again (1,000,000 database duplicates, 100,000 kept) read its first 100,000 rows again
 * that way, ~1.4 s of the worker at load 3 and the whole shared-string table in memory again.
 */

interface Entry {
  sheetIndex: number;
  sheet: string;
  row: number;
  problem: string;
  /** The row's cells as JSON text (one flat string: no substring of the reader's text kept alive). */
  cells: string | null;
}

interface SheetColumns {
  /** The workbook's sheet name. */
  sheet: string;
  label: string;
  /** Field keys found, in the order of the plan's columns, and their positions and headers in the file. */
  keys: string[];
  positions: number[];
  headers: string[];
}

/** Problem rows written per statement (one JSON parameter each; see `store`). */
const STORE_BATCH = 10_000;

/** Problem lines buffered before they are appended to the spool file. */
const SPOOL_LINES = 1000;

/**
 * Row problems that also keeps each problem row with its cells (up to MAX_STORED_PROBLEMS). A
 * problem whose cells are known is a JSON line in a spool file beside the upload (the row as
 * `store` inserts it), not an object in memory: a file uploaded again has 100,000 of them.
 */
export class ProblemCollector extends RowProblems {
  /** Problems kept so far (spooled, or waiting for their cells in `missing`). */
  private kept = 0;
  private readonly missing: Entry[] = [];
  private lines: string[] = [];
  private spool: { path: string; fd: number } | null = null;
  /** The spool once `prepare` has taken it: read by `write`. */
  private spooled: fs.promises.FileHandle | null = null;
  private readonly sheets: (SheetColumns | undefined)[] = [];
  private readonly indexOf = new Map<string, number>();
  private reading = true;
  private lastCell: ((key: string) => string) | null = null;
  /** Per sheet, the cells of its first rows by row number, for database duplicates (see above). */
  private readonly firstRows: RowTexts[] = [];
  private firstCount = 0;
  /** The mapping actually used per sheet (field → header), and that sheet's header row. */
  readonly used: { headers: (string | undefined)[]; mapped: Record<string, string> }[] = [];

  constructor(
    private readonly mapping?: Readonly<Record<string, string>>,
    /** Where the spool file goes (the upload's own folder); none: every problem stays in memory. */
    private readonly dir?: string,
  ) {
    super();
  }

  override add(sheet: string, row: number, reason: string) {
    super.add(sheet, row, reason);
    if (this.kept >= MAX_STORED_PROBLEMS) return;
    this.kept++;
    const sheetIndex = this.indexOf.get(sheet) ?? 0;
    const columns = this.sheets[sheetIndex];
    // While reading, the row in hand is the one the problem is about.
    const cells =
      this.reading && this.lastCell && columns
        ? JSON.stringify(columns.keys.map((k) => (this.lastCell as (k: string) => string)(k)))
        : (this.firstRows[sheetIndex]?.get(row) ?? null);
    const entry = { sheetIndex, sheet, row, problem: reason, cells };
    if (cells === null || !this.dir) this.missing.push(entry);
    else {
      this.lines.push(JSON.stringify(line(entry)));
      if (this.lines.length >= SPOOL_LINES) this.flush();
    }
  }

  /** Appends the buffered problem lines to the spool file. */
  private flush() {
    if (this.lines.length === 0) return;
    if (!this.spool) {
      const file = path.join(this.dir as string, `problems-${Math.random().toString(36).slice(2)}.ndjson`);
      this.spool = { path: file, fd: fs.openSync(file, 'w') };
    }
    fs.writeSync(this.spool.fd, `${this.lines.join('\n')}\n`);
    this.lines = [];
  }

  /** Reading is over: problems from now on (database duplicates) come without their cells. */
  writing() {
    this.reading = false;
    this.lastCell = null;
  }

  /**
   * A sheet's plan with the operator's mapping and this collector listening; `stored`: whether
   * its table holds rows (then the cells of its first rows are kept for database duplicates).
   */
  wrap(plan: SheetPlan, index: number, sheet: string, stored = true): SheetPlan {
    this.indexOf.set(plan.label, index);
    const firstRows = new RowTexts();
    if (stored) this.firstRows[index] = firstRows;
    const mapping: HeaderMapping = {
      fields: this.mapping,
      onFound: (header, found, mapped) => {
        const keys = plan.columns.map((c) => c.key).filter((k) => (found[k] ?? -1) >= 0);
        const positions = keys.map((k) => found[k] as number);
        this.sheets[index] = {
          sheet,
          label: plan.label,
          keys,
          positions,
          headers: positions.map(
            (p, i) => header[p]?.trim() || (plan.columns.find((c) => c.key === keys[i])?.label ?? ''),
          ),
        };
        if (Object.keys(mapped).length > 0) this.used.push({ headers: header, mapped });
      },
    };
    return {
      ...plan,
      mapping,
      parse: (cell, row) => {
        this.lastCell = cell;
        if (stored && this.firstCount + this.kept < MAX_STORED_PROBLEMS) {
          const keys = (this.sheets[index] as SheetColumns).keys;
          const cells: string[] = new Array(keys.length);
          for (let i = 0; i < keys.length; i++) cells[i] = cell(keys[i] as string);
          firstRows.set(row, JSON.stringify(cells));
          this.firstCount++;
        }
        return plan.parse(cell, row);
      },
      // Every database duplicate is wanted here, up to the bound, besides what the job lists.
      moreDatabaseDuplicates: () =>
        Math.max(plan.moreDatabaseDuplicates?.() ?? 0, MAX_STORED_PROBLEMS - this.kept),
    };
  }

  /**
   * Writes the problems of import `importId` (replacing any it had: a preview being imported),
   * first reading from `file` the cells of the rows that came without them.
   */
  async store(db: Db, importId: number, file: { path: string; fileName: string; accept: SpreadsheetType[] }) {
    await this.prepare(file);
    await this.write(db, importId);
  }

  /**
   * Takes from the upload's folder all that `write` needs, so that the folder may go before the
   * rows are written (after the answer: problemStore.ts): the cells of rows that came without them
   * read from `file`, and the spool opened, then unlinked (read through its handle; a process that
   * dies leaves nothing behind).
   */
  async prepare(file: { path: string; fileName: string; accept: SpreadsheetType[] }) {
    this.firstRows.length = 0; // every cell wanted is in a problem by now
    this.flush();
    if (this.spool) {
      fs.closeSync(this.spool.fd);
      const spooled = this.spool.path;
      this.spool = null;
      try {
        this.spooled = await fs.promises.open(spooled, 'r');
      } finally {
        await fs.promises.rm(spooled, { force: true });
      }
    }
    await this.fillCells(file);
  }

  /** Writes the problem rows `prepare` made ready, under import `importId`. */
  async write(db: Db, importId: number) {
    const spooled = this.spooled;
    this.spooled = null;
    try {
      await this.insert(db, importId, spooled);
    } finally {
      await spooled?.close();
    }
  }

  private async insert(db: Db, importId: number, spooled: fs.promises.FileHandle | null) {
    const columns: Record<string, string[]> = {};
    for (const s of this.sheets) if (s) columns[s.label] = s.headers;
    // Each batch is one JSON parameter the database unpacks itself (as the import's own rows,
    // writeSqlite.ts): 100,000 problem rows in ~0.2 s, where 1,000-row VALUES lists took ~1.2 s.
    const sqlite = db.dialect === 'sqlite';
    const insert = sqlite
      ? `insert into import_problems (import_id, sheet_index, sheet, row, problem, cells)
         select ?, value->>0, value->>1, value->>2, value->>3, value->>4 from json_each(?)`
      : `insert into import_problems (import_id, sheet_index, sheet, row, problem, cells)
         select $1::int, (e->>0)::int, e->>1, (e->>2)::int, e->>3, e->>4 from jsonb_array_elements($2::jsonb) e`;
    await db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('import_problems').where('import_id', '=', importId).execute();
      const write = (lines: string[]) =>
        trx.executeQuery(CompiledQuery.raw(insert, [importId, `[${lines.join(',')}]`]));
      if (spooled) {
        let batch: string[] = [];
        for await (const text of spooledLines(spooled)) {
          batch.push(text);
          if (batch.length >= STORE_BATCH) {
            await write(batch);
            batch = [];
          }
        }
        if (batch.length > 0) await write(batch);
      }
      for (let i = 0; i < this.missing.length; i += STORE_BATCH)
        await write(this.missing.slice(i, i + STORE_BATCH).map((e) => JSON.stringify(line(e))));
      await trx
        .updateTable('imports')
        .set({ problem_columns: JSON.stringify(columns) })
        .where('id', '=', importId)
        .execute();
    });
  }

  /** Reads again the rows of problems kept without cells (database duplicates), per sheet. */
  private async fillCells(file: { path: string; fileName: string; accept: SpreadsheetType[] }) {
    const wanted = new Map<number, Map<number, Entry[]>>();
    for (const e of this.missing) {
      if (e.cells || !this.sheets[e.sheetIndex]) continue;
      let rows = wanted.get(e.sheetIndex);
      if (!rows) {
        rows = new Map();
        wanted.set(e.sheetIndex, rows);
      }
      const list = rows.get(e.row);
      if (list) list.push(e);
      else rows.set(e.row, [e]);
    }
    if (wanted.size === 0) return;
    const workbook = await openWorkbook(file.path, file.fileName, file.accept);
    try {
      for (const [sheetIndex, rows] of wanted) {
        const columns = this.sheets[sheetIndex] as SheetColumns;
        const last = Math.max(...rows.keys());
        const reading = workbook.read(columns.sheet);
        reading.only(columns.positions);
        read: for await (const batch of reading.rows) {
          for (const r of batch) {
            const entries = rows.get(r.row);
            if (entries) {
              const cells = JSON.stringify(columns.positions.map((p) => r.cells[p] ?? ''));
              for (const e of entries) e.cells = cells;
            }
            if (r.row >= last) break read;
          }
        }
      }
    } finally {
      await workbook.close();
    }
  }
}

/** A problem as `store` inserts it: sheet index, sheet, row, problem, cells (JSON text). */
const line = (e: Entry) => [e.sheetIndex, e.sheet.slice(0, 255), e.row, e.problem.slice(0, 2000), e.cells];

/** The problem rows of an import, in sheet then row order, in batches (at most MAX_STORED_PROBLEMS). */
export async function* storedProblems(
  db: Db,
  importId: number,
): AsyncGenerator<{ sheet: string; row: number; problem: string; cells: string[] | null }[]> {
  const size = 2000;
  for (let offset = 0; ; offset += size) {
    const batch = await db.kysely
      .selectFrom('import_problems')
      .select(['sheet', 'row', 'problem', 'cells'])
      .where('import_id', '=', importId)
      .orderBy('sheet_index')
      .orderBy('row')
      .limit(size)
      .offset(offset)
      .execute();
    if (batch.length > 0)
      yield batch.map((r) => ({
        sheet: r.sheet,
        row: Number(r.row),
        problem: r.problem,
        cells: r.cells ? (JSON.parse(r.cells) as string[]) : null,
      }));
    if (batch.length < size) return;
  }
}
