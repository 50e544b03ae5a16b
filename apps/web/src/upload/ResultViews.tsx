import { Alert, Box, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { RowProblem } from '@obd/contract';
import { MAX_ROW_ERRORS } from '@obd/contract/constants';
import type { ReactNode } from 'react';
import { Link } from '../app/navigation.tsx';
import { DataTable } from '../list/DataTable.tsx';
import type { Column } from '../list/declaration.ts';
import { cellContent } from '../list/format.ts';

/** One figure of a statistics screen. */
export interface Stat {
  label: string;
  value: ReactNode;
}

/** Figures as labelled tiles. */
export function StatGrid({ stats, label = 'Statistics' }: { stats: readonly Stat[]; label?: string }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" aria-label={label}>
      {stats.map((stat) => (
        <Paper key={stat.label} withBorder radius="md" p="sm" data-stat={stat.label}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {stat.label}
          </Text>
          <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
            {cellContent(stat.value)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** A titled part of a result screen. */
export function ResultSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3}>{title}</Title>
      {children}
    </Stack>
  );
}

const PROBLEM_COLUMNS: readonly Column<RowProblem>[] = [
  { header: 'Sheet', cell: (problem) => problem.sheet, nowrap: true },
  { header: 'Row', cell: (problem) => problem.row },
  { header: 'Reason', cell: (problem) => problem.reason, prose: true },
];

/** The rows that were not imported: sheet, row number as the spreadsheet shows it, why. */
export function RowProblemsTable({ problems }: { problems: readonly RowProblem[] }) {
  if (problems.length === 0) return <Text c="dimmed">No row problems.</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {problems.length >= MAX_ROW_ERRORS
          ? `The first ${MAX_ROW_ERRORS} row problems (the server keeps no more).`
          : `${problems.length} ${problems.length === 1 ? 'row' : 'rows'} not imported.`}
      </Text>
      {/* A long list scrolls inside the page, so the actions below stay in reach. */}
      <Box mah={480} style={{ overflowY: 'auto' }}>
        <DataTable
          label="Row problems"
          columns={PROBLEM_COLUMNS}
          rows={problems}
          rowKey={(problem, index) => `${problem.sheet}:${problem.row}:${index}`}
        />
      </Box>
    </Stack>
  );
}

/** The warning that the same file content was imported before, with a link to that import. */
export function DuplicateFileWarning({
  warning,
  duplicateOfImportId,
}: {
  warning?: string;
  duplicateOfImportId: number | null;
}) {
  if (!warning && duplicateOfImportId === null) return null;
  return (
    <Alert color="yellow" variant="light" title="This file was imported before" role="alert">
      <Stack gap={4}>
        <Text size="sm">{warning ?? 'A file with the same content was imported before.'}</Text>
        {duplicateOfImportId !== null && (
          <Text size="sm">
            <Link
              to={`/ImportHistory/details?id=${duplicateOfImportId}`}
            >{`See import #${duplicateOfImportId}`}</Link>
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
