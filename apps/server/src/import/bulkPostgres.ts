import fs from 'node:fs';
import { MAX_ROW_ERRORS } from '@obd/contract';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deferIndexes } from './deferredIndexes.ts';
import { copyRows, copyText } from './pgCopy.ts';
import {
  importConstants,
  Phases,
  type RowProblems,
  type SheetPlan,
  type StagedSheet,
  type Values,
} from './sheet.ts';

/**
 * Pass 2 on PostgreSQL (issue 15 item 5): a staged sheet goes into the table set-based.
 *
 * 1. The table is locked against other writers (SHARE ROW EXCLUSIVE: readers go on, another
 *    import, an edit or an undo of the same table waits for the commit), so the stored keys
 *    cannot change until the commit and the database duplicates are decided exactly.
 * 2. When the table holds rows, the spool (COPY text) is loaded into a temporary table (no WAL,
 *    no index) and one anti-join counts and lists the database duplicates.
 * 3. With none (always so into an empty table), the spool goes to COPY straight into the table,
 *    in file order; else one plain INSERT … SELECT with the anti-join (cheaper per row than
 *    ON CONFLICT's speculative insertion).
 * 4. When the load is big (≥ 50,000 rows) and the table holds at most twice as many rows, the
 *    table's indexes other than the primary key (and, into a table that holds rows, those new
 *    rows append to: `appends`) — the natural key's unique constraint and the trigram GIN
 *    indexes included — are dropped first and built again once after the insert, inside the
 *    same transaction: building an index over sorted input costs a fraction of maintaining it
 *    row by row (1,000,000 fault codes: the insert took 67 s with every index, ~8 s with the
 *    primary key only, then ~14 s to build the others, at a load of 8–11). Dropping takes an
 *    ACCESS EXCLUSIVE lock, so readers of that table wait until the commit; a failure rolls the
 *    indexes back with the rows. A preview never drops them (it rolls back anyway; slower on a
 *    big file, but nobody waits for a look). The rebuilt unique constraint re-checks the keys:
 *    a repeat that slipped through fails the import, it never stores a duplicate. Trigram
 *    indexes are built after the commit (deferredIndexes.ts).
 */
