import type { ImportKind, ImportPhase, RowProblem } from '@obd/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { isoNow } from '../lib/time.ts';
import { failInterruptedStores, PROBLEMS_STORING } from './problemStore.ts';

/** The progress figures of a running import, as the import record carries them. */
export interface LiveProgress {
  phase: ImportPhase;
  progress: number;
  rowsProcessed: number;
  rowsTotal: number | null;
}

/** The imports running in this process, by record id (see ProgressWriter). */
const running = new Map<number, ProgressWriter>();

/** Follows a running import's figures until `untrack`. */
export function trackProgress(id: number, writer: ProgressWriter) {
  running.set(id, writer);
  return () => {
    if (running.get(id) === writer) running.delete(id);
  };
}

/** The in-memory figures of an import running in this process, if it is one. */
export function liveProgress(id: number): LiveProgress | undefined {
  return running.get(id)?.live();
}

/** How often a running import writes its progress, at most. */
const PROGRESS_INTERVAL_MS = 250;

export interface StartedImport {
  id: number;
  duplicateOf: { id: number; finishedAt: string | null } | null;
}

/** Records a new upload as running and finds the last successful import of the same file, if any. */
export async function startImport(
  db: Db,
  values: { operatorId: number; kind: ImportKind; fileName: string; fileSize: number; fileHash: string },
): Promise<StartedImport> {
  const k = db.kysely;
  const previous = await k
    .selectFrom('imports')
    .select(['id', 'finished_at'])
    .where('file_hash', '=', values.fileHash)
    .where('kind', '=', values.kind)
    .where('status', '=', 'succeeded')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const row = await k
    .insertInto('imports')
    .values({
      operator_id: values.operatorId,
      kind: values.kind,
      file_name: values.fileName.slice(0, 255),
      file_size: values.fileSize,
      file_hash: values.fileHash,
      status: 'running',
      phase: 'reading',
      rows_processed: 0,
      started_at: isoNow(),
      duplicate_of: previous?.id ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    id: Number(row.id),
    duplicateOf: previous ? { id: Number(previous.id), finishedAt: previous.finished_at } : null,
  };
}

/**
 * Records an upload refused before its import could start (too large, not multipart, no file,
 * a bad form field): the history lists every upload (issue 5), these included. Only what was
 * learnt before the refusal is known: the file name (if the file part began), the size (of the
 * file, else of the request) and no hash.
 */
export async function recordRefusal(
  db: Kysely<Database>,
  values: { operatorId: number; kind: ImportKind; fileName: string; fileSize: number; message: string },
): Promise<number> {
  const now = isoNow();
  const row = await db
    .insertInto('imports')
    .values({
      operator_id: values.operatorId,
      kind: values.kind,
      file_name: values.fileName.slice(0, 255),
      file_size: values.fileSize,
      file_hash: '',
      status: 'failed',
      phase: 'done',
      progress: 100,
      rows_processed: 0,
      errors: '[]',
      message: values.message.slice(0, 2000),
      started_at: now,
      finished_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Progress of a running import, written to its record so a client can poll it. Writes are
 * throttled, never awaited by the import and never more than one in flight, and they are
 * always outside the import's own transaction:
 *
 * - PostgreSQL: the transaction holds one pooled connection and these updates use another, so
 *   they are seen at once while the import writes. The import transaction never locks the
 *   record's row beyond FOR KEY SHARE (activation_codes.import_id), which an UPDATE of
 *   non-key columns does not wait for.
 * - SQLite: there is one connection that writes, and an open transaction holds it: an update
 *   sent then would only queue behind the transaction (or, on a second connection, fail with
 *   SQLITE_BUSY while blocking the event loop). So progress is written while the file is read
 *   and checked, when no transaction is open, and paused (`hold`) while the transaction writes.
 *   During that phase a poll reads the record through `Db.reader` and takes the figures from
 *   the writer itself (`liveProgress`): the import runs in this very process.
 */
export class ProgressWriter {
  private rows = 0;
  private percent = 0;
  private phase: ImportPhase = 'reading';
  private rowsTotal: number | null = null;
  private lastWrite = 0;
  private inFlight: Promise<void> | null = null;
  private dirty = false;
  private held = false;

  constructor(
    private readonly db: Db,
    private readonly id: number,
  ) {}

  /** The latest figures, written or not. */
  live(): LiveProgress {
    return { phase: this.phase, progress: this.percent, rowsProcessed: this.rows, rowsTotal: this.rowsTotal };
  }

  /** Pauses (true) or resumes writes; see the class comment. */
  hold(held: boolean) {
    this.held = held;
  }

  update(rows: number, percent: number, phase?: ImportPhase, rowsTotal?: number | null) {
    this.rows = rows;
    this.percent = Math.max(0, Math.min(99, Math.floor(percent)));
    if (phase) this.phase = phase;
    if (rowsTotal !== undefined) this.rowsTotal = rowsTotal;
    this.dirty = true;
    const now = Date.now();
    if (this.held || this.inFlight || now - this.lastWrite < PROGRESS_INTERVAL_MS) return;
    this.flush();
  }

  /** Writes the latest figures now (unless held); the promise settles when written. */
  flush(): Promise<void> {
    if (this.held || !this.dirty) return this.inFlight ?? Promise.resolve();
    if (this.inFlight) return this.inFlight.then(() => this.flush());
    this.dirty = false;
    this.lastWrite = Date.now();
    this.inFlight = this.db.kysely
      .updateTable('imports')
      .set({
        rows_processed: this.rows,
        progress: this.percent,
        phase: this.phase,
        rows_total: this.rowsTotal,
      })
      .where('id', '=', this.id)
      .where('status', '=', 'running')
      .execute()
      .then(
        () => {},
        () => {}, // progress is best effort; the final record is what counts
      )
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  /** Waits for a write in flight, so the final record is never overwritten by a late progress. */
  async settle() {
    this.dirty = false;
    await this.inFlight;
  }
}

export async function finishImport(
  db: Db,
  id: number,
  outcome: {
    status: 'succeeded' | 'failed' | 'preview';
    rowsProcessed: number;
    stats: unknown;
    errors: RowProblem[];
    errorCount: number;
    message: string;
    /** Its problem rows are to be stored after the answer (problemStore.ts): the record says so. */
    problemsStoring?: boolean;
  },
) {
  await db.kysely
    .updateTable('imports')
    .set({
      status: outcome.status,
      phase: 'done',
      progress: 100,
      rows_processed: outcome.rowsProcessed,
      stats: outcome.stats === null ? null : JSON.stringify(outcome.stats),
      errors: JSON.stringify(outcome.errors),
      error_count: outcome.errorCount,
      message: outcome.message.slice(0, 2000),
      finished_at: isoNow(),
      ...(outcome.problemsStoring ? { problem_columns: PROBLEMS_STORING } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** What an import whose server stopped before it finished is recorded as. */
export const interrupted = () => ({
  status: 'failed',
  phase: 'done',
  message:
    'The server stopped before this import finished, so nothing of it was imported. Upload the file again.',
  finished_at: isoNow(),
});

/**
 * Marks imports left `running` by a server that stopped mid-import as failed (their
 * transaction never committed, so nothing of them was written). SQLite has one server process,
 * so every running import at start is such a one; PostgreSQL may be shared by several
 * processes, so there only imports running for over an hour count.
 */
export async function failInterruptedImports(db: Db) {
  let query = db.kysely.updateTable('imports').set(interrupted()).where('status', '=', 'running');
  if (db.dialect === 'postgres')
    query = query.where('started_at', '<', new Date(Date.now() - 60 * 60 * 1000).toISOString());
  await query.execute();
  if (db.dialect === 'sqlite') await failInterruptedStores(db);
}
