import {
  type ActuationRunQuery,
  actuationRunQuerySchema,
  exportFileName,
  idParamsSchema,
  type ScanQuery,
  type SpecialFunctionQuery,
  scanQuerySchema,
  specialFunctionQuerySchema,
  type UserQuery,
  userQuerySchema,
  yesNo,
} from '@obd/contract';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { toScan, toSpecialFunctionRun } from './mapper.ts';
import {
  actuationRunsQuery,
  loadScanDetail,
  scansQuery,
  specialFunctionsQuery,
  usersQuery,
} from './repository.ts';
import { renderScanReport, scanReportFileName } from './scanReport.ts';

// Row sources are named functions so that TypeScript infers each export's row type from them. The
// rows are the list's own query, streamed.
const userRows = (db: Db, q: UserQuery) => db.streamRows(usersQuery(db.kysely, db.dialect, q).compile());
async function* scanRows(db: Db, q: ScanQuery) {
  for await (const batch of db.streamRows(scansQuery(db.kysely, db.dialect, q).compile()))
    yield batch.map(toScan);
}
async function* specialFunctionRows(db: Db, q: SpecialFunctionQuery) {
  const query = specialFunctionsQuery(db.kysely, db.dialect, q).compile();
  for await (const batch of db.streamRows(query)) yield batch.map(toSpecialFunctionRun);
}
const actuationRows = (db: Db, q: ActuationRunQuery) =>
  db.streamRows(actuationRunsQuery(db.kysely, db.dialect, q).compile());

/** The operations lists' downloads: every row the list's filters match, in the list's order. */
export function registerOperationsExports(exports: ExportRegistry) {
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
    rows: userRows,
  });

  exports.registerDocument({
    list: 'scanReport',
    formats: ['pdf'],
    querySchema: idParamsSchema,
    fileName: (q) => scanReportFileName(q.id),
    render: async (db, q) => renderScanReport(db, await loadScanDetail(db.kysely, q.id)),
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
    rows: scanRows,
  });

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
    rows: specialFunctionRows,
  });

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
    rows: actuationRows,
  });
}
