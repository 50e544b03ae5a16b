import { ActionIcon, Button, Checkbox, Group, Popover, SegmentedControl, Stack, Text } from '@mantine/core';
import type { ColumnLayout, Density } from '@obd/contract';
import { useState } from 'react';
import { moveColumn, orderedColumns, toggleColumn } from './columnLayout.ts';
import { readableHeader } from './columns.tsx';
import type { Column } from './declaration.ts';
import { SortHeader } from './SortHeader.tsx';
import type { ListSort } from './sortState.ts';

/**
 * The table's menu of columns (issue 12): show or hide each, move it up or down (buttons, so a
 * keyboard does it too), and go back to the declared columns.
 */
export function ColumnsMenu<Row>({
  columns,
  layout,
  onChange,
}: {
  columns: readonly Column<Row>[];
  layout: ColumnLayout | null;
  onChange: (layout: ColumnLayout | null) => void;
}) {
  const all = columns as readonly Column<unknown>[];
  const ordered = orderedColumns(all, layout);
  const hidden = new Set(layout?.hidden ?? []);
  const [open, setOpen] = useState(false);
  const shownCount = ordered.filter((column) => !hidden.has(column.header)).length;
  return (
    <Popover position="bottom-end" withArrow shadow="md" opened={open} onChange={setOpen}>
      <Popover.Target>
        <Button variant="default" size="xs" onClick={() => setOpen((was) => !was)} aria-expanded={open}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4} role="group" aria-label="Columns">
          <Text size="xs" c="dimmed">
            Show, hide and order the columns
          </Text>
          {ordered.map((column, index) => (
            <Group key={column.header} gap="xs" justify="space-between" wrap="nowrap">
              <Checkbox
                size="xs"
                label={column.header}
                checked={!hidden.has(column.header)}
                disabled={!hidden.has(column.header) && shownCount === 1}
                onChange={() => onChange(toggleColumn(all, layout, column.header))}
              />
              <Group gap={2} wrap="nowrap">
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  aria-label={`Move ${column.header} up`}
                  disabled={index === 0}
                  onClick={() => onChange(moveColumn(all, layout, column.header, -1))}
                >
                  ↑
                </ActionIcon>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  aria-label={`Move ${column.header} down`}
                  disabled={index === ordered.length - 1}
                  onClick={() => onChange(moveColumn(all, layout, column.header, 1))}
                >
                  ↓
                </ActionIcon>
              </Group>
            </Group>
          ))}
          <Button size="xs" variant="subtle" onClick={() => onChange(null)} disabled={layout === null}>
            Reset to default
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Compact or comfortable rows. */
export function DensityToggle({
  density,
  onChange,
}: {
  density: Density;
  onChange: (density: Density) => void;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label="Row density"
      value={density}
      onChange={(value) => onChange(value === 'compact' ? 'compact' : 'comfortable')}
      data={[
        { value: 'comfortable', label: 'Comfortable' },
        { value: 'compact', label: 'Compact' },
      ]}
    />
  );
}

/**
 * The sort of a list drawn without a table (cards, a list of names): no header to click, so one
 * sort button per sortable field beside the other tools, each cycling ascending, descending and
 * the list's own order as a header does.
 */
export function SortButtons({
  fields,
  sort,
  onSort,
}: {
  fields: readonly string[];
  sort: ListSort | undefined;
  onSort: (field: string) => void;
}) {
  return (
    <Group gap="xs" role="group" aria-label="Sort">
      <Text size="xs" c="dimmed">
        Sort by
      </Text>
      {fields.map((field) => (
        <SortHeader key={field} header={readableHeader(field)} field={field} sort={sort} onSort={onSort} />
      ))}
    </Group>
  );
}
