import type { Readable } from 'node:stream';
import {
  DOWNLOADS_PATH,
  EXPORTS_PATH,
  exportRequestSchema,
  exportTicketSchema,
  type Role,
} from '@obd/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentOperator, hasRole, needsRole } from '../auth/plugin.ts';
import type { Db } from '../db/database.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { actorOf, recordAudit } from '../modules/audit/record.ts';
import type { ExportColumn } from './columns.ts';
import { csvStream } from './csv.ts';
import { cutOffWhenStalled, ExportSlots, exportLimits } from './limits.ts';
import type { AnyExportDefinition, ExportRegistry } from './registry.ts';
import { consumeTicket, issueTicket, peekTicket, type UsableTicket } from './tickets.ts';

import { xlsxStream } from './xlsx.ts';

/** The batches as they are, telling `add` each one's size: the export event's row count. */
async function* counted<Row>(batches: AsyncIterable<Row[]>, add: (n: number) => void): AsyncIterable<Row[]> {
  for await (const batch of batches) {
    add(batch.length);
    yield batch;
  }
}

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

/**
 * The columns asked for, in the order asked (the list's visible columns); every declared column
 * when none are named. A name that is not one of the export's headers is a 400 naming it.
 */
function chosenColumns<Row>(definition: { list: string; columns: ExportColumn<Row>[] }, names?: string[]) {
  if (!names) return definition.columns;
  const byHeader = new Map(definition.columns.map((column) => [column.header, column]));
  const unknown = names.find((name) => !byHeader.has(name));
  if (unknown !== undefined) {
    throw badRequest(
      `The ${definition.list} export has no column "${unknown}". Its columns: ${definition.columns.map((c) => c.header).join(', ')}.`,
    );
  }
  return [...new Set(names)].map((name) => byHeader.get(name) as ExportColumn<Row>);
}

// Lists download as files; a document (a scan's PDF report) opens in the browser's viewer.
const contentDisposition = (fileName: string, inline = false) =>
  `${inline ? 'inline' : 'attachment'}; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export function exportRoutes(app: FastifyInstance, db: Db, registry: ExportRegistry) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const slots = new ExportSlots();
  // A document (a scan's PDF) is made before its first byte and holds no connection while sent:
  // only list exports count against the caps.
  const isList = (definition: AnyExportDefinition) => !('render' in definition);

  r.post(
    EXPORTS_PATH,
    { schema: { body: exportRequestSchema, response: { 201: exportTicketSchema } } },
    async (request, reply) => {
      const { list, format, query, columns } = request.body;
      const definition = registry.get(list);
      if (!definition)
        throw badRequest(`There is no export called "${list}". Known: ${registry.names().join(', ')}.`);
      if (!(definition.formats as readonly string[]).includes(format)) {
        throw badRequest(`The ${list} export comes as ${definition.formats.join(' or ')}, not ${format}.`);
      }
      parseQuery(definition, query);
      if (columns) {
        if ('render' in definition)
          throw badRequest(`The ${list} export is a document: it has no columns to choose.`);
        chosenColumns(definition, columns);
      }
      const operator = currentOperator(request);
      if (definition.role && !hasRole(operator.role, definition.role))
        throw needsRole(definition.role, operator.role);
      // Said now, where the app shows it, rather than on the download page; the download checks again.
      if (isList(definition)) slots.check(operator.id);
      const ticket = await issueTicket(
        db.kysely,
        { operatorId: operator.id, sessionId: operator.sessionId },
        columns ? { list, format, query, columns } : { list, format, query },
      );
      reply.code(201);
      return { url: `${DOWNLOADS_PATH}/${ticket.token}`, expiresAt: ticket.expiresAt };
    },
  );

  const expired = () =>
    notFound('This download link has expired or was already used. Start the download again.');
  const resolve = (ticket: UsableTicket) => {
    const definition = registry.get(ticket.payload.list);
    if (!definition) throw notFound('This export no longer exists.');
    return { definition, format: ticket.payload.format, query: parseQuery(definition, ticket.payload.query) };
  };
  const headers = (
    reply: FastifyReply,
    { definition, format, query }: ReturnType<typeof resolve>,
  ): FastifyReply =>
    reply
      .header('content-type', CONTENT_TYPE[format])
      .header(
        'content-disposition',
        contentDisposition(definition.fileName(query, format), !isList(definition)),
      )
      .header('cache-control', 'no-store');

  // Public in the sense of "no bearer header": the single-use ticket in the path is the credential.
  r.get(
    `${DOWNLOADS_PATH}/:ticket`,
    // Not compressed (lib/compression.ts): the send timeout must see a client that stops reading.
    {
      config: { public: true },
      compress: false,
      schema: { params: z.object({ ticket: z.string().max(100) }) },
    },
    async (request, reply) => {
      const peeked = await peekTicket(db.kysely, request.params.ticket);
      if (!peeked) throw expired();
      const asked = resolve(peeked);
      // A HEAD (a link checker, a browser's preview) learns what the link is without using it up.
      if (request.method === 'HEAD') return headers(reply, asked).send();
      // The caps are judged before the link is used, so a refused download can be retried with it.
      const release = isList(asked.definition) ? slots.take(peeked.operatorId) : () => {};
      let body: Readable;
      let target: ReturnType<typeof resolve>;
      let used: UsableTicket | undefined;
      let rows: number | null = null;
      try {
        used = await consumeTicket(db.kysely, request.params.ticket);
        if (!used) throw expired();
        target = resolve(used);
        const { definition, format, query } = target;
        // An admin-only list: the operator may have lost the role since the link was issued.
        if (definition.role) {
          const now = await db.kysely
            .selectFrom('operators')
            .select('role')
            .where('id', '=', used.operatorId)
            .executeTakeFirst();
          const role = (now?.role ?? 'viewer') as Role;
          if (!hasRole(role, definition.role)) throw needsRole(definition.role, role);
        }
        request.log.info({ operatorId: used.operatorId, list: definition.list, format }, 'export started');
        if ('render' in definition) body = await definition.render(db, query);
        else {
          rows = 0;
          const columns = chosenColumns(definition, used.payload.columns);
          const batches = counted(definition.rows(db, query), (n) => {
            rows = (rows ?? 0) + n;
          });
          body =
            format === 'csv'
              ? csvStream(batches, columns)
              : xlsxStream(batches, columns, definition.sheetName);
        }
      } catch (error) {
        release();
        throw error;
      }
      reply.raw.once('close', release);
      // The audit log's export event, once the download has ended (sent whole, or cut off).
      const ticket = used;
      let finished = false;
      reply.raw.once('finish', () => {
        finished = true;
      });
      reply.raw.once('close', () => {
        recordAudit(db.kysely, actorOf(request, ticket.operatorId), {
          action: 'export',
          target: target.definition.list,
          details: {
            list: target.definition.list,
            format: target.format,
            filters: ticket.payload.query,
            rows,
            outcome: finished ? 'complete' : 'cut off',
          },
        }).catch((error) => request.log.warn({ err: error }, 'could not record the export in the audit log'));
      });
      // A client gone while the link was being used closed the response before that listener.
      if (reply.raw.destroyed || request.raw.socket?.destroyed) release();
      cutOffWhenStalled(reply.raw, exportLimits.sendTimeoutMs, () =>
        request.log.info(
          { list: target.definition.list, timeoutMs: exportLimits.sendTimeoutMs },
          'download cut off: its client read nothing for too long',
        ),
      );
      return headers(reply, target).send(body);
    },
  );
}
