import {
  LIST_PREFERENCES_PATH,
  listKeyParamsSchema,
  listPreferencesBodySchema,
  listPreferencesSchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentOperator } from '../../auth/plugin.ts';
import type { Db } from '../../db/database.ts';
import { isoNow } from '../../lib/time.ts';
import { toListPreferences } from './mapper.ts';
import { findListPreferences, saveListPreferences } from './repository.ts';

/**
 * Each operator's own arrangement of each list (issue 12): the columns shown and their order, and
 * the row density. Every signed-in operator reads and writes only their own.
 */
export function preferencesRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const path = `${LIST_PREFERENCES_PATH}/:list`;

  r.get(
    path,
    { schema: { params: listKeyParamsSchema, response: { 200: listPreferencesSchema } } },
    async (request) => {
      const { list } = request.params;
      const row = await findListPreferences(db.kysely, currentOperator(request).id, list);
      return toListPreferences(list, row);
    },
  );

  r.put(
    path,
    {
      schema: {
        params: listKeyParamsSchema,
        body: listPreferencesBodySchema,
        response: { 200: listPreferencesSchema },
      },
    },
    async (request) => {
      const { list } = request.params;
      const operatorId = currentOperator(request).id;
      await saveListPreferences(db.kysely, operatorId, list, request.body, isoNow());
      return toListPreferences(list, await findListPreferences(db.kysely, operatorId, list));
    },
  );
}