export async function writeSheetPostgres(
  trx: Transaction<Database>,
  staged: StagedSheet,
  options: {
    importId: number;
    problems: RowProblems;
    onProgress(written: number, fraction: number): void;
    /** A preview rolls back: it keeps the indexes so that readers of the table never wait for it. */
    keepIndexes?: boolean;
    phases?: Phases;
    /** What `streamSheet` already sent to COPY while the file was read. */
    streamed?: Streamed;
  },
): Promise<{ deferred: number }> {
  const started = performance.now();
  const phases = options.phases ?? new Phases();
  phases.start();
  const { plan, stats } = staged;
  const constants = importConstants(plan, options.importId);
  const target = plan.target;
  const table = quote(target.table);
  const stage = quote(`import_stage_${target.table}`);

  const streamed = options.streamed;
  await lockAndSettle(trx, target.table);
  const unique = target.unique ?? [];
  const match = unique
    .map((i) => `t.${quote(target.columns[i] as string)} = s.${quote(target.columns[i] as string)}`)
    .join(' and ');
  const stored = streamed ? streamed.into === 'stage' : await holdsRows(trx, target.table);
  phases.mark('lock');

  // Streamed straight into the (empty) table while the file was read: only the builds are left.
  if (streamed?.into === 'table') {
    stats.inserted += streamed.rows;
    stats.inDatabase += staged.accepted - streamed.rows;
    options.onProgress(staged.accepted, 0.75);
    await buildAgain(trx, streamed.rebuild, phases, (i) =>
      options.onProgress(staged.accepted, 0.75 + (0.25 * (i + 1)) / streamed.rebuild.length),
    );
    stats.ms += performance.now() - started;
    return { deferred: streamed.deferred };
  }

  // 2. Rows to compare with stored ones go into a stage table first, as COPY text (pgCopy.ts),
  // unless streamSheet already put them there.
  if (stored && !streamed) {
    await createStage(trx, target);
    await copyRows(
      trx,
      `copy ${stage} (${[...target.columns.map(quote), '"__row"'].join(', ')}) from stdin`,
      copyChunks(staged, (n, f) => options.onProgress(n, f / 2)),
    );
    phases.mark('stage load');
  }

  // 3. The database duplicates, in one anti-join: how many, and the first ones (as many as the
  // row problems and duplicate lists want), in row order.
  let duplicates = 0;
  if (unique.length > 0 && stored) {
    const wanted = Math.max(
      MAX_ROW_ERRORS - options.problems.list.length,
      plan.moreDatabaseDuplicates?.() ?? 0,
    );
    const found = await trx.executeQuery(
      CompiledQuery.raw(
        `select s."__row" as row, json_build_array(${target.columns.map((c) => `s.${quote(c)}`).join(', ')})::text as value, count(*) over () as n from ${stage} s where exists (select 1 from ${table} t where ${match}) order by s."__row" limit $1`,
        [Math.max(wanted, 1)],
      ),
    );
    const rows = found.rows as { row: number; value: string; n: string }[];
    duplicates = Number(rows[0]?.n ?? 0);
    for (const r of rows.slice(0, wanted)) {
      const values = JSON.parse(r.value) as Values;
      const what = plan.describe ? `${plan.describe(values)} is ` : '';
      options.problems.add(plan.label, r.row, `${what}already in the database`);
      plan.onDatabaseDuplicate?.(values, r.row);
      options.problems.count--; // counted below with the others
    }
  }
  phases.mark('find duplicates');

  // 4. A big load into a table not much bigger: its indexes are built again after the insert.
  const adding = staged.accepted - duplicates;
  let rebuild: string[] = [];
  let deferred = 0;
  if (!options.keepIndexes && adding >= REBUILD_MIN_ROWS) {
    const bound = REBUILD_MAX_RATIO * adding;
    const count = stored
      ? await sql<{
          n: string;
        }>`select count(*) as n from (select 1 from ${sql.table(target.table)} limit ${bound + 1}) x`.execute(
          trx,
        )
      : { rows: [{ n: '0' }] };
    if (Number(count.rows[0]?.n ?? 0) <= bound) {
      // Into a table that holds rows, the indexes new rows append to are kept (`appends`).
      // Into a table that holds rows, the indexes new rows append to are kept (`appends`); keeping
      // the natural key too was slower (its COPY 6.9 s against 3.6 s + 2.2 s to build it, session 12).
      const dropped = await dropIndexes(
        trx,
        target.table,
        (def, constraint) => stored && !constraint && appends(def),
      );
      rebuild = dropped.again;
      await deferIndexes(trx, target.table, dropped.deferred);
      deferred = dropped.deferred.length;
    }
  }
  phases.mark('drop indexes');

  // 5. The new rows into the table. With no database duplicate, the spool goes to COPY straight
  // into the table, each line's row number swapped for the constants: COPY inserts whole pages
  // at a time, several times faster than INSERT … SELECT row by row (1,000,000 fault codes at
  // load 13, psql: 13 s against 2 + 20 s through a stage table). With duplicates, one set-based
  // insert from the stage table skips them (an anti-join).
  let inserted = 0;
  const columns = [...target.columns, ...constants.columns].map(quote).join(', ');
  if (adding > 0 && duplicates === 0) {
    const suffix = Buffer.from(`\t${constants.values.map((v) => copyText(v)).join('\t')}\n`);
    inserted = await copyRows(
      trx,
      `copy ${table} (${columns}) from stdin`,
      withConstants(
        copyChunks(staged, (n, f) => options.onProgress(n, stored ? 0.5 + f / 4 : 0.75 * f)),
        suffix,
      ),
    );
  } else if (adding > 0) {
    const constantParams = constants.values.map((_, i) => `$${i + 1}::${constants.types[i]}`);
    const insert = `insert into ${table} (${columns}) select ${[...target.columns.map((c) => `s.${quote(c)}`), ...constantParams].join(', ')} from ${stage} s where not exists (select 1 from ${table} t where ${match}) order by s."__row"`;
    const result = await trx.executeQuery(CompiledQuery.raw(insert, constants.values));
    inserted = Number(result.numAffectedRows ?? 0);
  }
  stats.inserted += inserted;
  stats.inDatabase += staged.accepted - inserted;
  options.problems.count += staged.accepted - inserted;
  options.onProgress(staged.accepted, 0.75);
  phases.mark('insert');
  await buildAgain(trx, rebuild, phases, (i) =>
    options.onProgress(staged.accepted, 0.75 + (0.25 * (i + 1)) / rebuild.length),
  );
  if (stored) await sql.raw(`drop table ${stage}`).execute(trx);
  stats.ms += performance.now() - started;
  return { deferred };
}

/**
 * The import's transaction settings, and the table locked against other writers (its keys stay
 * as they are until the commit). Index builds and the anti-join's sorts in memory, and no JIT
 * compilation (~0.8 s of a 1,000,000-row anti-join, measured with EXPLAIN ANALYZE).
 */
