import { OVERVIEW_PATH, overviewQuerySchema, overviewSchema } from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import { toOverview } from './mapper.ts';
import { loadOverview } from './repository.ts';

/** The Overview screen's one document (issue 13). */
export function overviewRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    OVERVIEW_PATH,
    { schema: { querystring: overviewQuerySchema, response: { 200: overviewSchema } } },
    async (request) => toOverview(await loadOverview(db.kysely, db.dialect, request.query)),
  );
}
