import { Alert, Badge, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { SavedView } from '@obd/contract';
import { useRef } from 'react';
import { useSearchParams } from '../app/navigation.tsx';
import type { ClientPaging, ClientView } from './clientPaging.ts';
import { listKeyOf, visibleColumns } from './columnLayout.ts';
import { DataTable } from './DataTable.tsx';
import { type ListDeclaration, type ListExport, type ListSummary, resolveColumns } from './declaration.ts';
import { ExportButton } from './ExportButton.tsx';
import widths from './FilterFields.module.css';
import { FilterForm } from './FilterForm.tsx';
import { itemCount } from './format.ts';
import { EmptyState, ErrorState, LoadingState } from './ListStates.tsx';
import { ColumnsTool, ViewsTool } from './ListTools.tsx';
import { useListPreferences } from './listPreferences.ts';
import { clientPagingOf, pagingOf } from './listQuery.ts';
import { serialiseListState } from './listState.ts';
import { Pager } from './Pager.tsx';
import { layoutInUse, useOpenedView, useViewFromAddress } from './savedViews.ts';
import { DensityToggle, SortButtons } from './TableTools.tsx';
import { useListController } from './useListController.ts';
import { useRowKeyboard } from './useRowKeyboard.ts';

/**
 * A whole list screen from its declaration: title, filter form, item badge, the current state
 * (loading, error, empty, rows), pager and page summary.
 */
export function ListScreen<Row>({ declaration }: { declaration: ListDeclaration<Row> }) {
  const list = useListController(declaration);
  const { status } = list;
  const loaded = status.kind === 'rows' || status.kind === 'empty';
  const paged = pagingOf(declaration) !== 'none';
  const clientPaging = clientPagingOf(declaration);
  const { display = {}, fetching = {} } = declaration;
  // Issue 12: the operator's columns and density (from the server), saved views, the keyboard.
  const listKey = listKeyOf(declaration.source);
  const preferences = useListPreferences(listKey);
  const views = useOpenedView(listKey);
  const [, setSearchParams] = useSearchParams();
  // An opened view shows its columns while it is open, without touching the operator's own.
  const applyView = (view: SavedView) => views.open(view);
  const fromLink = useViewFromAddress(listKey, applyView);
  const viewQuery = serialiseListState({ ...list.state, page: 1 }, declaration.filters).toString();
  const columnLayout = layoutInUse(views.opened, viewQuery, preferences, views.setColumns);
  const allColumns =
    declaration.columns && status.kind === 'rows' ? resolveColumns(declaration.columns, status.rows) : [];
  const shownColumns = visibleColumns(allColumns, columnLayout.layout);
  const tableRef = useRef<HTMLDivElement>(null);
  const filtersRef = useRef<HTMLDivElement>(null);
  const rows = status.kind === 'rows' ? status.rows : undefined;
  const highlighted = useRowKeyboard(
    declaration.columns ? (rows?.length ?? 0) : 0,
    rows,
    tableRef,
    filtersRef,
  );
  const visibleHeaders = columnLayout.layout
    ? shownColumns
        .filter((column) => column.exported !== false)
        .map((column) => column.exportHeader ?? column.header)
    : undefined;

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
          {exportsOf(declaration).map((exportAs) => (
            <ExportButton
              key={exportAs.format}
              exportAs={exportAs}
              filters={list.state.filters}
              disabled={list.isLoading || status.kind !== 'rows'}
              total={list.total}
              visibleColumns={visibleHeaders}
              fields={declaration.filters}
              sort={list.state.sort}
            />
          ))}
          {loaded && !display.summary && (
            <Badge size="lg" variant="light" tt="none" aria-live="polite">
              {itemCount(list.pageItemCount)}
            </Badge>
          )}
        </Group>
      </Group>

      {fromLink.error && (
        <Alert color="orange" withCloseButton onClose={fromLink.dismiss} role="alert">
          {fromLink.error}
        </Alert>
      )}

      <Paper withBorder p="md" radius="md" ref={filtersRef}>
        <Stack gap="md">
          <FilterForm
            fields={declaration.filters}
            searched={list.state.filters}
            loading={list.isLoading}
            onSearch={list.search}
            trigger={fetching.trigger}
            searchLabel={display.searchLabel}
            canSearch={fetching.canFetch}
          />
          {clientPaging && list.view && (
            <ClientViewControls
              paging={clientPaging}
              view={list.view}
              onSearchText={list.setSearchText}
              onPageSize={list.setPageSize}
            />
          )}
        </Stack>
      </Paper>

      <Group justify="flex-end" gap="xs">
        {declaration.columns && allColumns.length > 0 && (
          <ColumnsTool columns={allColumns} layout={columnLayout.layout} onChange={columnLayout.setLayout} />
        )}
        {declaration.columns && (
          <DensityToggle density={preferences.density} onChange={preferences.setDensity} />
        )}
        {declaration.renderRows && declaration.sortFields && (
          <SortButtons fields={declaration.sortFields} sort={list.state.sort} onSort={list.sortBy} />
        )}
        <ViewsTool
          list={listKey}
          query={viewQuery}
          columns={columnLayout.layout}
          opened={views.opened?.id}
          onOpen={(view) => {
            applyView(view);
            setSearchParams(new URLSearchParams(view.query));
          }}
          onClose={views.close}
        />
      </Group>

      {status.kind === 'rows' && display.summary && (
        <Text fw={500} aria-live="polite">
          {display.summary(summary)}
        </Text>
      )}

      {(status.kind === 'loading' || fromLink.loading) && <LoadingState />}
      {status.kind === 'error' && <ErrorState message={status.message} />}
      {status.kind === 'empty' && <EmptyState message={status.message} />}
      {status.kind === 'rows' &&
        (declaration.renderRows ? (
          declaration.renderRows(status.rows)
        ) : (
          <div ref={tableRef}>
            <DataTable
              label={declaration.title}
              columns={shownColumns}
              rows={status.rows}
              rowKey={declaration.rowKey}
              {...(declaration.sortFields
                ? { sorting: { fields: declaration.sortFields, sort: list.state.sort, onSort: list.sortBy } }
                : {})}
              list={{ density: preferences.density, highlighted }}
            />
          </div>
        ))}

      {paged && (
        <Pager
          page={list.state.page}
          pages={list.pages}
          disabled={list.isLoading}
          onPageChange={list.goToPage}
          ends={display.pagerEnds}
        />
      )}
      {paged && list.pages > 1 && display.pagerCaption && (
        <Text size="sm" c="dimmed" ta="center">
          {display.pagerCaption(summary)}
        </Text>
      )}

      {loaded && paged && !display.summary && (
        <Group justify="center" gap="xl" c="dimmed">
          <Text size="sm">{`Page ${list.state.page} of ${list.pages}`}</Text>
          <Text size="sm">{`Total Items: ${list.total}`}</Text>
          <Text size="sm">{`Current Page Items: ${list.pageItemCount}`}</Text>
        </Group>
      )}
    </Stack>
  );
}

/** The declaration's downloads, one button each. */
function exportsOf<Row>(declaration: ListDeclaration<Row>): readonly ListExport[] {
  const { export: exports } = declaration;
  if (!exports) return [];
  return 'list' in exports ? [exports] : exports;
}

/** Browser-side paging: the search box and 'Items per page' over the rows fetched once. */
function ClientViewControls<Row>({
  paging,
  view,
  onSearchText,
  onPageSize,
}: {
  paging: ClientPaging<Row>;
  view: ClientView;
  onSearchText: (text: string) => void;
  onPageSize: (pageSize: number) => void;
}) {
  return (
    <Group align="flex-end" gap="md" wrap="wrap">
      {paging.search && (
        <TextInput
          label={paging.search.label}
          placeholder={paging.search.placeholder}
          value={view.text}
          onChange={(event) => onSearchText(event.currentTarget.value)}
          className={widths.w320}
        />
      )}
      <NativeSelect
        label="Items per page"
        data={paging.pageSizes.map(String)}
        value={String(view.pageSize)}
        onChange={(event) => onPageSize(Number(event.currentTarget.value))}
        className={widths.w140}
      />
    </Group>
  );
}
