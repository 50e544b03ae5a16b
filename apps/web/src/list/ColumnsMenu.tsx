import { ActionIcon, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';
import type { ColumnLayout } from '@obd/contract';
import { useEffect, useRef, useState } from 'react';
import { moveColumn, orderedColumns, toggleColumn } from './columnLayout.ts';
import type { Column } from './declaration.ts';

/** What the columns menu is given; `openAtOnce` when the click that fetched it should open it. */
export interface ColumnsMenuProps<Row> {
  columns: readonly Column<Row>[];
  layout: ColumnLayout | null;
  onChange: (layout: ColumnLayout | null) => void;
  openAtOnce?: boolean;
}

/**
 * The table's menu of columns (issue 12): show or hide each, move it up or down (buttons, so a
 * keyboard does it too), and go back to the declared columns.
 */
export function ColumnsMenu<Row>({ columns, layout, onChange, openAtOnce = false }: ColumnsMenuProps<Row>) {
  const all = columns as readonly Column<unknown>[];
  const ordered = orderedColumns(all, layout);
  const hidden = new Set(layout?.hidden ?? []);
  const [open, setOpen] = useState(openAtOnce);
  // Fetched by a click on its stand-in (ListTools.tsx): the button that now replaces it keeps the focus.
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (openAtOnce) target.current?.focus();
  }, [openAtOnce]);
  const shownCount = ordered.filter((column) => !hidden.has(column.header)).length;
  return (
    <Popover position="bottom-end" withArrow shadow="md" opened={open} onChange={setOpen}>
      <Popover.Target>
        <Button
          ref={target}
          variant="default"
          size="xs"
          onClick={() => setOpen((was) => !was)}
          aria-expanded={open}
        >
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
