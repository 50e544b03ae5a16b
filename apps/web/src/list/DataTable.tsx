import classes from './DataTable.module.css';
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

/**
 * The one table of the app: rows under the declared columns; empty cells show '-'. Plain table
 * elements under one set of classes (DataTable.module.css: Mantine's Table look), not a Mantine
 * component per row and cell: a list page of 30 rows drew ~500 of them before its first rows showed
 * (issue 14 item 6).
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey = defaultRowKey,
  compact,
  sorting,
  list,
}: DataTableProps<Row>) {
  const density = list?.density === 'compact' ? classes.compact : compact ? classes.small : undefined;
  const tableClass = [classes.table, density, !compact && classes.hover, list && classes.sticky]
    .filter(Boolean)
    .join(' ');
  // One class string per column, shared by its cells.
  const headerClasses = columns.map((column) => (column.start ? undefined : HEADER_CENTRED));
  const cellClasses = columns.map(cellClass);
  return (
    // Wide tables scroll sideways inside the page instead of squeezing the text columns. A box that
    // scrolls must take the focus, or a keyboard cannot scroll it (axe: scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: see above.
    <div className={classes.scroll} tabIndex={0}>
      <div
        style={{
          minWidth: columns.length * (compact ? 110 : 120),
          maxHeight: list ? '75vh' : undefined,
        }}
      >
        <table aria-label={label} className={tableClass}>
          <thead>
            <tr>
              {columns.map((column, index) => (
                <th
                  key={column.header}
                  className={headerClasses[index]}
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
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr
                key={rowKey(row, index)}
                data-row-index={index}
                data-highlighted={list?.highlighted === index || undefined}
              >
                {columns.map((column, at) => (
                  <td key={column.header} className={cellClasses[at]}>
                    {cellContent(column.cell(row))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const HEADER_CENTRED = `${classes.centred} ${classes.nowrap}`;

/** A column's cells: centred unless `start` or `prose` (left, with a readable width); `nowrap` on one line. */
function cellClass(column: Pick<Column<unknown>, 'start' | 'prose' | 'nowrap'>): string | undefined {
  const align = column.start ? undefined : column.prose ? classes.prose : classes.centred;
  return [align, column.nowrap && classes.nowrap].filter(Boolean).join(' ') || undefined;
}

function sortable(sorting: { fields: readonly string[] } | undefined, field: string | undefined): boolean {
  return field !== undefined && sorting?.fields.includes(field) === true;
}
