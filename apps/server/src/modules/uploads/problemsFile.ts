import { errorBodySchema, exportTicketSchema, importIdParamsSchema, MAX_ROW_ERRORS } from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentOperator } from '../../auth/plugin.ts';
import type { Db } from '../../db/database.ts';
import type { ExportColumn } from '../../export/columns.ts';
import { consumeTicket, issueTicket } from '../../export/tickets.ts';
import { xlsxStream } from '../../export/xlsx.ts';
import {
  PROBLEMS_STORING,
  PROBLEMS_UNAVAILABLE,
  problemsState,
  storesDone,
} from '../../import/problemStore.ts';
import { storedProblems } from '../../import/problems.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { actorOf, recordAudit } from '../audit/record.ts';

/*
 * Issue 15 item 2, the problems file of an import: a single-use link (like exports), then the
 * .xlsx through it. The problem rows are stored after the upload's answer (import/problemStore.ts):
 * the link waits for a store under way here, and is refused with a sentence while another process
 * still stores them (409) or when they never will be (410).
 */

const PROBLEMS_LIST = 'import-problems';

/** How long asking for the link waits for the problem rows being stored in this process. */
const PROBLEMS_WAIT_MS = 60_000;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function problemsFileRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A closing server finishes the stores it started (they are a few seconds at most).
  app.addHook('onClose', () => storesDone());

  // The problems file: a single-use link (like exports), then the .xlsx through it.
  r.post(
    '/api/imports/:id/problems',
    {
      schema: {
        params: importIdParamsSchema,
        response: { 201: exportTicketSchema, 409: errorBodySchema, 410: errorBodySchema },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const state = await problemsState(db, id, PROBLEMS_WAIT_MS);
      if (state === null) throw notFound(`There is no import #${id}.`);
      if (state === 'storing')
        throw new HttpError(
          'CONFLICT',
          `The problem rows of import #${id} are still being stored; ask for the file again in a few seconds.`,
        );
      if (state === 'unavailable')
        throw new HttpError(
          'GONE',
          `The problem rows of import #${id} were not kept: the server stopped or failed before storing them, so there is no problems file. The first ${MAX_ROW_ERRORS} problems are in the import's record.`,
        );
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
  const state = record.problem_columns;
  try {
    if (state && state !== PROBLEMS_STORING && state !== PROBLEMS_UNAVAILABLE)
      bySheet = JSON.parse(state) as Record<string, string[]>;
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
