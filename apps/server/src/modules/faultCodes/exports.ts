import {
  difficultyLabel,
  exportFileName,
  type FaultCodeListQuery,
  faultCodeListQuerySchema,
  severityLabel,
  yesNo,
} from '@obd/contract';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { faultCodesQuery } from './repository.ts';

// A named row source, so that TypeScript infers the export's row type from it. The rows are the
// list's own query, streamed (cells are read from the stored row: no DTO per exported row).
const faultCodeRows = (db: Db, q: FaultCodeListQuery) =>
  db.streamRows(faultCodesQuery(db.kysely, db.dialect, q).compile());

/** The fault-code list's download: every row the list's filters match, in the list's order. */
export function registerFaultCodeExports(exports: ExportRegistry) {
  exports.register({
    list: 'faultCodes',
    formats: ['csv', 'xlsx'],
    querySchema: faultCodeListQuerySchema,
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
    rows: faultCodeRows,
  });
}