async function lockAndSettle(trx: Transaction<Database>, table: string) {
  await sql.raw(`set local maintenance_work_mem = '256MB'`).execute(trx);
  await sql.raw(`set local work_mem = '128MB'`).execute(trx);
  await sql.raw('set local jit = off').execute(trx);
  await sql.raw(`lock table ${quote(table)} in share row exclusive mode`).execute(trx);
}

async function holdsRows(trx: Transaction<Database>, table: keyof Database & string): Promise<boolean> {
  const any = await sql<{
    any: boolean;
  }>`select exists (select 1 from ${sql.table(table)}) as any`.execute(trx);
  return any.rows[0]?.any === true;
}

/** The temporary table rows are compared in: the target's columns, then the file's row number. */
async function createStage(trx: Transaction<Database>, target: SheetPlan['target']) {
  const stage = quote(`import_stage_${target.table}`);
  await sql.raw(`drop table if exists ${stage}`).execute(trx);
  await sql
    .raw(
      `create temporary table ${stage} (${target.columns
        .map((c, i) => `${quote(c)} ${target.types[i]}`)
        .join(', ')}, "__row" int4) on commit drop`,
    )
    .execute(trx);
}

async function buildAgain(
  trx: Transaction<Database>,
  statements: string[],
  phases: Phases,
  onBuilt: (i: number) => void,
) {
  for (const [i, index] of statements.entries()) {
    await sql.raw(index).execute(trx);
    phases.mark(`build ${/(?:index|constraint) "?(\w+)"?/i.exec(index)?.[1] ?? i}`);
    onBuilt(i);
  }
}

/** What `streamSheet` sent to COPY while the file was read. */
export interface Streamed {
  /** 'stage': the table held rows, every accepted row is in the stage table; 'table': it was empty, they are in it. */
  into: 'stage' | 'table';
  rows: number;
  /** Into the table: the statements that build again the indexes dropped before the COPY. */
  rebuild: string[];
  /** Into the table: trigram indexes dropped and noted (deferredIndexes.ts). */
  deferred: number;
}

export interface SheetStream {
  /** One spooled batch (COPY text with the row number last); waits while COPY is behind. */
  batch(bytes: Buffer, rows: number): Promise<void>;
  /** Reading failed: the COPY is abandoned (the caller's transaction then rolls back). */
  abort(error: Error): Promise<void>;
  /** Reading ended: waits for COPY to take the rest; undefined when nothing was sent. */
  end(): Promise<Streamed | undefined>;
}

/**
 * COPYs started while a sheet was read, and sheets whose rows all went to COPY that way, into
 * the stage table or the table (the tests check that this path ran).
 */
export const streamCounts = { started: 0, stage: 0, table: 0 };

/**
 * COPY while the file is read (issue 15 item 5): on two cores, PostgreSQL takes one batch while
 * the server reads the next, instead of reading the whole file first. The caller's transaction
 * holds the table's lock (lockTargets) from before the first row is read, so whether the table
 * holds rows, and so every database duplicate, is decided as if the rows were written after.
 *
 * - Into a table that holds rows: every batch goes to the stage table at once; writeSheetPostgres
 *   then finds the database duplicates and inserts as without streaming.
 * - Into an empty table no row can be a database duplicate and in-file ones never reach the
 *   spool, so the rows go straight into the table. The first REBUILD_MIN_ROWS rows are held back
 *   first: a smaller sheet is written afterwards as before, with its indexes kept; a bigger one
 *   has them dropped before its COPY starts (readers of the table wait from there to the commit,
 *   for the rest of the reading too) and built again by writeSheetPostgres.
 */
