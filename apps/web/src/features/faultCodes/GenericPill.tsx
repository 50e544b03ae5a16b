import { Badge } from '@mantine/core';
import { EMPTY_CELL } from '../../list/format.ts';

/** The Generic flag as a pill: green Yes, gray No (spec §2.18). */
export function GenericPill({ generic }: { generic: boolean | null | undefined }) {
  if (generic === null || generic === undefined) return EMPTY_CELL;
  return (
    <Badge color={generic ? 'green' : 'gray'} variant="light" radius="xl" tt="none">
      {generic ? 'Yes' : 'No'}
    </Badge>
  );
}
