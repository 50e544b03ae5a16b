import { SEARCH_PATH, searchQuerySchema, searchResultSchema } from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import { toSearchResult } from './mapper.ts';
import { search } from './repository.ts';

/** The command palette's search (issue 13). */
export function searchRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    SEARCH_PATH,
    { schema: { querystring: searchQuerySchema, response: { 200: searchResultSchema } } },
    async (request) =>
      toSearchResult(await search(db.kysely, db.dialect, request.query), request.query.limit),
  );
}
