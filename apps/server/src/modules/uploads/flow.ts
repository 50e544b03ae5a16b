import fs from 'node:fs';
import {
  activationCodesResponseSchema,
  type ColumnMapping,
  columnMappingSchema,
  errorBodySchema,
  exportTicketSchema,
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
import type { ExportColumn } from '../../export/columns.ts';
import { consumeTicket, issueTicket } from '../../export/tickets.ts';
import { xlsxStream } from '../../export/xlsx.ts';
import { ColumnsMissing } from '../../import/columns.ts';
import {
  cancelPreview,
  claimPreview,
  expirePreviews,
  previewDifference,
  rememberedMapping,
  rememberMapping,
} from '../../import/previews.ts';
import { ProblemCollector, storedProblems } from '../../import/problems.ts';
import type { ReceivedUpload } from '../../import/receive.ts';
import type { StartedImport as StartedRecord } from '../../import/record.ts';
import { type UploadExtras, UploadFailure } from '../../import/run.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { type AuditActor, actorOf, recordAudit } from '../audit/record.ts';
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
 */
export async function runWithProblems(
  run: Run,
  file: Pick<ReceivedUpload, 'path' | 'dir' | 'fileName' | 'size' | 'hash' | 'fields' | 'remove'>,
  options: { mapping?: ColumnMapping; preview?: boolean; record?: StartedRecord },
): Promise<UploadExtras> {
  const { db, upload, log } = run;
  const collector = new ProblemCollector(options.mapping, file.dir);
  let importId: number | undefined;
  try {
    const answer = await run.started(db, file as ReceivedUpload, run.operatorId, log, run.actor, {
      problems: collector,
      plan: (plan, i, sheet, stored) => collector.wrap(plan, i, sheet, stored),
      writing: () => collector.writing(),
      ...(options.preview ? { preview: { expiresAt: '' } } : {}),
      ...(options.record ? { record: options.record } : {}),
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
    if (importId !== undefined && collector.count > 0)
      await collector
        .store(db, importId, { path: file.path, fileName: file.fileName, accept: upload.accept })
        .catch((error) => log.error({ err: error, importId }, 'could not keep the problem rows'));
  }
}

/** The commit answers as the upload of its kind would. */
const commitResponseSchema = z.union([
  faultWorkbookResponseSchema,
  activationCodesResponseSchema,
  faultCodesResponseSchema,
  updateCommandsResponseSchema,
]);

const PROBLEMS_LIST = 'import-problems';
const PREVIEW_SWEEP_MS = 60 * 1000;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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
        const answer = await runWithProblems(
          { db, upload, started, operatorId: operator.id, log: request.log, actor: actorOf(request) },
          { ...claimed.file, fields: claimed.fields, remove },
          { mapping: parseMapping(claimed.fields.mapping), record: claimed.record },
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

  // The problems file: a single-use link (like exports), then the .xlsx through it.
  r.post(
    '/api/imports/:id/problems',
    { schema: { params: importIdParamsSchema, response: { 201: exportTicketSchema } } },
    async (request, reply) => {
      const found = await db.kysely
        .selectFrom('imports')
        .select('id')
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!found) throw notFound(`There is no import #${request.params.id}.`);
      const operator = currentOperator(request);
      const ticket = await issueTicket(
        db.kysely,
        { operatorId: operator.id, sessionId: operator.sessionId },
        { list: PROBLEMS_LIST, format: 'xlsx', query: { id: String(request.params.id) } },
      );
      reply.code(201);
      return {
        url: `/api/imports/${request.params.id}/problems?ticket=${ticket.token}`,
        expiresAt: ticket.expiresAt,
      };
    },
  );

  r.get(
    '/api/imports/:id/problems',
    {
      config: { public: true },
      compress: false,
      schema: {
        params: importIdParamsSchema,
        querystring: z.object({ ticket: z.string().max(100).default('') }),
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const used = request.query.ticket ? await consumeTicket(db.kysely, request.query.ticket) : undefined;
      if (!used || used.payload.list !== PROBLEMS_LIST || used.payload.query.id !== String(id))
        throw notFound(
          'This download link has expired or was already used. Ask for the problems file again.',
        );
      const record = await db.kysely
        .selectFrom('imports')
        .select(['id', 'file_name', 'problem_columns', 'errors'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!record) throw notFound(`There is no import #${id}.`);
      const { columns, rows } = await problemRows(db, record);
      let sent = 0;
      async function* counted() {
        for await (const batch of rows) {
          sent += batch.length;
          yield batch;
        }
      }
      reply.raw.once('close', () => {
        recordAudit(db.kysely, actorOf(request, used.operatorId), {
          action: 'export',
          target: `import #${id} problems`,
          details: { list: PROBLEMS_LIST, format: 'xlsx', importId: id, rows: sent },
        }).catch((error) =>
          request.log.warn({ err: error }, 'could not record the download in the audit log'),
        );
      });
      const base = record.file_name.replace(/\.[^.]*$/, '').replace(/[^\w.@+-]+/g, '-') || 'upload';
      const fileName = `Import_${id}_problems_${base}.xlsx`;
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream(counted(), columns, 'Problems'));
    },
  );
}

interface ProblemRow {
  sheet: string;
  row: number;
  problem: string;
  cells: string[] | null;
}

/**
 * The problems file's columns — the file's own columns (as each sheet headed them), then Sheet,
 * Row and Problem, so that a fixed file can be uploaded again as it is — and its rows. An import
 * recorded before problem rows were kept gives its recorded problems, without cells.
 */
async function problemRows(
  db: Db,
  record: { id: number; problem_columns: string | null; errors: string | null },
): Promise<{ columns: ExportColumn<ProblemRow>[]; rows: AsyncIterable<ProblemRow[]> }> {
  let bySheet: Record<string, string[]> = {};
  try {
    bySheet = record.problem_columns ? (JSON.parse(record.problem_columns) as Record<string, string[]>) : {};
  } catch {
    bySheet = {};
  }
  const headers: string[] = [];
  for (const list of Object.values(bySheet)) for (const h of list) if (!headers.includes(h)) headers.push(h);
  const position = (sheet: string, header: string) => bySheet[sheet]?.indexOf(header) ?? -1;
  const columns: ExportColumn<ProblemRow>[] = [
    ...headers.map(
      (header): ExportColumn<ProblemRow> => ({
        header,
        value: (row) => {
          const i = position(row.sheet, header);
          return i < 0 ? null : (row.cells?.[i] ?? null);
        },
      }),
    ),
    { header: 'Sheet', value: (row) => row.sheet },
    { header: 'Row', value: (row) => row.row },
    { header: 'Problem', value: (row) => row.problem },
  ];
  const stored = await db.kysely
    .selectFrom('import_problems')
    .select('row')
    .where('import_id', '=', Number(record.id))
    .limit(1)
    .executeTakeFirst();
  if (stored) return { columns, rows: storedProblems(db, Number(record.id)) };
  let recorded: { sheet: string; row: number; reason: string }[] = [];
  try {
    recorded = record.errors ? JSON.parse(record.errors) : [];
  } catch {
    recorded = [];
  }
  async function* legacy() {
    yield recorded.map((p) => ({ sheet: p.sheet, row: p.row, problem: p.reason, cells: null }));
  }
  return { columns, rows: legacy() };
}
