import {
  ACTUATION_COMMANDS_PATH,
  actuationCommandListSchema,
  actuationCommandQuerySchema,
  COMMAND_API_PATH,
  COVERAGE_PATH,
  CUSTOM_COMMANDS_PATH,
  commandListSchema,
  commandQuerySchema,
  coverageListSchema,
  coverageQuerySchema,
  customCommandListSchema,
  customCommandQuerySchema,
  LIVE_DATA_PATH,
  liveDataListSchema,
  liveDataQuerySchema,
  MAKE_LIST_PATH,
  MODEL_LIST_PATH,
  makeListQuerySchema,
  makeListSchema,
  modelListQuerySchema,
  modelListSchema,
  ODOMETER_PATH,
  odometerListSchema,
  odometerQuerySchema,
  SPF_COMMANDS_PATH,
  spfCommandListSchema,
  spfCommandQuerySchema,
  totalPages,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { registerCatalogueExports } from './exports.ts';
import { toActuationCommands, toCustomCommands, toLiveData, toOdometer, toSpfCommands } from './mapper.ts';
import {
  listActuationCommands,
  listCoverage,
  listCustomCommands,
  listLiveData,
  listMakes,
  listMechanicCommands,
  listModels,
  listOdometer,
  listSpfCommands,
} from './repository.ts';
import { groupedAnswerSerializer } from './stepLists.ts';

/** The catalogue screens' HTTP routes: validate, ask the repository, map, answer. */
export function catalogueRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { kysely, dialect } = db;
  registerCatalogueExports(exports);

  r.get(
    COVERAGE_PATH,
    { schema: { querystring: coverageQuerySchema, response: { 200: coverageListSchema } } },
    async (request) => {
      const { rows, total } = await listCoverage(kysely, dialect, request.query);
      return { coverages: rows, total };
    },
  );

  r.get(
    COMMAND_API_PATH,
    { schema: { querystring: commandQuerySchema, response: { 200: commandListSchema } } },
    async (request) => {
      const q = request.query;
      const { rows, total } = await listMechanicCommands(kysely, dialect, q);
      return {
        data: rows,
        pagination: {
          currentPage: q.page,
          totalPages: totalPages(total, q.limit),
          totalItems: total,
          itemsPerPage: q.limit,
        },
      };
    },
  );

  r.get(
    MAKE_LIST_PATH,
    { schema: { querystring: makeListQuerySchema, response: { 200: makeListSchema } } },
    async (request) => ({ data: await listMakes(kysely, dialect, request.query) }),
  );

  r.get(
    MODEL_LIST_PATH,
    { schema: { querystring: modelListQuerySchema, response: { 200: modelListSchema } } },
    async (request) => ({ data: await listModels(kysely, dialect, request.query) }),
  );

  r.get(
    CUSTOM_COMMANDS_PATH,
    { schema: { querystring: customCommandQuerySchema, response: { 200: customCommandListSchema } } },
    async (request) => {
      const page = await listCustomCommands(kysely, dialect, request.query);
      return { data: toCustomCommands(page), total: page.total };
    },
  );

  r.get(
    ACTUATION_COMMANDS_PATH,
    {
      schema: { querystring: actuationCommandQuerySchema, response: { 200: actuationCommandListSchema } },
      serializerCompiler: groupedAnswerSerializer,
    },
    async (request) => {
      const page = await listActuationCommands(kysely, dialect, request.query);
      return { data: toActuationCommands(page), total: page.total };
    },
  );

  r.get(
    SPF_COMMANDS_PATH,
    {
      schema: { querystring: spfCommandQuerySchema, response: { 200: spfCommandListSchema } },
      serializerCompiler: groupedAnswerSerializer,
    },
    async (request) => {
      const page = await listSpfCommands(kysely, dialect, request.query);
      return { data: toSpfCommands(page), total: page.total };
    },
  );

  r.get(
    ODOMETER_PATH,
    { schema: { querystring: odometerQuerySchema, response: { 200: odometerListSchema } } },
    async (request) => {
      const { rows, total } = await listOdometer(kysely, dialect, request.query);
      return { data: rows.map(toOdometer), total };
    },
  );

  r.get(
    LIVE_DATA_PATH,
    { schema: { querystring: liveDataQuerySchema, response: { 200: liveDataListSchema } } },
    async (request) => {
      const { rows, total } = await listLiveData(kysely, dialect, request.query);
      return { data: rows.map(toLiveData), total };
    },
  );
}
