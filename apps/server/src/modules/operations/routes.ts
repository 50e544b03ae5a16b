import {
  ACTUATIONS_PATH,
  actuationRunDetailSchema,
  actuationRunListSchema,
  actuationRunQuerySchema,
  idParamsSchema,
  SCANS_PATH,
  SPECIAL_FUNCTIONS_PATH,
  scanDetailSchema,
  scanListSchema,
  scanQuerySchema,
  specialFunctionDetailSchema,
  specialFunctionListSchema,
  specialFunctionQuerySchema,
  USER_FACETS_PATH,
  USERS_PATH,
  userFacetsSchema,
  userListSchema,
  userQuerySchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { notFound } from '../../lib/errors.ts';
import { registerOperationsExports } from './exports.ts';
import { toActuationDetail, toScan, toSpecialFunctionDetail, toSpecialFunctionRun } from './mapper.ts';
import {
  findActuationRun,
  findSpecialFunction,
  listActuationRuns,
  listScans,
  listSpecialFunctions,
  listUsers,
  loadScanDetail,
  userFacets,
} from './repository.ts';

/** The operations screens' HTTP routes: validate, ask the repository, map, answer. */
export function operationsRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerOperationsExports(exports);

  r.get(
    USERS_PATH,
    { schema: { querystring: userQuerySchema, response: { 200: userListSchema } } },
    async (request) => {
      const { rows, total } = await listUsers(db.kysely, db.dialect, request.query);
      return { users: rows, total };
    },
  );
  r.get(USER_FACETS_PATH, { schema: { response: { 200: userFacetsSchema } } }, () => userFacets(db.kysely));

  r.get(
    SCANS_PATH,
    { schema: { querystring: scanQuerySchema, response: { 200: scanListSchema } } },
    async (request) => {
      const { rows, total } = await listScans(db.kysely, db.dialect, request.query);
      return { scans: rows.map(toScan), total };
    },
  );
  r.get(
    `${SCANS_PATH}/:id`,
    { schema: { params: idParamsSchema, response: { 200: scanDetailSchema } } },
    async (request) => loadScanDetail(db.kysely, request.params.id),
  );

  r.get(
    SPECIAL_FUNCTIONS_PATH,
    { schema: { querystring: specialFunctionQuerySchema, response: { 200: specialFunctionListSchema } } },
    async (request) => {
      const { rows, total } = await listSpecialFunctions(db.kysely, db.dialect, request.query);
      return { scans: rows.map(toSpecialFunctionRun), total };
    },
  );
  r.get(
    `${SPECIAL_FUNCTIONS_PATH}/:id`,
    { schema: { params: idParamsSchema, response: { 200: specialFunctionDetailSchema } } },
    async (request) => {
      const row = await findSpecialFunction(db.kysely, request.params.id);
      if (!row) throw notFound(`There is no special-function run with id ${request.params.id}.`);
      return toSpecialFunctionDetail(row);
    },
  );

  r.get(
    ACTUATIONS_PATH,
    { schema: { querystring: actuationRunQuerySchema, response: { 200: actuationRunListSchema } } },
    async (request) => {
      const { rows, total } = await listActuationRuns(db.kysely, db.dialect, request.query);
      return { actuations: rows, total };
    },
  );
  r.get(
    `${ACTUATIONS_PATH}/:id`,
    { schema: { params: idParamsSchema, response: { 200: actuationRunDetailSchema } } },
    async (request) => {
      const row = await findActuationRun(db.kysely, request.params.id);
      if (!row) throw notFound(`There is no actuation run with id ${request.params.id}.`);
      return toActuationDetail(row);
    },
  );
}
