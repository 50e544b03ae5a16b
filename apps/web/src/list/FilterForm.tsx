import { Button, Group } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { FilterField, FilterValues } from './declaration.ts';
import { DateRangeInputs, FilterInput } from './FilterFields.tsx';
import { cleanFilters } from './listState.ts';

/** How long the form waits after the last keystroke before an automatic search. */
export const AUTO_SEARCH_DELAY_MS = 400;

interface FilterFormProps {
  fields: readonly FilterField[];
  /** The filters last searched; the form shows them again after Back/Forward or a reload. */
  searched: FilterValues;
  loading: boolean;
  onSearch: (entered: Record<string, string>, options?: { replace?: boolean }) => void;
  /**
   * `'submit'` (default): a Search button (and Enter) searches. `'auto'`: the form searches by itself
   * once typing pauses, replacing the history entry (one entry per search, not per keystroke).
   */
  trigger?: 'submit' | 'auto';
  /** The button's text, default 'Search'. */
  searchLabel?: string;
  /** Whether the entered filters can be searched; the button is disabled when not. */
  canSearch?: (filters: FilterValues) => boolean;
}

/**
 * The declared filters, and a Search button: submitting (button or Enter) searches from page 1.
 * With `trigger: 'auto'` there is no button: the form searches once typing pauses.
 */
export function FilterForm({
  fields,
  searched,
  loading,
  onSearch,
  trigger = 'submit',
  searchLabel = 'Search',
  canSearch,
}: FilterFormProps) {
  const [entered, setEntered] = useState<Record<string, string>>(() => ({ ...searched }));
  const [shownSearch, setShownSearch] = useState(searched);
  // The address changed (paging, Back/Forward, a sidebar link): show the search the rows belong to,
  // not text typed but never searched. Adjusting state during render keeps focus, unlike a remount.
  // Text that already is that search stays as typed (an automatic search must not eat a trailing space).
  if (shownSearch !== searched) {
    setShownSearch(searched);
    if (!sameFilters(cleanFilters(fields, entered), searched)) setEntered({ ...searched });
  }

  const setField = (name: string, value: string) => setEntered((current) => ({ ...current, [name]: value }));
  const cleaned = cleanFilters(fields, entered);
  const pending = !sameFilters(cleaned, searched);
  const searchable = canSearch?.(cleaned) ?? true;

  // Automatic search: once typing pauses on a search other than the one shown. The latest
  // `onSearch` is read through a ref, so a re-render of the screen does not restart the wait.
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;
  useEffect(() => {
    if (trigger !== 'auto' || !pending) return;
    const timer = setTimeout(() => onSearchRef.current(entered, { replace: true }), AUTO_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [trigger, pending, entered]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (searchable) onSearch(entered);
  };

  return (
    <form onSubmit={submit} aria-label="Filters">
      <Group align="flex-end" gap="md" wrap="wrap">
        {fields.map((field) =>
          field.kind === 'dateRange' ? (
            <DateRangeInputs key={field.label} field={field} values={entered} onChange={setField} />
          ) : (
            <FilterInput
              key={field.name}
              field={field}
              value={entered[field.name] ?? ''}
              onChange={(next) => setField(field.name, next)}
            />
          ),
        )}
        {trigger === 'submit' && (
          <Button type="submit" disabled={loading || !searchable} miw={110}>
            {loading ? 'Loading...' : searchLabel}
          </Button>
        )}
      </Group>
    </form>
  );
}

function sameFilters(a: FilterValues, b: FilterValues): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
