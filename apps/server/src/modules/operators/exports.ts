import { exportFileNameDateFirst, type OperatorQuery, operatorQuerySchema } from '@obd/contract';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { type OperatorRecord, toOperatorRow } from './mapper.ts';
import { operatorsQuery } from './repository.ts';

async function* operatorRows(db: Db, q: OperatorQuery) {
  for await (const batch of db.streamRows(operatorsQuery(db.kysely, db.dialect, q).compile()))
    yield (batch as OperatorRecord[]).map(toOperatorRow);
}

/** The operators list's download (admin only, like the list): CSV or XLSX. Never a password hash. */
export function registerOperatorExports(exports: ExportRegistry) {
  exports.register({
    list: 'operators',
    role: 'admin',
    formats: ['csv', 'xlsx'],
    querySchema: operatorQuerySchema,
    sheetName: 'Operators',
    fileName: (q, format) => exportFileNameDateFirst('Operators', [q.role, q.status, q.email], format),
    columns: [
      { header: 'ID', value: (o) => o.id },
      { header: 'Email', value: (o) => o.email },
      { header: 'Role', value: (o) => o.role },
      { header: 'Status', value: (o) => o.status },
      { header: 'Created', value: (o) => o.created_at },
      { header: 'Last Seen', value: (o) => o.last_seen_at },
      { header: 'Disabled At', value: (o) => o.disabled_at },
      { header: 'Open Sessions', value: (o) => o.open_sessions },
    ],
    rows: operatorRows,
  });
}