export async function streamSheet(
  trx: Transaction<Database>,
  plan: SheetPlan,
  importId: number,
): Promise<SheetStream> {
  const target = plan.target;
  await lockAndSettle(trx, target.table);
  const stored = await holdsRows(trx, target.table);
  let queue: ChunkQueue | undefined;
  let copying: Promise<number> | undefined;
  let held: Buffer[] = [];
  let heldRows = 0;
  let rebuild: string[] = [];
  let deferred = 0;
  const begin = (statement: string, chunks: (queue: ChunkQueue) => AsyncIterable<Buffer>) => {
    const q = new ChunkQueue();
    queue = q;
    streamCounts.started++;
    copying = copyRows(trx, statement, chunks(q));
    // A failed COPY stops taking batches: the reading must not wait for it.
    copying.catch((error: Error) => q.fail(error));
  };
  if (stored) {
    await createStage(trx, target);
    begin(
      `copy ${quote(`import_stage_${target.table}`)} (${[...target.columns.map(quote), '"__row"'].join(', ')}) from stdin`,
      (q) => q,
    );
  }
  return {
    async batch(bytes, rows) {
      if (queue) return queue.push(bytes);
      held.push(bytes);
      heldRows += rows;
      if (heldRows < REBUILD_MIN_ROWS) return;
      // Every one: keeping the btrees while streaming made PostgreSQL fall behind the reading
      // (1,000,000 fault codes: 17.7 s against 7.1 s, session 12).
      const dropped = await dropIndexes(trx, target.table, () => false);
      rebuild = dropped.again;
      await deferIndexes(trx, target.table, dropped.deferred);
      deferred = dropped.deferred.length;
      const constants = importConstants(plan, importId);
      const columns = [...target.columns, ...constants.columns].map(quote).join(', ');
      const suffix = Buffer.from(`\t${constants.values.map((v) => copyText(v)).join('\t')}\n`);
      begin(`copy ${quote(target.table)} (${columns}) from stdin`, (q) => withConstants(q, suffix));
      const first = held;
      held = [];
      for (const b of first) await (queue as ChunkQueue | undefined)?.push(b);
    },
    async abort(error) {
      queue?.fail(error);
      await copying?.catch(() => undefined);
    },
    async end() {
      if (!queue || !copying) return undefined;
      queue.end();
      const rows = await copying;
      streamCounts[stored ? 'stage' : 'table']++;
      return { into: stored ? 'stage' : 'table', rows, rebuild, deferred };
    },
  };
}

/** Batches waiting for COPY, at most MAX_QUEUED: the reading waits beyond that. */
class ChunkQueue implements AsyncIterable<Buffer> {
  private readonly items: Buffer[] = [];
  private ended = false;
  private error: Error | undefined;
  private wakeTaker: (() => void) | undefined;
  private wakeGiver: (() => void) | undefined;

  async push(bytes: Buffer): Promise<void> {
    if (this.error) throw this.error;
    this.items.push(bytes);
    this.wake();
    while (this.items.length >= MAX_QUEUED && !this.error)
      await new Promise<void>((resolve) => {
        this.wakeGiver = resolve;
      });
    if (this.error) throw this.error;
  }

  end() {
    this.ended = true;
    this.wake();
  }

  fail(error: Error) {
    this.error ??= error;
    this.wake();
  }

  private wake() {
    const taker = this.wakeTaker;
    const giver = this.wakeGiver;
    this.wakeTaker = undefined;
    this.wakeGiver = undefined;
    taker?.();
    giver?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.error) throw this.error;
      const next = this.items.shift();
      if (next) {
        this.wake();
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wakeTaker = resolve;
      });
    }
  }
}

/** Spooled batches (5,000 rows, ~0.3 MB of fault codes each) waiting for COPY at most. */
const MAX_QUEUED = 8;

/** A staged sheet's spool (COPY text already, see stageSheet) in 1 MB chunks; progress (0–1) by bytes. */
async function* copyChunks(
  staged: StagedSheet,
  onProgress: (written: number, fraction: number) => void,
): AsyncGenerator<Buffer> {
  const size = Math.max((await fs.promises.stat(staged.spool)).size, 1);
  let sent = 0;
  for await (const chunk of fs.createReadStream(staged.spool, { highWaterMark: 1 << 20 })) {
    yield chunk as Buffer;
    sent += (chunk as Buffer).length;
    const fraction = sent / size;
    onProgress(Math.round(staged.accepted * fraction), fraction);
  }
}

/**
 * COPY text lines whose last field (the spooled row number) is replaced by `suffix` (a tab, the
 * constants' COPY text and the line end): the spool as the target table takes it.
 */
export async function* withConstants(chunks: AsyncIterable<Buffer>, suffix: Buffer): AsyncGenerator<Buffer> {
  let carry: Buffer | null = null;
  for await (const read of chunks) {
    const chunk: Buffer = carry ? Buffer.concat([carry, read]) : read;
    const last = chunk.lastIndexOf(NEWLINE);
    if (last < 0) {
      carry = chunk;
      continue;
    }
    const out = Buffer.allocUnsafe(last + 1 + (suffix.length - 2) * countLines(chunk, last) + 64);
    let at = 0;
    let start = 0;
    while (start <= last) {
      const end = chunk.indexOf(NEWLINE, start);
      const tab = chunk.lastIndexOf(TAB, end);
      if (tab < start) throw new Error('a spooled line without its row number');
      at += chunk.copy(out, at, start, tab);
      at += suffix.copy(out, at);
      start = end + 1;
    }
    carry = last + 1 < chunk.length ? chunk.subarray(last + 1) : null;
    yield out.subarray(0, at);
  }
  if (carry && carry.length > 0) throw new Error('a spooled line without its end');
}

