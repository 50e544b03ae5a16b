import { Table } from '@mantine/core';
import type { Column } from './declaration.ts';
import { cellContent } from './format.ts';

interface DataTableProps<Row> {
  /** Names the table for assistive technology (the screen title). */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
}

/** The rows of one page under the declared columns; empty cells show '-'. */
export function DataTable<Row>({ label, columns, rows, rowKey }: DataTableProps<Row>) {
  return (
    // Wide tables scroll sideways inside the page instead of squeezing the text columns.
    <Table.ScrollContainer type="native" minWidth={columns.length * 120}>
      <Table
        aria-label={label}
        striped
        highlightOnHover
        withTableBorder
        withColumnBorders
        verticalSpacing="xs"
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.header} ta="center" style={{ whiteSpace: 'nowrap' }}>
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
                  ta={column.prose ? 'left' : 'center'}
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
