import { Card, Group, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';

/**
 * One chart of the Overview with its table: the table carries the same figures and the same links
 * (a keyboard or screen-reader user's way through the chart's doors), shown by the toggle.
 */
export function ChartCard({
  title,
  description,
  empty,
  chart,
  table,
}: {
  title: string;
  description?: string;
  /** When set, the sentence shown instead of the chart and the table. */
  empty?: string | false;
  chart: ReactNode;
  table: ReactNode;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    // miw 0: a grid item is otherwise at least as wide as its content, and a chart drawn before a
    // scrollbar appeared would keep its column too wide, cut off by the card.
    <Card withBorder padding="md" radius="md" component="section" aria-label={title} miw={0}>
      <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
        <div>
          <Title order={3} size="h5">
            {title}
          </Title>
          {description && (
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {!empty && (
          <SegmentedControl
            size="xs"
            aria-label={`${title}: show as`}
            value={view}
            onChange={(value) => setView(value === 'table' ? 'table' : 'chart')}
            data={[
              { value: 'chart', label: 'Chart' },
              { value: 'table', label: 'Table' },
            ]}
          />
        )}
      </Group>
      {empty ? (
        <Text c="dimmed" size="sm" py="lg" ta="center">
          {empty}
        </Text>
      ) : view === 'chart' ? (
        chart
      ) : (
        <Table.ScrollContainer minWidth={0} maxHeight={360}>
          {table}
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/** A plain table of a chart's figures: header cells, then rows of cells. */
export function FiguresTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: readonly string[];
  rows: readonly { key: string; cells: readonly ReactNode[] }[];
}) {
  return (
    <Table striped highlightOnHover withTableBorder fz="sm" stickyHeader>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {head.map((cell) => (
            <Table.Th key={cell}>{cell}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            {row.cells.map((cell, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the cells of a row are positional
              <Table.Td key={index}>{cell}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
