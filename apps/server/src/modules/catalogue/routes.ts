import {
  ACTUATION_COMMANDS_PATH,
  type ActuationCommandQuery,
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
  exportFileName,
  exportFileNameDateFirst,
  LIVE_DATA_PATH,
  liveDataListSchema,
  liveDataQuerySchema,
  MAKE_LIST_PATH,
  type MakeListQuery,
  MODEL_LIST_PATH,
  type ModelListQuery,
  makeListQuerySchema,
  makeListSchema,
  modelListQuerySchema,
  modelListSchema,
  ODOMETER_PATH,
  type OdometerQuery,
  odometerListSchema,
  odometerQuerySchema,
  SPF_COMMANDS_PATH,
  spfCommandQuerySchema,
  totalPages,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import {
  actuationCommandBatches,
  actuationCommandsJson,
  listCustomCommands,
  spfCommandsJson,
} from './grouped.ts';
import {
  coverageBatches,
  listCoverage,
  listLiveData,
  listMakes,
  listMechanicCommands,
  listModels,
  listOdometer,
  odometerBatches,
} from './repository.ts';

const flag = (v: number) => v === 1;
const parseJson = (text: string | null) => {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** Odometer row → the 12 fields of spec §3, in its camelCase where the spec uses it. */
function odometerDto(r: Awaited<ReturnType<typeof listOdometer>>['rows'][number]) {
  return {
    id: r.id,
    header: r.header,
    subHeader: r.sub_header,
    pid: r.pid,
    protocol: r.protocol,
    system: r.system,
    init: r.init,
    formulaBased: flag(r.formula_based),
    generic: flag(r.generic),
    formula_metric: r.formula_metric,
    formula_imperial: r.formula_imperial,
    unit_metric: r.unit_metric,
    unit_imperial: r.unit_imperial,
  };
}

/** A whole, unpaged list as one export batch, numbered from 1 for the S.No column. */
async function* numbered<Row>(rows: Promise<Row[]>) {
  yield (await rows).map((row, i) => ({ ...row, sno: i + 1 }));
}

// Export row sources are named functions so TypeScript infers each export's row type from them.
const makeExportRows = (db: Db, q: MakeListQuery) => numbered(listMakes(db, q));
const modelExportRows = (db: Db, q: ModelListQuery) => numbered(listModels(db, q));

/** One CSV row per detail of every actuation card (issue 3). */
async function* actuationExportRows(db: Db, q: ActuationCommandQuery) {
  for await (const groups of actuationCommandBatches(db, q)) {
    yield groups.flatMap((g) => g.details.map((detail) => ({ ...g, detail })));
  }
}

async function* odometerExportRows(db: Db, q: OdometerQuery) {
  for await (const batch of odometerBatches(db, q)) yield batch.map(odometerDto);
}

export function catalogueRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    COVERAGE_PATH,
    { schema: { querystring: coverageQuerySchema, response: { 200: coverageListSchema } } },
    async (request) => {
      const { rows, total } = await listCoverage(db, request.query);
      return { coverages: rows, total };
    },
  );
  exports.register({
    list: 'coverage',
    formats: ['xlsx'],
    querySchema: coverageQuerySchema,
    sheetName: 'Coverage Data',
    fileName: (q, format) => exportFileName('Coverage_Data', [q.make], format),
    columns: [
      { header: 'Function Name', value: (row) => row.function_name },
      { header: 'Function Type', value: (row) => row.function_type },
    ],
    rows: coverageBatches,
  });

  r.get(
    COMMAND_API_PATH,
    { schema: { querystring: commandQuerySchema, response: { 200: commandListSchema } } },
    async (request) => {
      const q = request.query;
      const { rows, total } = await listMechanicCommands(db, q);
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
    async (request) => ({ data: await listMakes(db, request.query) }),
  );
  exports.register({
    list: 'makes',
    formats: ['csv'],
    querySchema: makeListQuerySchema,
    sheetName: 'Makes',
    fileName: (q, format) => exportFileName('Bike_Makes', [q.segment], format),
    columns: [
      { header: 'S.No', value: (row) => row.sno },
      { header: 'Segment', value: (row) => row.segment },
      { header: 'Make Name', value: (row) => row.name },
    ],
    rows: makeExportRows,
  });

  r.get(
    MODEL_LIST_PATH,
    { schema: { querystring: modelListQuerySchema, response: { 200: modelListSchema } } },
    async (request) => ({ data: await listModels(db, request.query) }),
  );
  exports.register({
    list: 'models',
    formats: ['csv'],
    querySchema: modelListQuerySchema,
    sheetName: 'Models',
    fileName: (q, format) => exportFileName('Model_List', [q.make], format),
    columns: [
      { header: 'S.No', value: (row) => row.sno },
      { header: 'Make', value: (row) => row.make },
      { header: 'Model Name', value: (row) => row.name },
    ],
    rows: modelExportRows,
  });

  r.get(
    CUSTOM_COMMANDS_PATH,
    { schema: { querystring: customCommandQuerySchema, response: { 200: customCommandListSchema } } },
    async (request) => {
      const { groups, total } = await listCustomCommands(db, request.query);
      return { data: groups, total };
    },
  );

  r.get(
    ACTUATION_COMMANDS_PATH,
    // The answer (actuationCommandListSchema) is written as JSON text; see actuationCommandsJson.
    { schema: { querystring: actuationCommandQuerySchema } },
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(await actuationCommandsJson(db, request.query)),
  );
  exports.register({
    list: 'actuationCommands',
    formats: ['csv'],
    querySchema: actuationCommandQuerySchema,
    sheetName: 'Actuation Commands',
    fileName: (q, format) => exportFileNameDateFirst('Actuation_Commands', [q.make, q.model, q.year], format),
    columns: [
      { header: 'Actuation Type', value: (row) => row.actuation_type },
      { header: 'Message', value: (row) => row.message },
      { header: 'PID', value: (row) => row.detail.pid },
      { header: 'Actuation Subtype', value: (row) => row.detail.actuation_subtype },
      { header: 'Last Subtype', value: (row) => row.detail.last_subtype },
      { header: 'Seed Key Variant', value: (row) => row.detail.seed_key_variant },
      { header: 'Detail Message', value: (row) => row.detail.message },
      { header: 'Message Item', value: (row) => (row.detail.message_item ? 'Yes' : 'No') },
      { header: 'Success Check', value: (row) => row.detail.success_check },
    ],
    rows: actuationExportRows,
  });

  r.get(
    SPF_COMMANDS_PATH,
    // The answer (spfCommandListSchema) is written as JSON text; see spfCommandsJson.
    { schema: { querystring: spfCommandQuerySchema } },
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(await spfCommandsJson(db, request.query)),
  );

  r.get(
    ODOMETER_PATH,
    { schema: { querystring: odometerQuerySchema, response: { 200: odometerListSchema } } },
    async (request) => {
      const { rows, total } = await listOdometer(db, request.query);
      return { data: rows.map(odometerDto), total };
    },
  );
  exports.register({
    list: 'odometer',
    formats: ['csv'],
    querySchema: odometerQuerySchema,
    sheetName: 'Odometer Details',
    fileName: (q, format) => exportFileNameDateFirst('Odometer_Details', [q.make, q.model, q.year], format),
    columns: [
      { header: 'Header', value: (row) => row.header },
      { header: 'Sub Header', value: (row) => row.subHeader },
      { header: 'PID', value: (row) => row.pid },
      { header: 'Protocol', value: (row) => row.protocol },
      { header: 'System', value: (row) => row.system },
      { header: 'Init', value: (row) => row.init },
      { header: 'Formula Based', value: (row) => (row.formulaBased ? 'Yes' : 'No') },
      { header: 'Generic', value: (row) => (row.generic ? 'Yes' : 'No') },
      { header: 'Formula (Metric)', value: (row) => row.formula_metric },
      { header: 'Formula (Imperial)', value: (row) => row.formula_imperial },
      { header: 'Unit (Metric)', value: (row) => row.unit_metric },
      { header: 'Unit (Imperial)', value: (row) => row.unit_imperial },
    ],
    rows: odometerExportRows,
  });

  r.get(
    LIVE_DATA_PATH,
    { schema: { querystring: liveDataQuerySchema, response: { 200: liveDataListSchema } } },
    async (request) => {
      const { rows, total } = await listLiveData(db, request.query);
      return {
        data: rows.map((row) => ({
          id: row.id,
          name: row.name,
          model: row.model,
          make: row.make,
          header: row.header,
          subHeader: row.sub_header,
          pid: row.pid,
          protocol: row.protocol,
          formulaBased: flag(row.formula_based),
          formula_metric: row.formula_metric,
          formula_imperial: row.formula_imperial,
          unit_metric: row.unit_metric,
          unit_imperial: row.unit_imperial,
          referenceJSON: parseJson(row.reference_json),
        })),
        total,
      };
    },
  );
}
