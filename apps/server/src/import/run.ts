import type { ImportKind, ImportPreview, RowProblem } from '@obd/contract';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, HttpError } from '../lib/errors.ts';
import { startImportHeartbeat } from '../lib/housekeeping.ts';
import { type AuditActor, recordAudit } from '../modules/audit/record.ts';
import {
  lockTargets,
  type SheetStream,
  type Streamed,
  streamSheet,
  writeSheetPostgres,
} from './bulkPostgres.ts';
import { buildDeferredIndexes } from './deferredIndexes.ts';
import { openWorkbook } from './formats/open.ts';
import type { SpreadsheetType, Workbook } from './formats/workbook.ts';
import type { ReceivedUpload } from './receive.ts';
import { finishImport, ProgressWriter, type StartedImport, startImport, trackProgress } from './record.ts';
import {
  Phases,
  RowProblems,
  type SheetPlan,
  type SheetStats,
  type StagedSheet,
  stageSheet,
} from './sheet.ts';
import { recordInsertedRows } from './undoable.ts';
import { releaseCache, writeSheet } from './writeSqlite.ts';

/**
 * One kind of upload (`modules/uploads/jobs/`): which files it takes, which sheets it reads, what
 * it does before writing and what it answers. What a job learns on the way — its form fields,
 * the duplicates it lists, the id of a make it creates — lives in its `Context`, made by `start`
 * and handed to every later step, never in variables the steps share behind the runner's back.
 */
export interface ImportJob<Answer, Context> {
  kind: ImportKind;
  accept: SpreadsheetType[];
  /** The context, from the request's form fields; a bad field is a 400 before the file is read. */
  start(fields: Record<string, string>): Context;
  /** The sheets to import and how, once the workbook is open; a missing sheet is a 400. */
  plan(workbook: Workbook, context: Context): { sheet: string; plan: SheetPlan }[];
  /**
   * Runs first inside the import transaction (e.g. deleting what the upload replaces, kept under
   * `importId` for its undo: `modules/uploads/undo.ts`).
   */
  beforeWrite?(trx: Transaction<Database>, context: Context, importId: number): Promise<void>;
  /** The answer of a successful import; its `stats` (or the whole answer) is what the history keeps. */
  answer(outcome: ImportOutcome, context: Context, db: Db): Promise<Answer> | Answer;
  /** What the history keeps of the answer: by default its `stats`, else the whole answer. */
  history?(answer: Answer): unknown;
}

export interface ImportOutcome {
  sheets: { sheet: string; plan: SheetPlan; stats: SheetStats }[];
  totalRows: number;
  inserted: number;
  /** Milliseconds from the end of the upload to now. */
  ms: number;
  rowsPerSecond: number;
  fileName: string;
  fileSize: number;
}

/** A failed upload: the sentence, plus the import record and row problems for the answer. */
export class UploadFailure extends HttpError {
  /** The error as it was thrown (a missing column's carries what a mapping needs). */
  readonly original: HttpError;
  constructor(
    cause: HttpError,
    readonly importId: number,
    readonly errors: RowProblem[],
  ) {
    super(cause.code, cause.message);
    this.original = cause;
  }
}

export interface UploadExtras {
  importId: number;
  errors: RowProblem[];
  duplicateOfImportId: number | null;
  warning?: string;
  preview?: ImportPreview;
}

/** How a run differs from a plain upload (issue 15: previews, their commit, every problem kept). */
export interface RunOptions {
  /** Read, check and write in a transaction that is rolled back: the figures, nothing written. */
  preview?: { expiresAt: string };
  /** The record to run under (a preview being imported) instead of a new one. */
  record?: StartedImport;
  /** Where the row problems go (a collector keeping every one); a fresh RowProblems if not given. */
  problems?: RowProblems;
  /**
   * Each sheet's plan as it will be used (e.g. with a column mapping and problem capture);
   * `stored` says whether its table held rows when reading began (only then can a row be a
   * database duplicate).
   */
  plan?(plan: SheetPlan, index: number, sheet: string, stored: boolean): SheetPlan;
  /** Told when reading ends and writing starts. */
  writing?(): void;
  /** Given: problem rows are stored after the answer, told before the final record says so. */
  problemsAfterAnswer?(importId: number): void;
}

