import { type AuditQuery, auditQuerySchema, exportFileNameDateFirst } from '@obd/contract';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import type { AuditRow } from './mapper.ts';
import { auditEventsQuery } from './repository.ts';

/** Every event the list's filters match, in the list's order, streamed in batches. */
async function* auditRows(db: Db, q: AuditQuery): AsyncIterable<AuditRow[]> {
  const query = await auditEventsQuery(db.kysely, db.dialect, q);
  yield* db.streamRows(query.compile()) as AsyncIterable<AuditRow[]>;
}

/** The audit log's download (admin only, like the list): CSV or XLSX. */
export function registerAuditExports(exports: ExportRegistry) {
  exports.register({
    list: 'audit',
    role: 'admin',
    formats: ['csv', 'xlsx'],
    querySchema: auditQuerySchema,
    sheetName: 'Audit log',
    fileName: (q, format) => exportFileNameDateFirst('Audit_Log', [q.action, q.operator, q.target], format),
    columns: [
      { header: 'ID', value: (e) => e.id },
      { header: 'Time', value: (e) => e.at },
      { header: 'Operator', value: (e) => e.operator_email },
      { header: 'Action', value: (e) => e.action },
      { header: 'Target', value: (e) => e.target },
      { header: 'Details', value: (e) => e.details },
      { header: 'Address', value: (e) => e.address },
      { header: 'User Agent', value: (e) => e.user_agent },
    ],
    rows: auditRows,
  });
}
