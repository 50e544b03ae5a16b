import { Badge, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { DataTable } from './DataTable.tsx';
import { type ListDeclaration, type ListSummary, resolveColumns } from './declaration.ts';
import { ExportButton } from './ExportButton.tsx';
import { FilterForm } from './FilterForm.tsx';
import { itemCount } from './format.ts';
import { EmptyState, ErrorState, LoadingState } from './ListStates.tsx';
import { pagingOf } from './listQuery.ts';
import { Pager } from './Pager.tsx';
import { useListController } from './useListController.ts';

/**
 * A whole list screen from its declaration: title, filter form, item badge, the current state
 * (loading, error, empty, rows), pager and page summary.
 */
export function ListScreen<Row>({ declaration }: { declaration: ListDeclaration<Row> }) {
  const list = useListController(declaration);
  const { status } = list;
  const loaded = status.kind === 'rows' || status.kind === 'empty';
  const paging = pagingOf(declaration);
  const clientPaging = typeof declaration.paging === 'object' ? declaration.paging : undefined;
  const summary: ListSummary = {
    page: list.state.page,
    pages: list.pages,
    total: list.total,
    pageItemCount: list.pageItemCount,
    filters: list.state.filters,
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={2}>{declaration.title}</Title>
        <Group gap="sm">
          {declaration.export && (
            <ExportButton
              exportAs={declaration.export}
              filters={list.state.filters}
              disabled={list.isLoading || status.kind !== 'rows'}
              total={list.total}
            />
          )}
          {loaded && !declaration.summary && (
            <Badge size="lg" variant="light" tt="none" aria-live="polite">
              {itemCount(list.pageItemCount)}
            </Badge>
          )}
        </Group>
      </Group>

      <Paper withBorder p="md" radius="md">
        <Stack gap="md">
          <FilterForm
            fields={declaration.filters}
            searched={list.state.filters}
            loading={list.isLoading}
            onSearch={list.search}
            trigger={declaration.trigger}
            searchLabel={declaration.searchLabel}
            canSearch={declaration.canFetch}
          />
          {clientPaging && list.view && (
            <Group align="flex-end" gap="md" wrap="wrap">
              {clientPaging.search && (
                <TextInput
                  label={clientPaging.search.label}
                  placeholder={clientPaging.search.placeholder}
                  value={list.view.text}
                  onChange={(event) => list.setSearchText(event.currentTarget.value)}
                  w={{ base: '100%', xs: 320 }}
                />
              )}
              <NativeSelect
                label="Items per page"
                data={clientPaging.pageSizes.map(String)}
                value={String(list.view.pageSize)}
                onChange={(event) => list.setPageSize(Number(event.currentTarget.value))}
                w={{ base: '100%', xs: 140 }}
              />
            </Group>
          )}
        </Stack>
      </Paper>

      {status.kind === 'rows' && declaration.summary && (
        <Text fw={500} aria-live="polite">
          {declaration.summary(summary)}
        </Text>
      )}

      {status.kind === 'loading' && <LoadingState />}
      {status.kind === 'error' && <ErrorState message={status.message} />}
      {status.kind === 'empty' && <EmptyState message={status.message} />}
      {status.kind === 'rows' &&
        (declaration.renderRows ? (
          declaration.renderRows(status.rows)
        ) : (
          <DataTable
            label={declaration.title}
            columns={resolveColumns(declaration.columns, status.rows)}
            rows={status.rows}
            rowKey={declaration.rowKey}
          />
        ))}

      {paging !== 'none' && (
        <Pager
          page={list.state.page}
          pages={list.pages}
          disabled={list.isLoading}
          onPageChange={list.goToPage}
          ends={declaration.pagerEnds}
        />
      )}
      {paging !== 'none' && list.pages > 1 && declaration.pagerCaption && (
        <Text size="sm" c="dimmed" ta="center">
          {declaration.pagerCaption(summary)}
        </Text>
      )}

      {loaded && paging !== 'none' && !declaration.summary && (
        <Group justify="center" gap="xl" c="dimmed">
          <Text size="sm">{`Page ${list.state.page} of ${list.pages}`}</Text>
          <Text size="sm">{`Total Items: ${list.total}`}</Text>
          <Text size="sm">{`Current Page Items: ${list.pageItemCount}`}</Text>
        </Group>
      )}
    </Stack>
  );
}