/** Thrown at the end of a preview's transaction so that it rolls back. */
class PreviewRollback extends Error {}

const SERVER_FAILURE =
  'The import failed on the server, so nothing was imported. Try again; if it persists, tell the team.';

/**
 * Runs an upload end to end: records it, reads and checks every sheet (progress visible), then
 * writes everything in one transaction, and records the outcome. Any failure leaves the data
 * as it was and the record marked failed with its sentence.
 */
export async function runImport<Answer, Context>(
  db: Db,
  job: ImportJob<Answer, Context>,
  context: Context,
  upload: ReceivedUpload,
  operatorId: number,
  log: FastifyBaseLogger,
  /** Who uploaded, from where: the audit log's import event (the operator alone if not given). */
  actor: AuditActor = { operatorId, address: null, userAgent: null },
  options: RunOptions = {},
): Promise<Answer & UploadExtras> {
  const started = performance.now();
  const startedCpu = process.cpuUsage();
  const record =
    options.record ??
    (await startImport(db, {
      operatorId,
      kind: job.kind,
      fileName: upload.fileName,
      fileSize: upload.size,
      fileHash: upload.hash,
    }));
  const progress = new ProgressWriter(db, record.id);
  const untrack = trackProgress(record.id, progress);
  const stopHeartbeat = startImportHeartbeat(db, record.id);
  const problems = options.problems ?? new RowProblems();
  /** The audit log's import event: kind, file, size, hash, outcome and counts. */
  const importEvent = (outcome: 'succeeded' | 'failed', more: Record<string, unknown>) => ({
    action: 'import' as const,
    target: `import #${record.id}`,
    details: {
      kind: job.kind,
      fileName: upload.fileName,
      size: upload.size,
      hash: upload.hash,
      outcome,
      ...(record.duplicateOf ? { duplicateOf: record.duplicateOf.id } : {}),
      ...more,
    },
  });
  // Whether the final record says its problem rows are still to be stored (problemStore.ts).
  const problemsLater = () => {
    if (options.problemsAfterAnswer && problems.count > 0) options.problemsAfterAnswer(record.id);
    return options.problemsAfterAnswer !== undefined && problems.count > 0;
  };
  let workbook: Workbook | undefined;
  let totalRows = 0;
  let sheetOrder: string[] = [];
  try {
    workbook = await openWorkbook(upload.path, upload.fileName, job.accept);
    const sheets: { sheet: string; plan: SheetPlan }[] = [];
    for (const [i, { sheet, plan }] of job.plan(workbook, context).entries())
      sheets.push({
        sheet,
        plan: options.plan ? options.plan(plan, i, sheet, await holdsRows(db, plan.target.table)) : plan,
      });
    sheetOrder = sheets.map((s) => s.plan.label);

    const staged: (StagedSheet & { sheet: string })[] = [];
    const phases = new Phases();
    let read = 0;
    /** Reads, checks and spools every sheet (pass 1); `stream` also gets each batch as it is spooled. */
    const readAll = async (stream?: SheetStream) => {
      for (const [i, { sheet, plan }] of sheets.entries()) {
        const before = totalRows;
        const s = await stageSheet((workbook as Workbook).read(sheet), plan, {
          dir: upload.dir,
          problems,
          format: db.dialect === 'postgres' ? 'copy' : 'json',
          onProgress: (rows, fraction) =>
            progress.update(before + rows, (50 * (i + fraction)) / sheets.length),
          ...(stream ? { onBatch: (bytes: Buffer, rows: number) => stream.batch(bytes, rows) } : {}),
        });
        totalRows += s.stats.totalRows;
        staged.push({ ...s, sheet });
      }
      await (workbook as Workbook).close();
      workbook = undefined;

      if (totalRows === 0) {
        throw badRequest(
          sheets.length > 1
            ? 'The workbook has no data rows: every sheet is empty or holds only its header row.'
            : `The sheet '${sheets[0]?.sheet}' has no data rows: it is empty or holds only its header row.`,
        );
      }
      const toWrite = staged.reduce((n, s) => n + s.accepted, 0);
      if (toWrite === 0) {
        throw badRequest(
          `None of the ${totalRows} data row${totalRows === 1 ? '' : 's'} can be imported (see the row problems), so nothing was changed.`,
        );
      }
      read = performance.now();
      const readCpu = process.cpuUsage(startedCpu);
      phases.ms.read = Math.round(read - started);
      phases.cpuMs.read = Math.round((readCpu.user + readCpu.system) / 1000);
      options.writing?.();
      progress.update(totalRows, 50, 'writing', toWrite);
      // On SQLite the transaction holds the only connection: progress waits (see ProgressWriter).
      if (db.dialect === 'sqlite') {
        await progress.flush();
        progress.hold(true);
      }
      phases.start();
    };

    let written = 0;
    /** Indexes dropped for the load, to be built after the commit (deferredIndexes.ts). */
    let deferred = 0;
    /** Pass 2, in the import's transaction; `streamed`: what went to COPY while the sheet was read. */
    const writeAll = async (trx: Transaction<Database>, streamed?: Streamed) => {
      const toWrite = staged.reduce((n, s) => n + s.accepted, 0);
      // PostgreSQL: the tables filled, locked against writers in one order (no deadlock, exact duplicates).
      if (db.dialect === 'postgres')
        await lockTargets(
          trx,
          staged.map((s) => s.plan.target.table),
        );
      phases.mark('lock');
      await job.beforeWrite?.(trx, context, record.id);
      phases.mark('before write');
      for (const s of staged) {
        const base = written;
        if (db.dialect === 'postgres')
          deferred += (
            await writeSheetPostgres(trx, s, {
              importId: record.id,
              problems,
              keepIndexes: options.preview !== undefined,
              phases,
              ...(streamed ? { streamed } : {}),
              onProgress: (n, f) => progress.update(base + n, 50 + (50 * (base + f * s.accepted)) / toWrite),
            })
          ).deferred;
        else
          await writeSheet(trx, db.dialect, s, {
            importId: record.id,
            problems,
            phases,
            onProgress: (n) => progress.update(base + n, 50 + (50 * (base + n)) / toWrite),
          });
        written += s.accepted;
      }
      await recordInsertedRows(
        trx,
        record.id,
        staged.reduce((n, s) => n + s.stats.inserted, 0),
      );
      phases.mark('record rows');
      // A preview has its figures: nothing of it stays.
      if (options.preview) throw new PreviewRollback();
      // Last in the import's transaction: the rows and their audit event commit together.
      await recordAudit(
        trx,
        actor,
        importEvent('succeeded', {
          counts: {
            rows: totalRows,
            written,
            inserted: staged.reduce((n, s) => n + s.stats.inserted, 0),
            problems: problems.count,
          },
        }),
      );
      phases.mark('record and audit');
    };

    const only = sheets.length === 1 ? sheets[0] : undefined;
    if (db.dialect === 'postgres' && !options.preview && !job.beforeWrite && only) {
      // PostgreSQL, one sheet: its rows go to COPY while the file is read (streamSheet), so the
      // transaction and the table's lock are taken before the first row is read. Not for a
      // preview (it keeps the indexes: nobody waits for a look) nor a job that writes first.
      await db.kysely.transaction().execute(async (trx) => {
        const stream = await streamSheet(trx, only.plan, record.id);
        try {
          await readAll(stream);
        } catch (error) {
          await stream.abort(error as Error);
          throw error;
        }
        const streamed = await stream.end();
        phases.mark('rest of the COPY');
        await writeAll(trx, streamed);
      });
    } else {
      await readAll();
      await db.kysely
        .transaction()
        .execute((trx) => writeAll(trx))
        .catch((error) => {
          if (!(error instanceof PreviewRollback)) throw error;
        });
    }
    const toWrite = staged.reduce((n, s) => n + s.accepted, 0);
    phases.mark(options.preview ? 'rollback' : 'commit');
    if (deferred > 0) void buildDeferredIndexes(db, log);
    else await releaseCache(db, toWrite);
    progress.hold(false);
    log.info(
      {
        importId: record.id,
        rows: totalRows,
        readMs: Math.round(read - started),
        writeMs: Math.round(performance.now() - read),
        phases: phases.ms,
      },
      'import written',
    );

    const ms = Math.round(performance.now() - started);
    const outcome: ImportOutcome = {
      sheets: staged.map((s) => ({ sheet: s.sheet, plan: s.plan, stats: s.stats })),
      totalRows,
      inserted: staged.reduce((n, s) => n + s.stats.inserted, 0),
      ms,
      rowsPerSecond: Math.round(totalRows / Math.max(ms / 1000, 0.001)),
      fileName: upload.fileName,
      fileSize: upload.size,
    };
    const answer = await job.answer(outcome, context, db);
    const preview = options.preview && {
      expiresAt: options.preview.expiresAt,
      sheets: previewSheets(outcome),
    };
    if (preview) (answer as { message?: string }).message = previewMessage(preview);
    await progress.settle();
    await finishImport(db, record.id, {
      status: preview ? 'preview' : 'succeeded',
      rowsProcessed: totalRows,
      stats: job.history ? job.history(answer) : ((answer as { stats?: unknown }).stats ?? answer),
      errors: problems.sorted(sheetOrder),
      errorCount: problems.count,
      message: (answer as { message?: string }).message ?? 'Imported.',
      problemsStoring: problemsLater(),
    });
    phases.mark('answer and record');
    log.info(
      {
        importId: record.id,
        ms: Math.round(performance.now() - started),
        phases: phases.ms,
        cpu: phases.cpuMs,
      },
      'import finished',
    );
    return {
      ...answer,
      importId: record.id,
      errors: problems.sorted(sheetOrder),
      duplicateOfImportId: record.duplicateOf?.id ?? null,
      ...(record.duplicateOf ? { warning: duplicateWarning(record.duplicateOf) } : {}),
      ...(preview ? { preview } : {}),
    };
  } catch (error) {
    progress.hold(false);
    await progress.settle();
    const known = error instanceof HttpError;
    if (!known) log.error({ err: error, importId: record.id }, 'import failed');
    await finishImport(db, record.id, {
      status: 'failed',
      rowsProcessed: totalRows,
      stats: null,
      errors: problems.sorted(sheetOrder),
      errorCount: problems.count,
      message: known ? error.message : SERVER_FAILURE,
      problemsStoring: problemsLater(),
    }).catch((e) => log.error({ err: e, importId: record.id }, 'could not record the failed import'));
    await recordAudit(
      db.kysely,
      actor,
      importEvent('failed', {
        message: known ? error.message : SERVER_FAILURE,
        counts: { rows: totalRows, problems: problems.count },
      }),
    ).catch((e) =>
      log.error({ err: e, importId: record.id }, 'could not record the failed import in the audit log'),
    );
    const cause = known ? error : new HttpError('INTERNAL', SERVER_FAILURE);
    throw new UploadFailure(cause, record.id, problems.sorted(sheetOrder));
  } finally {
    stopHeartbeat();
    untrack();
    await workbook?.close();
  }
}

