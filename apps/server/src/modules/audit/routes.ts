import {
  AUDIT_PATH,
  auditEventSchema,
  auditListSchema,
  auditQuerySchema,
  idParamsSchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { notFound } from '../../lib/errors.ts';
import { registerAuditExports } from './exports.ts';
import { toAuditEvent } from './mapper.ts';
import { findAuditEvent, listAuditEvents } from './repository.ts';

/** The audit log (admin only): read-only routes; nothing here or anywhere updates or deletes events. */
export function auditRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  registerAuditExports(exports);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { role: 'admin' } as const;

  r.get(
    AUDIT_PATH,
    { config: admin, schema: { querystring: auditQuerySchema, response: { 200: auditListSchema } } },
    async (request) => {
      const { rows, total } = await listAuditEvents(db.kysely, db.dialect, request.query);
      return { events: rows.map(toAuditEvent), total };
    },
  );

  r.get(
    `${AUDIT_PATH}/:id`,
    { config: admin, schema: { params: idParamsSchema, response: { 200: auditEventSchema } } },
    async (request) => {
      const row = await findAuditEvent(db.kysely, request.params.id);
      if (!row) throw notFound(`There is no audit event with id ${request.params.id}.`);
      return toAuditEvent(row);
    },
  );
}
