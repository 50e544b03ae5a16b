import fs from 'node:fs';
import {
  activationCodesResponseSchema,
  type ColumnMapping,
  columnMappingSchema,
  errorBodySchema,
  faultCodesResponseSchema,
  faultWorkbookResponseSchema,
  importCancelledSchema,
  importIdParamsSchema,
  updateCommandsResponseSchema,
} from '@obd/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentOperator } from '../../auth/plugin.ts';
import type { Db } from '../../db/database.ts';
import { ColumnsMissing } from '../../import/columns.ts';
import {
  cancelPreview,
  claimPreview,
  expirePreviews,
  previewDifference,
  rememberedMapping,
  rememberMapping,
} from '../../import/previews.ts';
import { expectStore } from '../../import/problemStore.ts';
import { ProblemCollector } from '../../import/problems.ts';
import type { ReceivedUpload } from '../../import/receive.ts';
import type { StartedImport as StartedRecord } from '../../import/record.ts';
import { type UploadExtras, UploadFailure } from '../../import/run.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { type AuditActor, actorOf } from '../audit/record.ts';
import { problemsFileRoutes } from './problemsFile.ts';
import type { StartedImport, UploadRoute } from './routes.ts';

/*
 * Issue 15, the flow around an import: previews and their commit or cancel, the problems file,
 * and the column mapping (the upload routes themselves are in routes.ts).
 */

/** The multipart field `mapping`, validated: JSON of field key → header. */
export function parseMapping(raw: string | undefined): ColumnMapping | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(
      'The mapping field must be JSON like {"dtc": "Code column"}: field name → the file\'s column header.',
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw badRequest("The mapping field must be a JSON object of field name → the file's column header.");
  const parsed = columnMappingSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (at "${String(issue.path[0]).slice(0, 60)}")` : '';
    throw badRequest(`The mapping is not valid${where}: ${issue?.message ?? 'not valid'}.`);
  }
  const headers = Object.values(parsed.data).map((h) => h.toLowerCase());
  if (new Set(headers).size !== headers.length)
    throw badRequest(
      'The mapping reads two fields from the same column; choose a different column for each.',
    );
  return parsed.data;
}

export interface Run {
  db: Db;
  upload: UploadRoute;
  started: StartedImport;
  operatorId: number;
  log: FastifyBaseLogger;
  actor: AuditActor;
}

/**
 * Runs an upload's import keeping every problem row for the problems file, applying and
 * remembering the column mapping, and answering with a missing column's remembered mapping.
 *
 * The problem rows are stored after this returns (import/problemStore.ts: the record says so
 * meanwhile, and the problems file waits for them); a preview's before (its import replaces them).
 */
export async function runWithProblems(
  run: Run,
  file: Pick<ReceivedUpload, 'path' | 'dir' | 'fileName' | 'size' | 'hash' | 'fields' | 'remove'>,
  options: { mapping?: ColumnMapping; preview?: boolean; record?: StartedRecord },
): Promise<UploadExtras> {
  const { db, upload, log } = run;
  const collector = new ProblemCollector(options.mapping, file.dir);
  let importId: number | undefined;
  let storeLater: ((store: () => Promise<void>) => Promise<void>) | undefined;
  try {
    const answer = await run.started(db, file as ReceivedUpload, run.operatorId, log, run.actor, {
      problems: collector,
      plan: (plan, i, sheet, stored) => collector.wrap(plan, i, sheet, stored),
      writing: () => collector.writing(),
      ...(options.preview ? { preview: { expiresAt: '' } } : {}),
      ...(options.record ? { record: options.record } : {}),
      ...(!options.preview
        ? { problemsAfterAnswer: (id: number) => (storeLater ??= expectStore(db, id, log)) }
        : {}),
    });
    importId = answer.importId;
    for (const used of collector.used)
      await rememberMapping(db, upload.kind, used.headers, used.mapped, run.operatorId).catch((error) =>
        log.warn({ err: error }, 'could not remember a column mapping'),
      );
    return answer;
  } catch (error) {
    if (error instanceof UploadFailure) {
      importId = error.importId;
      const missing = error.original;
      if (missing instanceof ColumnsMissing)
        missing.remembered = await rememberedMapping(
          db,
          upload.kind,
          missing.headers,
          missing.fields.map((f) => f.key),
        ).catch(() => null);
    }
    throw error;
  } finally {
    if (importId !== undefined && collector.count > 0) {
      const id = importId;
      // Everything the store needs from the upload's folder, taken now: the folder goes with the answer.
      const failed = await collector
        .prepare({ path: file.path, fileName: file.fileName, accept: upload.accept })
        .then(
          () => null,
          (error: unknown) => error,
        );
      const store = () => (failed ? Promise.reject(failed) : collector.write(db, id));
      // After the answer, the runner logs a failure and marks the rows unavailable (problemStore.ts).
      if (storeLater) void storeLater(store);
      else
        await store().catch((error) =>
          log.error({ err: error, importId }, 'could not keep the problem rows'),
        );
    } else storeLater?.(() => Promise.reject(new Error('the import ended without a record to store under')));
  }
}

/** The commit answers as the upload of its kind would. */
const commitResponseSchema = z.union([
  faultWorkbookResponseSchema,
  activationCodesResponseSchema,
  faultCodesResponseSchema,
  updateCommandsResponseSchema,
]);

const PREVIEW_SWEEP_MS = 60 * 1000;

export function importFlowRoutes(app: FastifyInstance, db: Db, uploads: UploadRoute[]) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Previews whose time is over go, with their files, on every server (a commit checks the time too).
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      expirePreviews(db).catch((error) => app.log.warn({ err: error }, 'could not expire previews'));
    }, PREVIEW_SWEEP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));

  r.post(
    '/api/imports/:id/commit',
    {
      config: { role: 'editor' },
      schema: { params: importIdParamsSchema, response: { 200: commitResponseSchema, 410: errorBodySchema } },
    },
    async (request) => {
      const operator = currentOperator(request);
      const claimed = await claimPreview(db, request.params.id, operator);
      const upload = uploads.find((u) => u.kind === claimed.kind);
      const remove = () => fs.promises.rm(claimed.file.dir, { recursive: true, force: true });
      try {
        if (!upload) throw notFound(`Imports of kind ${claimed.kind} are no longer supported.`);
        const started = upload.start(claimed.fields);
        const mapping = parseMapping(claimed.fields.mapping);
        const answer = await runWithProblems(
          { db, upload, started, operatorId: operator.id, log: request.log, actor: actorOf(request) },
          { ...claimed.file, fields: claimed.fields, remove },
          { mapping, record: claimed.record },
        );
        const kept = await db.kysely
          .selectFrom('imports')
          .select('stats')
          .where('id', '=', claimed.record.id)
          .executeTakeFirst();
        const changed = previewDifference(claimed.previewStats, kept?.stats ? JSON.parse(kept.stats) : null);
        // The answer is the job's, checked against its kind's schema when sent.
        return (changed ? { ...answer, previewChanged: changed } : answer) as z.infer<
          typeof commitResponseSchema
        >;
      } finally {
        await remove();
      }
    },
  );

  r.delete(
    '/api/imports/:id',
    {
      config: { role: 'editor' },
      schema: {
        params: importIdParamsSchema,
        response: { 200: importCancelledSchema, 410: errorBodySchema },
      },
    },
    async (request) => {
      await cancelPreview(db, request.params.id, currentOperator(request));
      return {
        id: request.params.id,
        message: 'Preview cancelled; nothing was written and its file is gone.',
      };
    },
  );

  problemsFileRoutes(app, db);
}
