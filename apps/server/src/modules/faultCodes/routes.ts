import {
  FAULT_CODE_PATHS,
  faultCauseListSchema,
  faultCodeListQuerySchema,
  faultCodeListSchema,
  faultCodeQuerySchema,
  faultSolutionListSchema,
  faultSymptomListSchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { registerFaultCodeExports } from './exports.ts';
import type { FaultTextList } from './lists.ts';
import { toFaultCause, toFaultCode, toFaultSolution, toFaultSymptom } from './mapper.ts';
import { listFaultCodes, listFaultTexts } from './repository.ts';

/** The fault-code browsers' HTTP routes: validate, ask the repository, map, answer. */
export function faultCodeRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerFaultCodeExports(exports);

  r.get(
    FAULT_CODE_PATHS.list,
    { schema: { querystring: faultCodeListQuerySchema, response: { 200: faultCodeListSchema } } },
    async (request) => {
      const { rows, total } = await listFaultCodes(db.kysely, db.dialect, request.query);
      return { data: rows.map(toFaultCode), total };
    },
  );

  /** Causes, symptoms and solutions: one route each, the same query, their own text field. */
  function textRoute<Dto>(
    path: string,
    list: FaultTextList,
    schema: z.ZodType<{ data: Dto[]; total: number }>,
    toDto: (row: Awaited<ReturnType<typeof listFaultTexts>>['rows'][number]) => Dto,
  ) {
    r.get(
      path,
      { schema: { querystring: faultCodeQuerySchema, response: { 200: schema } } },
      async (request) => {
        const { rows, total } = await listFaultTexts(db.kysely, db.dialect, list, request.query);
        return { data: rows.map(toDto), total };
      },
    );
  }
  textRoute(FAULT_CODE_PATHS.causes, 'causes', faultCauseListSchema, toFaultCause);
  textRoute(FAULT_CODE_PATHS.symptoms, 'symptoms', faultSymptomListSchema, toFaultSymptom);
  textRoute(FAULT_CODE_PATHS.solutions, 'solutions', faultSolutionListSchema, toFaultSolution);
}
