import { Text } from '@mantine/core';
import type { ImportDetail, RowProblem } from '@obd/contract';
import { IMPORT_KIND_LABELS, IMPORTS_PATH } from '@obd/contract/constants';
import { detailTable } from '../../list/DetailScreen.tsx';
import type { DetailDeclaration, SummaryField } from '../../list/detail.ts';
import { cellText, dateTimeText, durationText } from '../../list/format.ts';
import { bytesText } from '../../upload/format.ts';
import { DownloadProblemsButton } from '../../upload/ImportFlowViews.tsx';
import { importSchemas } from '../../upload/importProgress.ts';
import { IMPORT_HISTORY_PATHS, keyStatistics, OutcomeBadge } from './importHistory.tsx';
import { UndoImport } from './UndoImport.tsx';

/** One import (`/ImportHistory/details?id=`): apart from the list, which need not download it (issue 14). */

const field = (label: string, value: (record: ImportDetail) => unknown): SummaryField<ImportDetail> => ({
  label,
  value: (record) => cellText(value(record)),
});

/** The statistics the server kept, flattened to 'duplicates.inFile: 3' lines. */
function StatsLines({ stats }: { stats: Record<string, unknown> | null }) {
  if (!stats) return <Text c="dimmed">No statistics.</Text>;
  const lines: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    } else {
      lines.push(`${path}: ${cellText(value)}`);
    }
  };
  walk(stats, '');
  return (
    <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
      {lines.join('\n')}
    </Text>
  );
}

export const importDetails: DetailDeclaration<ImportDetail> = {
  title: 'Import Details',
  endpoint: IMPORTS_PATH,
  schema: async () => (await importSchemas()).importDetailSchema,
  listPath: IMPORT_HISTORY_PATHS.list,
  messages: { notFound: 'The import was not found.', error: 'Something went wrong' },
  summary: [
    field('Import', (record) => `#${record.id}`),
    field('Kind', (record) => IMPORT_KIND_LABELS[record.kind]),
    { label: 'Outcome', value: (record) => <OutcomeBadge status={record.status} /> },
    field('Who', (record) => record.operator?.email),
    field('Started', (record) => dateTimeText(record.startedAt)),
    field('Finished', (record) => dateTimeText(record.finishedAt)),
    field('Duration', (record) => durationText(record.startedAt, record.finishedAt)),
    field('File name', (record) => record.fileName),
    field('File size', (record) => bytesText(record.fileSize)),
    field('Message', (record) => record.message),
    field('Key statistics', (record) => keyStatistics(record)),
    {
      label: 'Problems file',
      value: (record) => (record.errorCount > 0 ? <DownloadProblemsButton importId={record.id} /> : '-'),
    },
    { label: 'Undo', value: (record) => <UndoImport record={record} /> },
    field('Same file as', (record) =>
      record.duplicateOfImportId === null ? null : `import #${record.duplicateOfImportId}`,
    ),
  ],
  sections: [
    { title: 'Statistics', render: (record) => <StatsLines stats={record.stats} /> },
    detailTable<ImportDetail, RowProblem>({
      title: 'Row problems',
      rows: (record) => record.errors,
      columns: [
        { header: 'Sheet', cell: (problem) => problem.sheet },
        { header: 'Row', cell: (problem) => problem.row },
        { header: 'Reason', cell: (problem) => problem.reason, prose: true },
      ],
      empty: 'No row problems.',
    }),
  ],
};
