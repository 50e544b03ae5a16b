import {
  ACTUATIONS_PATH,
  type ActuationRunQuery,
  actuationRunDetailSchema,
  actuationRunListSchema,
  actuationRunQuerySchema,
  exportFileName,
  idParamsSchema,
  SCANS_PATH,
  type ScanQuery,
  SPECIAL_FUNCTIONS_PATH,
  type SpecialFunctionQuery,
  scanDetailSchema,
  scanListSchema,
  scanQuerySchema,
  specialFunctionDetailSchema,
  specialFunctionListSchema,
  specialFunctionQuerySchema,
  USER_FACETS_PATH,
  USERS_PATH,
  type UserQuery,
  userFacetsSchema,
  userListSchema,
  userQuerySchema,
  yesNo,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { notFound } from '../../lib/errors.ts';
import {
  actuationRunBatches,
  findActuationRun,
  findScan,
  findSpecialFunction,
  listActuationRuns,
  listScans,
  listSpecialFunctions,
  listUsers,
  scanBatches,
  specialFunctionBatches,
  userBatches,
  userFacets,
} from './repository.ts';
import { renderScanReport, scanReportFileName } from './scanReport.ts';

const bool = (v: number) => v === 1;

/** Result arrays are JSON text; a malformed one shows as empty rather than failing the page. */
function jsonArray<T>(text: string): T[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

type ScanRecord = Awaited<ReturnType<typeof listScans>>['rows'][number];
const scanDto = (r: ScanRecord) => ({ ...r, scan_ended: bool(r.scan_ended) });

type SpecialFunctionRecord = Awaited<ReturnType<typeof listSpecialFunctions>>['rows'][number];
const specialFunctionDto = (r: SpecialFunctionRecord) => ({
  ...r,
  scan_ended: bool(r.scan_ended),
  hard_coded: bool(r.hard_coded),
});

const runResult = (r: Record<string, unknown>) => ({
  data: text(r.data),
  pid: text(r.pid),
  input: text(r.input),
});

// Export row sources are named so TypeScript infers each export's row type from them.
async function* scanExportRows(db: Db, q: ScanQuery) {
  for await (const batch of scanBatches(db, q)) yield batch.map(scanDto);
}
async function* specialFunctionExportRows(db: Db, q: SpecialFunctionQuery) {
  for await (const batch of specialFunctionBatches(db, q)) yield batch.map(specialFunctionDto);
}
const userExportRows = (db: Db, q: UserQuery) => userBatches(db, q);
const actuationExportRows = (db: Db, q: ActuationRunQuery) => actuationRunBatches(db, q);

/** A scan with its raw and decoded results: the detail screen and the PDF report read this. */
async function loadScanDetail(db: Db, id: number) {
  const row = await findScan(db, id);
  if (!row) throw notFound(`There is no scan with id ${id}.`);
  const { scan_res_array, decoded_array, ...scan } = row;
  return {
    ...scanDto(scan),
    scanResArray: jsonArray<Record<string, unknown>>(scan_res_array).map((x) => ({
      system: text(x.system),
      pid: text(x.pid),
      data: text(x.data),
      header: text(x.header),
      protocol: text(x.protocol),
      make: text(x.make),
    })),
    decodedArray: jsonArray<Record<string, unknown>>(decoded_array).map((x) => ({
      system: text(x.system),
      pid: text(x.pid),
      data: text(x.data),
      protocol: text(x.protocol),
      header: text(x.header),
      decodedFaultArray: Object.fromEntries(
        Object.entries((x.decodedFaultArray as Record<string, unknown>) ?? {}).map(([k, v]) => [
          k,
          String(v),
        ]),
      ),
    })),
  };
}

export function operationsRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ------------------------------------------------------------ users
  r.get(
    USERS_PATH,
    { schema: { querystring: userQuerySchema, response: { 200: userListSchema } } },
    async (request) => {
      const { rows, total } = await listUsers(db, request.query);
      return { users: rows, total };
    },
  );
  r.get(USER_FACETS_PATH, { schema: { response: { 200: userFacetsSchema } } }, () => userFacets(db));
  exports.register({
    list: 'users',
    formats: ['xlsx'],
    querySchema: userQuerySchema,
    sheetName: 'Users',
    fileName: (q, format) => exportFileName('Users', [q.email, q.plan, q.status], format),
    columns: [
      { header: 'ID', value: (u) => u.id },
      { header: 'Email', value: (u) => u.email },
      { header: 'Name', value: (u) => u.name },
      { header: 'Phone', value: (u) => u.phone },
      { header: 'Country', value: (u) => u.country },
      { header: 'Plan', value: (u) => u.plan },
      { header: 'Status', value: (u) => u.status },
      { header: 'Device', value: (u) => u.device },
      { header: 'App Version', value: (u) => u.app_version },
      { header: 'Created At', value: (u) => u.created_at },
      { header: 'Last Login At', value: (u) => u.last_login_at },
      { header: 'Subscription Ends At', value: (u) => u.subscription_ends_at },
    ],
    rows: userExportRows,
  });

  // ------------------------------------------------------------ scans
  r.get(
    SCANS_PATH,
    { schema: { querystring: scanQuerySchema, response: { 200: scanListSchema } } },
    async (request) => {
      const { rows, total } = await listScans(db, request.query);
      return { scans: rows.map(scanDto), total };
    },
  );
  r.get(
    `${SCANS_PATH}/:id`,
    { schema: { params: idParamsSchema, response: { 200: scanDetailSchema } } },
    async (request) => loadScanDetail(db, request.params.id),
  );
  exports.registerDocument({
    list: 'scanReport',
    formats: ['pdf'],
    querySchema: idParamsSchema,
    fileName: (q) => scanReportFileName(q.id),
    render: async (database, q) => renderScanReport(database, await loadScanDetail(database, q.id)),
  });
  exports.register({
    list: 'scans',
    formats: ['xlsx'],
    querySchema: scanQuerySchema,
    sheetName: 'Scan Details',
    fileName: (q, format) => exportFileName('Scan_Details', [q.make, q.email], format),
    columns: [
      { header: 'ID', value: (s) => s.id },
      { header: 'Email', value: (s) => s.email },
      { header: 'Start Time', value: (s) => s.scan_start_time },
      { header: 'End Time', value: (s) => s.scan_end_time },
      { header: 'Model', value: (s) => s.model },
      { header: 'License Plate', value: (s) => s.license_plate },
      { header: 'VIN', value: (s) => s.vin },
      { header: 'Scan Ended', value: (s) => yesNo(s.scan_ended) },
      { header: 'Make', value: (s) => s.make },
      { header: 'Country', value: (s) => s.country_id },
      { header: 'Function', value: (s) => s.function },
      { header: 'Type', value: (s) => s.type },
      { header: 'App Version', value: (s) => s.app_version },
      { header: 'PDF Report', value: (s) => s.pdf_report },
    ],
    rows: scanExportRows,
  });

  // ------------------------------------------------------------ special functions
  r.get(
    SPECIAL_FUNCTIONS_PATH,
    { schema: { querystring: specialFunctionQuerySchema, response: { 200: specialFunctionListSchema } } },
    async (request) => {
      const { rows, total } = await listSpecialFunctions(db, request.query);
      return { scans: rows.map(specialFunctionDto), total };
    },
  );
  r.get(
    `${SPECIAL_FUNCTIONS_PATH}/:id`,
    { schema: { params: idParamsSchema, response: { 200: specialFunctionDetailSchema } } },
    async (request) => {
      const row = await findSpecialFunction(db, request.params.id);
      if (!row) throw notFound(`There is no special-function run with id ${request.params.id}.`);
      const { scan_res_array, ...run } = row;
      return {
        ...specialFunctionDto(run),
        scanResArray: jsonArray<Record<string, unknown>>(scan_res_array).map(runResult),
      };
    },
  );
  exports.register({
    list: 'specialFunctions',
    formats: ['xlsx'],
    querySchema: specialFunctionQuerySchema,
    sheetName: 'Special Functions',
    fileName: (q, format) => exportFileName('Special_Functions', [q.make, q.email], format),
    columns: [
      { header: 'ID', value: (s) => s.id },
      { header: 'Email', value: (s) => s.user_email },
      { header: 'Make', value: (s) => s.make },
      { header: 'Module', value: (s) => s.module },
      { header: 'Model', value: (s) => s.model },
      { header: 'Function Type', value: (s) => s.function_type },
      { header: 'Command Type', value: (s) => s.command_type },
      { header: 'Item Number', value: (s) => s.item_number },
      { header: 'Variant', value: (s) => s.variant },
      { header: 'License Plate', value: (s) => s.license_plate },
      { header: 'Scan Ended', value: (s) => yesNo(s.scan_ended) },
      { header: 'Hard Coded', value: (s) => yesNo(s.hard_coded) },
      { header: 'Start Time', value: (s) => s.scan_start_time },
      { header: 'End Time', value: (s) => s.scan_end_time },
    ],
    rows: specialFunctionExportRows,
  });

  // ------------------------------------------------------------ actuation runs
  r.get(
    ACTUATIONS_PATH,
    { schema: { querystring: actuationRunQuerySchema, response: { 200: actuationRunListSchema } } },
    async (request) => {
      const { rows, total } = await listActuationRuns(db, request.query);
      return { actuations: rows, total };
    },
  );
  r.get(
    `${ACTUATIONS_PATH}/:id`,
    { schema: { params: idParamsSchema, response: { 200: actuationRunDetailSchema } } },
    async (request) => {
      const row = await findActuationRun(db, request.params.id);
      if (!row) throw notFound(`There is no actuation run with id ${request.params.id}.`);
      const { scan_res_array, ...run } = row;
      return { ...run, scanResArray: jsonArray<Record<string, unknown>>(scan_res_array).map(runResult) };
    },
  );
  exports.register({
    list: 'actuations',
    formats: ['xlsx'],
    querySchema: actuationRunQuerySchema,
    sheetName: 'Actuations Detail',
    fileName: (q, format) => exportFileName('Actuations_Detail', [q.make, q.email], format),
    columns: [
      { header: 'ID', value: (a) => a.id },
      { header: 'Email', value: (a) => a.user_email },
      { header: 'Make', value: (a) => a.make },
      { header: 'Model', value: (a) => a.model },
      { header: 'Actuation Type', value: (a) => a.actuation_type },
      { header: 'Actuation Option', value: (a) => a.actuation_option },
      { header: 'Input', value: (a) => a.input },
      { header: 'Device', value: (a) => a.device },
      { header: 'Product ID', value: (a) => a.product_id },
      { header: 'User Car Model ID', value: (a) => a.user_car_model_id },
      { header: 'End Date', value: (a) => a.end_date },
      { header: 'Created At', value: (a) => a.created_at },
      { header: 'Updated At', value: (a) => a.updated_at },
    ],
    rows: actuationExportRows,
  });
}
