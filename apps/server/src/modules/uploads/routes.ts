import multipart from '@fastify/multipart';
import {
  activationCodesResponseSchema,
  type ColumnMapping,
  faultCodesResponseSchema,
  faultWorkbookResponseSchema,
  IMPORTS_PATH,
  type ImportKind,
  type ImportPreview,
  importDetailSchema,
  importHistoryQuerySchema,
  importHistorySchema,
  importIdParamsSchema,
  UPLOAD_LIMITS,
  UPLOAD_PATHS,
  updateCommandsResponseSchema,
  uploadQuerySchema,
} from '@obd/contract';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { currentOperator } from '../../auth/plugin.ts';
import type { Db } from '../../db/database.ts';
import { ColumnsMissing } from '../../import/columns.ts';
import type { SpreadsheetType } from '../../import/formats/workbook.ts';
import { prewarmXlsxWorker } from '../../import/formats/xlsx/workers.ts';
import { keepPreview } from '../../import/previews.ts';
import { type ReceivedUpload, receiveUpload, tooLarge } from '../../import/receive.ts';
import { liveProgress, recordRefusal } from '../../import/record.ts';
import {
  type ImportJob,
  type RunOptions,
  runImport,
  type UploadExtras,
  UploadFailure,
} from '../../import/run.ts';
import { errorAnswer, SERVER_ERROR } from '../../lib/errorHandler.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { type AuditActor, actorOf, recordAudit } from '../audit/record.ts';
import { importFlowRoutes, parseMapping, runWithProblems } from './flow.ts';
import { activationCodesJob } from './jobs/activationCodes.ts';
import { faultCodesJob } from './jobs/faultCodes.ts';
import { faultWorkbookJob } from './jobs/faultWorkbook.ts';
import { updateCommandsJob } from './jobs/updateCommands.ts';
import { findImport, listImports } from './repository.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Largest upload a route accepts, in bytes. */
    uploadLimit?: number;
  }
}

/** An upload whose job has read its form fields: ready to run on the received file. */
export type StartedImport = (
  db: Db,
  upload: ReceivedUpload,
  operatorId: number,
  log: FastifyBaseLogger,
  actor: AuditActor,
  options?: RunOptions,
) => Promise<UploadExtras>;

export interface UploadRoute {
  path: string;
  kind: ImportKind;
  limit: number;
  response: z.ZodType;
  /** The file types its job reads. */
  accept: SpreadsheetType[];
  /** Starts the route's job on the request's form fields (a 400 for a bad one). */
  start(fields: Record<string, string>): StartedImport;
}

/** A route of `job`: its context is made from the form fields and handed to the run. */
function uploadRoute<Answer, Context>(
  route: Omit<UploadRoute, 'start' | 'kind' | 'accept'> & { job: ImportJob<Answer, Context> },
): UploadRoute {
  const { job, ...rest } = route;
  return {
    ...rest,
    kind: job.kind,
    accept: job.accept,
    start(fields) {
      const context = job.start(fields);
      return (db, upload, operatorId, log, actor, options) =>
        runImport(db, job, context, upload, operatorId, log, actor, options);
    },
  };
}

export const UPLOADS: UploadRoute[] = [
  uploadRoute({
    path: UPLOAD_PATHS.updateCommands,
    limit: UPLOAD_LIMITS.updateCommands,
    response: updateCommandsResponseSchema,
    job: updateCommandsJob,
  }),
  uploadRoute({
    path: UPLOAD_PATHS.faultWorkbook,
    limit: UPLOAD_LIMITS.faultWorkbook,
    response: faultWorkbookResponseSchema,
    job: faultWorkbookJob,
  }),
  uploadRoute({
    path: UPLOAD_PATHS.faultCodes,
    limit: UPLOAD_LIMITS.faultCodes,
    response: faultCodesResponseSchema,
    job: faultCodesJob,
  }),
  uploadRoute({
    path: UPLOAD_PATHS.activationCodes,
    limit: UPLOAD_LIMITS.activationCodes,
    response: activationCodesResponseSchema,
    job: activationCodesJob,
  }),
];

/** Uploads from this size on start an xlsx reading worker early (a sheet of ~16 MB of XML zips to ~2 MB). */
const PREWARM_MIN_BYTES = 2 * 1024 * 1024;

/**
 * Errors of the upload routes: JSON `{error, code}` like everywhere, plus the same sentence in
 * `message` (upload clients read it, decisions §1), the import id and row problems when the
 * upload got that far, and `success: false` on the Bulk Uploader, whose answer has `success`.
 */
function uploadErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // A file over the route's limit, however the multipart reader noticed it, gets the limit's sentence.
  const tooBig = error.code === 'FST_REQ_FILE_TOO_LARGE' || error.statusCode === 413;
  const known =
    tooBig && !(error instanceof HttpError) ? tooLarge(request.routeOptions.config.uploadLimit ?? 0) : error;
  const { status, body } = errorAnswer(known as FastifyError, request);
  const answer: Record<string, unknown> = { ...body, message: body.error };
  if (request.routeOptions.url === UPLOAD_PATHS.faultWorkbook) answer.success = false;
  if (error instanceof UploadFailure) {
    answer.importId = error.importId;
    answer.errors = error.errors;
    if (error.original instanceof ColumnsMissing) answer.mapping = error.original.mapping;
  }
  return reply.code(status).send(answer);
}

/**
 * An upload refused before its import started, recorded in the history; the answer names the
 * record like any failed import's. An unexpected error is recorded with the generic sentence
 * and answered as it would have been.
 */
async function refused(
  db: Db,
  error: unknown,
  upload: {
    operatorId: number;
    kind: ImportKind;
    fileName: string;
    fileSize: number;
    log: FastifyBaseLogger;
    actor: AuditActor;
  },
): Promise<unknown> {
  const known = error instanceof HttpError ? error : null;
  const { actor, log, ...refusal } = upload;
  const message = known?.message ?? SERVER_ERROR;
  try {
    // The record and its audit event together, like every import's.
    const importId = await db.kysely.transaction().execute(async (trx) => {
      const id = await recordRefusal(trx, { ...refusal, message });
      await recordAudit(trx, actor, {
        action: 'import',
        target: `import #${id}`,
        details: {
          kind: refusal.kind,
          fileName: refusal.fileName,
          size: refusal.fileSize,
          outcome: 'refused',
          message,
        },
      });
      return id;
    });
    return known ? new UploadFailure(known, importId, []) : error;
  } catch (e) {
    log.error({ err: e }, 'could not record a refused upload');
    return error;
  }
}

/**
 * The four upload endpoints (editor role; multipart `file`, streamed under each one's limit)
 * and the import history with progress polling (every signed-in operator).
 */
export function uploadRoutes(app: FastifyInstance, db: Db) {
  importFlowRoutes(app, db, UPLOADS);
  app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    scope.setErrorHandler(uploadErrorHandler);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    for (const upload of UPLOADS) {
      r.post(
        upload.path,
        {
          config: { role: 'editor', uploadLimit: upload.limit },
          schema: { querystring: uploadQuerySchema, response: { 200: upload.response } },
        },
        async (request) => {
          const preview = request.query.preview;
          const operator = currentOperator(request);
          const size = Number(request.headers['content-length'] ?? 0);
          let fileName = '';
          let received: ReceivedUpload | undefined;
          let started: StartedImport;
          let mapping: ColumnMapping | undefined;
          try {
            received = await receiveUpload(request, upload.limit, {
              onFileStart: (name) => {
                fileName = name.split(/[\\/]/).pop() ?? '';
                // A big .xlsx will want a reading worker: start it while the file streams in.
                if (size >= PREWARM_MIN_BYTES && /\.xlsx$/i.test(name)) prewarmXlsxWorker();
              },
            });
            mapping = parseMapping(received.fields.mapping);
            started = upload.start(received.fields);
          } catch (error) {
            await received?.remove();
            throw await refused(db, error, {
              operatorId: operator.id,
              kind: upload.kind,
              fileName: received?.fileName ?? fileName,
              fileSize: received?.size ?? size,
              log: request.log,
              actor: actorOf(request),
            });
          }
          let kept = false;
          try {
            const run = {
              db,
              upload,
              started,
              operatorId: operator.id,
              log: request.log,
              actor: actorOf(request),
            };
            if (!preview) return await runWithProblems(run, received, { mapping });
            const answer = await runWithProblems(run, received, { mapping, preview: true });
            const expiresAt = await keepPreview(db, answer.importId, operator.id, received);
            kept = true;
            return { ...answer, preview: { ...(answer.preview as ImportPreview), expiresAt } };
          } finally {
            // A preview's file stays for its "Import"; every other upload's goes now.
            if (!kept) await received.remove();
          }
        },
      );
    }
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    IMPORTS_PATH,
    { schema: { querystring: importHistoryQuerySchema, response: { 200: importHistorySchema } } },
    async (request) => listImports(db, request.query),
  );
  r.get(
    `${IMPORTS_PATH}/:id`,
    { schema: { params: importIdParamsSchema, response: { 200: importDetailSchema } } },
    async (request) => {
      const found = await findImport(db, request.params.id);
      if (!found) throw notFound(`There is no import #${request.params.id}.`);
      // Running here: its latest figures, also while a write transaction keeps them from the record.
      const live = found.status === 'running' ? liveProgress(found.id) : undefined;
      return live ? { ...found, ...live } : found;
    },
  );
}
