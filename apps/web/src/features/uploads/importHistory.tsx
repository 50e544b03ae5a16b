import { Text } from '@mantine/core';
import type { ImportHistoryQuery, ImportRecord, ImportStatus } from '@obd/contract';
import {
  IMPORT_HISTORY_PAGE_SIZE,
  IMPORT_KIND_LABELS,
  IMPORT_KINDS,
  IMPORT_STATUSES,
  IMPORTS_PATH,
} from '@obd/contract/constants';
import { detailsColumn } from '../../list/columns.tsx';
import { defineList, type FilterField, listSource, type QueryFilterName } from '../../list/declaration.ts';
import { cellText, dateTimeColumn } from '../../list/format.ts';
import { bytesText, countText } from '../../upload/format.ts';
import { importSchemas } from '../../upload/importProgress.ts';
import { LiveStatistics } from './LiveStatistics.tsx';
import { UndoImport } from './UndoImport.tsx';

/** The Import History screen (decisions §7): every upload, newest first, and one upload's row problems. */

export const IMPORT_HISTORY_PATHS = {
  list: '/ImportHistory',
  details: '/ImportHistory/details',
} as const;

const STATUS_LABELS: Record<ImportStatus, string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  undone: 'Undone',
  preview: 'Preview',
  cancelled: 'Cancelled',
  expired: 'Expired',
};
const STATUS_COLORS: Record<ImportStatus, string> = {
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
  undone: 'gray',
  preview: 'violet',
  cancelled: 'gray',
  expired: 'gray',
};

/** The outcome as a coloured word (a badge would be clipped in the narrow column). */
export function OutcomeBadge({ status }: { status: ImportStatus }) {
  return (
    <Text component="span" size="sm" fw={700} c={STATUS_COLORS[status]}>
      {STATUS_LABELS[status]}
    </Text>
  );
}

const numberAt = (stats: Record<string, unknown> | null, ...keys: string[]): number | undefined => {
  for (const key of keys) {
    const value = stats?.[key];
    if (typeof value === 'number') return value;
  }
  return undefined;
};

/**
 * The few figures that tell one upload from another, whatever its kind: rows read, rows added,
 * rows not added; a running import shows its progress, a failed one its sentence.
 */
export function keyStatistics(record: ImportRecord): string {
  if (record.status === 'running') return `${record.progress}% (${countText(record.rowsProcessed)} rows)`;
  if (record.status === 'failed') return record.message ?? 'Failed';
  const { stats } = record;
  const rows = numberAt(stats, 'totalRowsProcessed', 'totalRows');
  const inserted = numberAt(stats, 'insertedCount', 'importedRows', 'totalRowsInserted');
  const skipped = numberAt(stats, 'skippedCount');
  const parts = [
    rows === undefined ? undefined : `${countText(rows)} rows`,
    inserted === undefined ? undefined : `${countText(inserted)} inserted`,
    skipped === undefined ? undefined : `${countText(skipped)} skipped`,
    record.errorCount > 0
      ? `${countText(record.errorCount)} ${record.errorCount === 1 ? 'row problem' : 'row problems'}`
      : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : cellText(record.message);
}

const HISTORY_FILTERS: readonly FilterField<QueryFilterName<ImportHistoryQuery>>[] = [
  {
    kind: 'select',
    name: 'kind',
    label: 'Kind',
    options: [
      { value: '', label: 'All kinds' },
      ...IMPORT_KINDS.map((kind) => ({ value: kind, label: IMPORT_KIND_LABELS[kind] })),
    ],
  },
  {
    kind: 'select',
    name: 'status',
    label: 'Outcome',
    options: [
      { value: '', label: 'All outcomes' },
      ...IMPORT_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
    ],
  },
  // Issue 13: the uploads started on one day (a bar of the Overview's imports per day opens it).
  { kind: 'text', name: 'day', label: 'Started on', placeholder: 'e.g. 2025-03-01' },
];

export const importHistoryList = defineList({
  title: 'Import History',
  source: listSource(IMPORTS_PATH, async () => (await importSchemas()).importHistorySchema, 'data'),
  pageSize: IMPORT_HISTORY_PAGE_SIZE,
  filters: HISTORY_FILTERS,
  columns: [
    { header: 'ID', cell: (row) => row.id },
    dateTimeColumn<ImportRecord, 'startedAt'>('When', 'startedAt'),
    { header: 'Who', cell: (row) => cellText(row.operator?.email) },
    { header: 'Kind', cell: (row) => IMPORT_KIND_LABELS[row.kind], nowrap: true },
    { header: 'File', cell: (row) => row.fileName },
    { header: 'Size', cell: (row) => bytesText(row.fileSize), nowrap: true },
    { header: 'Outcome', cell: (row) => <OutcomeBadge status={row.status} />, nowrap: true },
    // A running import's figures follow it live (LiveStatistics.tsx).
    {
      header: 'Statistics',
      cell: (row) => <LiveStatistics record={row} text={keyStatistics} />,
      prose: true,
    },
    { header: 'Undo', cell: (row) => <UndoImport record={row} />, nowrap: true },
    detailsColumn<ImportRecord>(IMPORT_HISTORY_PATHS.details),
  ],
  messages: {
    error: 'Failed to fetch import history. Please try again.',
    emptyFiltered: 'No imports found for the specified criteria.',
    emptyUnfiltered: 'No imports yet.',
  },
});