const NEWLINE = 0x0a;
const TAB = 0x09;

/** Lines ending in [0, last]. */
function countLines(chunk: Buffer, last: number): number {
  let n = 0;
  for (let i = chunk.indexOf(NEWLINE); i >= 0 && i <= last; i = chunk.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/**
 * Locks the tables an import fills against other writers (SHARE ROW EXCLUSIVE: conflicts with
 * itself and with any INSERT, UPDATE or DELETE, not with reads), in name order. Taken first in
 * the import's transaction: an import that first deletes (Update commands) and then asks for the
 * lock could otherwise deadlock with another one doing the same.
 */
export async function lockTargets(trx: Transaction<Database>, tables: string[]) {
  for (const table of [...new Set(tables)].sort())
    await sql.raw(`lock table ${quote(table)} in share row exclusive mode`).execute(trx);
}

/** Below this many rows to write, a sheet goes into the table's indexes as they are. */
const REBUILD_MIN_ROWS = 50_000;
/**
 * Up to this many stored rows per row added, building the indexes again beats maintaining them:
 * measured on fault_codes (psql, load 9-11), maintaining them costs ~59 s per 1,000,000 rows
 * added, building them ~14 s per 1,000,000 rows in the table after the load, so the break-even
 * is near 3 stored rows per added row.
 */
const REBUILD_MAX_RATIO = 2;

/**
 * Drops a table's indexes and unique constraints other than its primary key (and any a foreign
 * key depends on); returns the statements that build them again, constraints last.
 */
async function dropIndexes(
  trx: Transaction<Database>,
  table: string,
  /** Which to keep: e.g. those new rows append to (`appends`), worth it into a table that holds rows. */
  keep: (def: string, constraint: boolean) => boolean,
): Promise<{ again: string[]; deferred: { name: string; def: string }[] }> {
  const rows = await sql<{ name: string; def: string; constraint: string | null; condef: string | null }>`
    select i.relname as name, pg_get_indexdef(i.oid) as def, c.conname as constraint,
      pg_get_constraintdef(c.oid) as condef
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    left join pg_constraint c on c.conindid = x.indexrelid and c.conrelid = x.indrelid
    where x.indrelid = to_regclass(${table}) and not x.indisprimary
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = x.indexrelid)
    order by i.relname`.execute(trx);
  const again: string[] = [];
  const constraints: string[] = [];
  const deferred: { name: string; def: string }[] = [];
  for (const r of rows.rows) {
    if (keep(r.def, r.constraint !== null)) {
      // Maintained row by row for less than building it again (see the callers).
    } else if (r.constraint) {
      await sql.raw(`alter table ${quote(table)} drop constraint ${quote(r.constraint)}`).execute(trx);
      constraints.push(`alter table ${quote(table)} add constraint ${quote(r.constraint)} ${r.condef}`);
    } else {
      await sql.raw(`drop index ${quote(r.name)}`).execute(trx);
      // Trigram indexes: built after the commit (deferredIndexes.ts); the others now.
      if (GIN.test(r.def)) deferred.push({ name: r.name, def: r.def });
      else again.push(r.def);
    }
  }
  return { again: [...again, ...constraints], deferred };
}

/**
 * Whether new rows of an import land at the right-hand end of an index: a btree on `import_id`
 * (every new row has the newest import's id) or on one column then `id` (`(generic, id)`: the
 * end of each of its few groups), where PostgreSQL inserts on a cached page. 1,000,000 fault
 * codes COPYed into a table of 1,000,000, PostgreSQL's CPU (psql, load 10-11): keeping
 * `(generic, id)` and `(import_id)` 3.0 s for the COPY, against 1.5 s COPY + 2.9 s building them
 * over the 2,000,000 rows; into an empty table building them is cheaper (1.9 + 1.4 s against
 * 3.6 s), so there they are dropped with the others.
 */
function appends(def: string): boolean {
  return / USING btree \((?:import_id|\w+, id)\)$/i.test(def);
}

const quote = (name: string) => `"${name}"`;
const GIN = / USING gin /i;
