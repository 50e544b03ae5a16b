import { Anchor, Text } from '@mantine/core';
import { useState } from 'react';
import { keyedByOccurrence } from './format.ts';

/** How many values a cell shows before "and N more". */
export const CELL_LIST_FIRST = 5;

/**
 * A long list inside a cell (the 46 makes of an unfiltered custom-command group): the first few,
 * then "and 41 more", which shows the rest (and "show fewer" folds them again).
 */
export function CellList({ items, first = CELL_LIST_FIRST }: { items: readonly string[]; first?: number }) {
  const [open, setOpen] = useState(false);
  if (items.length === 0) return '-';
  const folded = !open && items.length > first + 1;
  const shown = folded ? items.slice(0, first) : items;
  return (
    <Text component="span" size="sm">
      {keyedByOccurrence(shown).map(({ key, value }, index) => (
        <span key={key}>
          {index > 0 && ', '}
          {value}
        </span>
      ))}
      {items.length > first + 1 && (
        <>
          {' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => setOpen(!open)}
            aria-expanded={open}
          >
            {folded ? `and ${items.length - first} more` : 'show fewer'}
          </Anchor>
        </>
      )}
    </Text>
  );
}

/** A comma-separated value as the items of a `CellList` ('Honda, Toyota' → ['Honda', 'Toyota']). */
export function splitList(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
