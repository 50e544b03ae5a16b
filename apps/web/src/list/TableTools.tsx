import { Button, Group, Text } from '@mantine/core';
import type { Density } from '@obd/contract';
import { readableHeader } from './columns.tsx';
import { SortHeader } from './SortHeader.tsx';
import type { ListSort } from './sortState.ts';

const DENSITIES: readonly { value: Density; label: string }[] = [
  { value: 'comfortable', label: 'Comfortable' },
  { value: 'compact', label: 'Compact' },
];

/**
 * Compact or comfortable rows: two pressed/unpressed buttons. Not Mantine's SegmentedControl: its
 * sliding indicator measures the DOM when it mounts, a forced layout on every list page's first
 * render (131 ms of main thread in a profile of the scans list at load 5, issue 14 item 6).
 */
export function DensityToggle({
  density,
  onChange,
}: {
  density: Density;
  onChange: (density: Density) => void;
}) {
  return (
    <Button.Group aria-label="Row density">
      {DENSITIES.map(({ value, label }) => (
        <Button
          key={value}
          size="compact-xs"
          variant={density === value ? 'filled' : 'default'}
          aria-pressed={density === value}
          onClick={() => onChange(value)}
        >
          {label}
        </Button>
      ))}
    </Button.Group>
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
