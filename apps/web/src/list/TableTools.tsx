import { Group, SegmentedControl, Text } from '@mantine/core';
import type { Density } from '@obd/contract';
import { readableHeader } from './columns.tsx';
import { SortHeader } from './SortHeader.tsx';
import type { ListSort } from './sortState.ts';

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
