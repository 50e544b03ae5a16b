import type { Readable } from 'node:stream';
import { DOWNLOADS_PATH, EXPORTS_PATH, exportRequestSchema, exportTicketSchema } from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentOperator } from '../auth/plugin.ts';
import type { Db } from '../db/database.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { csvStream } from './csv.ts';
import type { AnyExportDefinition, ExportRegistry } from './registry.ts';
import { consumeTicket, issueTicket } from './tickets.ts';
import { xlsxStream } from './xlsx.ts';

const CONTENT_TYPE = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** Validates a list query exactly as the list endpoint would, with the same 400 sentences. */
function parseQuery(definition: AnyExportDefinition, query: Record<string, string>) {
  const parsed = definition.querySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(
      `Invalid query parameter "${issue?.path.join('.') ?? '?'}": ${issue?.message ?? 'not valid'}.`,
    );
  }
  return parsed.data;
}

// Lists download as files; a document (a scan's PDF report) opens in the browser's viewer.
const contentDisposition = (fileName: string, inline = false) =>
  `${inline ? 'inline' : 'attachment'}; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export function exportRoutes(app: FastifyInstance, db: Db, registry: ExportRegistry) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    EXPORTS_PATH,
    { schema: { body: exportRequestSchema, response: { 201: exportTicketSchema } } },
    async (request, reply) => {
      const { list, format, query } = request.body;
      const definition = registry.get(list);
      if (!definition)
        throw badRequest(`There is no export called "${list}". Known: ${registry.names().join(', ')}.`);
      if (!(definition.formats as readonly string[]).includes(format)) {
        throw badRequest(`The ${list} export comes as ${definition.formats.join(' or ')}, not ${format}.`);
      }
      parseQuery(definition, query);
      const ticket = await issueTicket(db.kysely, currentOperator(request).id, { list, format, query });
      reply.code(201);
      return { url: `${DOWNLOADS_PATH}/${ticket.token}`, expiresAt: ticket.expiresAt };
    },
  );

  // Public in the sense of "no bearer header": the single-use ticket in the path is the credential.
  r.get(
    `${DOWNLOADS_PATH}/:ticket`,
    { config: { public: true }, schema: { params: z.object({ ticket: z.string().max(100) }) } },
    async (request, reply) => {
      const used = await consumeTicket(db.kysely, request.params.ticket);
      if (!used)
        throw notFound('This download link has expired or was already used. Start the download again.');
      const definition = registry.get(used.payload.list);
      if (!definition) throw notFound('This export no longer exists.');
      const { format } = used.payload;
      const query = parseQuery(definition, used.payload.query);
      request.log.info({ operatorId: used.operatorId, list: definition.list, format }, 'export started');
      let body: Readable;
      if ('render' in definition) body = await definition.render(db, query);
      else {
        const batches = definition.rows(db, query);
        body =
          format === 'csv'
            ? csvStream(batches, definition.columns)
            : xlsxStream(batches, definition.columns, definition.sheetName);
      }
      reply
        .header('content-type', CONTENT_TYPE[format])
        .header(
          'content-disposition',
          contentDisposition(definition.fileName(query, format), 'render' in definition),
        )
        .header('cache-control', 'no-store');
      return reply.send(body);
    },
  );
}
