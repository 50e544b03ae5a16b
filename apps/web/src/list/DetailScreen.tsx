import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from '../app/navigation.tsx';
import { DataTable } from './DataTable.tsx';
import type { Column } from './declaration.ts';
import {
  type DetailDeclaration,
  type DetailSection,
  detailQueryOptions,
  detailStatus,
  parseRecordId,
} from './detail.ts';
import { cellContent } from './format.ts';
import { ErrorState, LoadingState } from './ListStates.tsx';
import { useRememberedListHref } from './rememberedQueries.ts';

/**
 * A whole detail screen from its declaration: title and Back, then the record's summary and
 * sections — or loading, not found, error.
 */
export function DetailScreen<Rec>({ declaration }: { declaration: DetailDeclaration<Rec> }) {
  const [params] = useSearchParams();
  const id = parseRecordId(params);
  const query = useQuery({ ...detailQueryOptions(declaration, id ?? 0), enabled: id !== undefined });
  const status = detailStatus(declaration, id, query);
  // The list's last query: Back lands on the filters and page the operator left.
  const backHref = useRememberedListHref(declaration.listPath);

  useEffect(() => {
    if (query.error) console.error(`${declaration.title}: request failed`, query.error);
  }, [query.error, declaration.title]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={2}>{declaration.title}</Title>
        <Button component={Link} to={backHref} variant="default">
          Back
        </Button>
      </Group>

      {status.kind === 'loading' && <LoadingState />}
      {status.kind === 'error' && <ErrorState message={status.message} />}
      {status.kind === 'notFound' && (
        <Alert color="yellow" variant="light" role="alert" title="Not found">
          {status.message}
        </Alert>
      )}
      {status.kind === 'record' && (
        <>
          <Paper withBorder p="md" radius="md">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" verticalSpacing="sm">
              {declaration.summary.map((field) => (
                <div key={field.label}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                    {field.label}
                  </Text>
                  <Text style={{ overflowWrap: 'anywhere' }}>{cellContent(field.value(status.record))}</Text>
                </div>
              ))}
            </SimpleGrid>
          </Paper>
          {declaration.sections.map((section) => (
            <Stack key={section.title} gap="xs" component="section" aria-label={section.title}>
              <Title order={3}>{section.title}</Title>
              {section.render(status.record)}
            </Stack>
          ))}
        </>
      )}
    </Stack>
  );
}

/**
 * A section with a table of the record's sub-rows (its results), or `empty` when it has none.
 * Sub-rows have no id of their own: their position is their key.
 */
export function detailTable<Rec, Sub>(spec: {
  title: string;
  rows: (record: Rec) => readonly Sub[];
  columns: readonly Column<Sub>[];
  empty: string;
}): DetailSection<Rec> {
  return {
    title: spec.title,
    render: (record) => {
      const rows = spec.rows(record);
      if (rows.length === 0) return <Text c="dimmed">{spec.empty}</Text>;
      return <DataTable label={spec.title} columns={spec.columns} rows={rows} rowKey={(_, index) => index} />;
    },
  };
}
