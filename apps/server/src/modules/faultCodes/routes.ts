import {
  difficultyLabel,
  exportFileName,
  FAULT_CODE_PATHS,
  faultCauseListSchema,
  faultCodeListSchema,
  faultCodeQuerySchema,
  faultSolutionListSchema,
  faultSymptomListSchema,
  severityLabel,
  yesNo,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { faultCodeBatches, listFaultCodes, listFaultTexts } from './repository.ts';

/** Row → response: 0/1 flags become booleans; company ids stay numbers (0 = generic). */
const base = (r: { id: number; dtc: string; make: string | null; company_id: number; generic: number }) => ({
  id: r.id,
  dtc: r.dtc,
  make: r.make,
  company_id: Number(r.company_id),
  generic: r.generic === 1,
});

export function faultCodeRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  exports.register({
    list: 'faultCodes',
    formats: ['csv', 'xlsx'],
    querySchema: faultCodeQuerySchema,
    sheetName: 'Fault Codes',
    fileName: (q, format) => exportFileName('Fault_Codes', [q.dtc, q.make], format),
    columns: [
      { header: 'ID', value: (r) => r.id },
      { header: 'DTC', value: (r) => r.dtc },
      { header: 'Title', value: (r) => r.title },
      { header: 'Severity', value: (r) => severityLabel(r.severity) },
      { header: 'Repair Difficulty', value: (r) => difficultyLabel(r.repair_difficulty) },
      { header: 'Make', value: (r) => r.make },
      { header: 'Company ID', value: (r) => Number(r.company_id) },
      { header: 'Generic', value: (r) => yesNo(r.generic === 1) },
    ],
    rows: faultCodeBatches,
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    FAULT_CODE_PATHS.list,
    { schema: { querystring: faultCodeQuerySchema, response: { 200: faultCodeListSchema } } },
    async (request) => {
      const { rows, total } = await listFaultCodes(db, request.query);
      return {
        data: rows.map((row) => ({
          ...base(row),
          title: row.title,
          severity: row.severity,
          repair_difficulty: row.repair_difficulty,
        })),
        total,
      };
    },
  );

  const texts = [
    {
      path: FAULT_CODE_PATHS.causes,
      table: 'fault_code_causes',
      column: 'causes',
      schema: faultCauseListSchema,
    },
    {
      path: FAULT_CODE_PATHS.symptoms,
      table: 'fault_code_symptoms',
      column: 'symptom',
      schema: faultSymptomListSchema,
    },
    {
      path: FAULT_CODE_PATHS.solutions,
      table: 'fault_code_solutions',
      column: 'solution',
      schema: faultSolutionListSchema,
    },
  ] as const;
  for (const { path, table, column, schema } of texts) {
    r.get(
      path,
      { schema: { querystring: faultCodeQuerySchema, response: { 200: schema } } },
      async (request) => {
        const { rows, total } = await listFaultTexts(db, table, column, request.query);
        return {
          data: rows.map((row) => ({ ...base(row), language: row.language, [column]: row.text })),
          total,
        } as never;
      },
    );
  }
}
