import type {
  ImportDetail,
  ImportHistoryQuery,
  ImportKind,
  ImportPhase,
  ImportRecord,
  ImportStatus,
  RowProblem,
} from '@obd/contract';
import type { Db } from '../../db/database.ts';

const columns = [
  'imports.id',
  'imports.kind',
  'imports.operator_id',
  'operators.email as operator_email',
  'imports.file_name',
  'imports.file_size',
  'imports.file_hash',
  'imports.status',
  'imports.phase',
  'imports.progress',
  'imports.rows_processed',
  'imports.rows_total',
  'imports.message',
  'imports.stats',
  'imports.error_count',
  'imports.duplicate_of',
  'imports.started_at',
  'imports.finished_at',
  'imports.undone_at',
] as const;

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

type Row = {
  id: number;
  kind: string;
  operator_id: number | null;
  operator_email: string | null;
  file_name: string;
  file_size: number;
  file_hash: string;
  status: string;
  phase: string | null;
  progress: number;
  rows_processed: number;
  rows_total: number | null;
  message: string | null;
  stats: string | null;
  error_count: number;
  duplicate_of: number | null;
  started_at: string;
  finished_at: string | null;
  undone_at: string | null;
};

function toRecord(r: Row): ImportRecord {
  const stats = parseJson(r.stats);
  return {
    id: Number(r.id),
    kind: r.kind as ImportKind,
    operator: r.operator_id === null ? null : { id: Number(r.operator_id), email: r.operator_email ?? '' },
    fileName: r.file_name,
    fileSize: Number(r.file_size),
    fileHash: r.file_hash,
    status: r.status as ImportStatus,
    phase: (r.phase as ImportPhase | null) ?? null,
    progress: Number(r.progress),
    rowsProcessed: Number(r.rows_processed),
    rowsTotal: r.rows_total === null ? null : Number(r.rows_total),
    message: r.message,
    stats:
      stats && typeof stats === 'object' && !Array.isArray(stats) ? (stats as Record<string, unknown>) : null,
    errorCount: Number(r.error_count),
    duplicateOfImportId: r.duplicate_of === null ? null : Number(r.duplicate_of),
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    undoneAt: r.undone_at,
  };
}

/** The import history, newest first, with the exact total under the same filters. */
export async function listImports(
  db: Db,
  q: ImportHistoryQuery,
): Promise<{ data: ImportRecord[]; total: number }> {
  const k = db.kysely;
  const filtered = k.selectFrom('imports').where((eb) => {
    const conditions = [];
    if (q.kind) conditions.push(eb('imports.kind', '=', q.kind));
    if (q.status) conditions.push(eb('imports.status', '=', q.status));
    if (q.day) {
      // Started on that day (UTC), through 011's index on the start time.
      const next = new Date(Date.parse(`${q.day}T00:00:00.000Z`) + 86_400_000).toISOString();
      conditions.push(eb('imports.started_at', '>=', `${q.day}T00:00:00.000Z`));
      conditions.push(eb('imports.started_at', '<', next));
    }
    return eb.and(conditions);
  });
  const [rows, count] = await Promise.all([
    filtered
      .leftJoin('operators', 'operators.id', 'imports.operator_id')
      .select(columns)
      .orderBy('imports.id', 'desc')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    filtered.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { data: (rows as Row[]).map(toRecord), total: Number(count.total) };
}

/**
 * One import with its row problems, or undefined. Read through `Db.reader`, so a progress poll
 * is answered while an import's write transaction holds SQLite's writing connection.
 */
export async function findImport(db: Db, id: number): Promise<ImportDetail | undefined> {
  const row = await db.reader
    .selectFrom('imports')
    .leftJoin('operators', 'operators.id', 'imports.operator_id')
    .select([...columns, 'imports.errors'])
    .where('imports.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const errors = parseJson(row.errors);
  return { ...toRecord(row as Row), errors: Array.isArray(errors) ? (errors as RowProblem[]) : [] };
}
