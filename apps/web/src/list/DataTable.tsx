import { Table } from '@mantine/core';
import { type Column, defaultRowKey, type RowKey } from './declaration.ts';
import { cellContent } from './format.ts';

interface DataTableProps<Row> {
  /** Names the table for assistive technology (the screen title). */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** Default: the row's `id`, else its position (rows that are never reordered). */
  rowKey?: RowKey<Row>;
  /** A small table inside a card or a result: tighter rows, no hover highlight. */
  compact?: boolean;
}

/** The one table of the app: rows under the declared columns; empty cells show '-'. */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey = defaultRowKey,
  compact,
}: DataTableProps<Row>) {
  return (
    // Wide tables scroll sideways inside the page instead of squeezing the text columns.
    <Table.ScrollContainer type="native" minWidth={columns.length * (compact ? 110 : 120)}>
      <Table
        aria-label={label}
        striped
        highlightOnHover={!compact}
        withTableBorder
        withColumnBorders
        verticalSpacing={compact ? 6 : 'xs'}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th
                key={column.header}
                ta={column.start ? undefined : 'center'}
                style={column.start ? undefined : { whiteSpace: 'nowrap' }}
              >
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)}>
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
