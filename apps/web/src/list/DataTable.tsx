import { Table } from '@mantine/core';
import { type Column, defaultRowKey, type RowKey } from './declaration.ts';
import { cellContent } from './format.ts';
import { SortHeader } from './SortHeader.tsx';
import { ariaSort, type ListSort } from './sortState.ts';

interface DataTableProps<Row> {
  /** Names the table for assistive technology (the screen title). */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** Default: the row's `id`, else its position (rows that are never reordered). */
  rowKey?: RowKey<Row>;
  /** A small table inside a card or a result: tighter rows, no hover highlight. */
  compact?: boolean;
  /**
   * Sorting by a header (issue 12): the fields the list sorts by, the current sort and what a
   * click does. Without it, headers are plain text.
   */
  sorting?: { fields: readonly string[]; sort: ListSort | undefined; onSort: (field: string) => void };
  /**
   * A list screen's table (issue 12): the header stays in sight while the rows scroll (inside the
   * table's own box), rows comfortable or compact, and the keyboard's row highlight.
   */
  list?: { density: 'comfortable' | 'compact'; highlighted?: number };
}

/** The one table of the app: rows under the declared columns; empty cells show '-'. */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey = defaultRowKey,
  compact,
  sorting,
  list,
}: DataTableProps<Row>) {
  const dense = compact || list?.density === 'compact';
  return (
    // Wide tables scroll sideways inside the page instead of squeezing the text columns.
    <Table.ScrollContainer
      type="native"
      // A box that scrolls must take the focus, or a keyboard cannot scroll it (axe: scrollable-region-focusable).
      tabIndex={0}
      minWidth={columns.length * (compact ? 110 : 120)}
      maxHeight={list ? '75vh' : undefined}
    >
      <Table
        aria-label={label}
        striped
        highlightOnHover={!compact}
        withTableBorder
        withColumnBorders
        stickyHeader={list !== undefined}
        verticalSpacing={list?.density === 'compact' ? 2 : compact ? 6 : 'xs'}
        fz={dense && list ? 'xs' : undefined}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th
                key={column.header}
                ta={column.start ? undefined : 'center'}
                style={column.start ? undefined : { whiteSpace: 'nowrap' }}
                aria-sort={
                  sortable(sorting, column.sortField)
                    ? ariaSort(sorting?.sort, column.sortField ?? '')
                    : undefined
                }
              >
                {sorting && column.sortField && sortable(sorting, column.sortField) ? (
                  <SortHeader
                    header={column.header}
                    field={column.sortField}
                    sort={sorting.sort}
                    onSort={sorting.onSort}
                  />
                ) : (
                  column.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr
              key={rowKey(row, index)}
              data-row-index={index}
              data-highlighted={list?.highlighted === index || undefined}
              bg={list?.highlighted === index ? 'var(--mantine-primary-color-light)' : undefined}
              style={
                list?.highlighted === index
                  ? { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: -2 }
                  : undefined
              }
            >
              {columns.map((column) => (
                <Table.Td
                  key={column.header}
                  ta={column.start ? undefined : column.prose ? 'left' : 'center'}
                  miw={column.prose ? 320 : undefined}
                  style={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}
                >
                  {cellContent(column.cell(row))}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function sortable(sorting: { fields: readonly string[] } | undefined, field: string | undefined): boolean {
  return field !== undefined && sorting?.fields.includes(field) === true;
}