/** Whether `table` holds any row. */
async function holdsRows(db: Db, table: keyof Database & string): Promise<boolean> {
  const found = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(
    db.kysely,
  );
  return found.rows.length > 0;
}

/** A preview's figures per sheet: what the import would do with its rows. */
function previewSheets(outcome: ImportOutcome): ImportPreview['sheets'] {
  return outcome.sheets.map(({ plan, stats }) => ({
    sheet: plan.label,
    totalRows: stats.totalRows,
    newRows: stats.inserted,
    inFileDuplicates: stats.inFile,
    databaseDuplicates: stats.inDatabase,
    invalidRows: stats.invalid,
  }));
}

function previewMessage(preview: ImportPreview): string {
  const sum = (k: 'totalRows' | 'newRows') => preview.sheets.reduce((n, s) => n + s[k], 0);
  const rows = sum('totalRows');
  const added = sum('newRows');
  return `Nothing was written yet: importing this file would add ${added.toLocaleString('en-US')} of its ${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'}. Import it or cancel.`;
}

function duplicateWarning(previous: { id: number; finishedAt: string | null }) {
  const when = previous.finishedAt ? ` on ${previous.finishedAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  return `This file was already imported${when} (import #${previous.id}). Rows that were imported then count as duplicates now.`;
}
