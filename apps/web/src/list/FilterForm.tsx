import { Autocomplete, Button, Checkbox, Group, NativeSelect, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { DateRangeInputs, LoadedSelect } from './FilterFields.tsx';
import { cleanFilters, type FilterField, type FilterValues, type TextFilterField } from './listState.ts';

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

/** The declared filters and a Search button; submitting (button or Enter) searches from page 1. */
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
    if (canSearch && !canSearch(cleaned)) return;
    onSearch(entered);
  };

  return (
    <form onSubmit={submit} aria-label="Filters">
      <Group align="flex-end" gap="md" wrap="wrap">
        {fields.map((field) => {
          if (field.kind === 'dateRange') {
            return <DateRangeInputs key={field.label} field={field} values={entered} onChange={setField} />;
          }
          const value = entered[field.name] ?? '';
          if (field.kind === 'loadedSelect') {
            return (
              <LoadedSelect
                key={field.name}
                field={field}
                value={value}
                onChange={(next) => setField(field.name, next)}
              />
            );
          }
          if (field.kind === 'select') {
            return (
              <NativeSelect
                key={field.name}
                name={field.name}
                label={field.label}
                data={field.options.map((option) => ({ value: option.value, label: option.label }))}
                value={value}
                onChange={(event) => setField(field.name, event.currentTarget.value)}
                w={{ base: '100%', xs: 240 }}
              />
            );
          }
          if (field.kind === 'checkbox') {
            return (
              <Checkbox
                key={field.name}
                name={field.name}
                label={field.label}
                checked={value === 'true'}
                onChange={(event) => setField(field.name, event.currentTarget.checked ? 'true' : 'false')}
                mb={8}
              />
            );
          }
          if (field.suggestions) {
            return (
              <SuggestingInput
                key={field.name}
                field={field}
                value={value}
                onChange={(next) => setField(field.name, next)}
              />
            );
          }
          return (
            <TextInput
              key={field.name}
              name={field.name}
              label={field.label}
              placeholder={field.placeholder}
              value={value}
              onChange={(event) => setField(field.name, event.currentTarget.value)}
              w={{ base: '100%', xs: 200 }}
            />
          );
        })}
        {trigger === 'submit' && (
          <Button type="submit" disabled={loading || (canSearch ? !canSearch(cleaned) : false)} miw={110}>
            {loading ? 'Loading...' : searchLabel}
          </Button>
        )}
      </Group>
    </form>
  );
}

/** A text filter with suggestions (e.g. the makes): loaded once, shared by every screen, cached. */
function SuggestingInput({
  field,
  value,
  onChange,
}: {
  field: TextFilterField;
  value: string;
  onChange: (value: string) => void;
}) {
  const source = field.suggestions;
  const { data } = useQuery({
    queryKey: ['suggestions', source?.key ?? field.name],
    queryFn: ({ signal }) => (source ? source.load(signal) : Promise.resolve([])),
    enabled: source !== undefined,
    staleTime: 5 * 60_000,
  });
  return (
    <Autocomplete
      name={field.name}
      label={field.label}
      placeholder={field.placeholder}
      data={data ? [...new Set(data)] : []}
      value={value}
      onChange={onChange}
      limit={20}
      w={{ base: '100%', xs: 240 }}
    />
  );
}

function sameFilters(a: FilterValues, b: FilterValues): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
