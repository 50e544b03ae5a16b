import { Group, NativeSelect, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../lib/api.ts';
import type {
  DateRangeFilterField,
  LoadedSelectFilterField,
  OptionSource,
  SelectOption,
} from './listState.ts';

/** The request for a select's choices: one per endpoint, so fields sharing it ask once. */
export function optionSourceQuery(source: OptionSource) {
  return {
    queryKey: ['filter-options', source.endpoint] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => apiFetch(source.endpoint, { signal }),
    // Choices change rarely: asking once per screen visit is plenty.
    staleTime: 5 * 60_000,
  };
}

/**
 * 'All', then the loaded choices; a value from the address bar that is not (yet) among them is kept
 * as a choice, so the select never silently shows 'All' for a search that is filtered.
 */
export function loadedSelectOptions(
  field: LoadedSelectFilterField,
  payload: unknown,
  value: string,
): SelectOption[] {
  let choices: readonly string[] = [];
  if (payload !== undefined) {
    try {
      const selected: unknown = field.source.select(payload);
      if (!Array.isArray(selected)) throw new TypeError('the choices are not a list');
      choices = selected.filter((choice): choice is string => typeof choice === 'string' && choice !== '');
    } catch (error) {
      // A malformed answer: the select still offers 'All' and the current value.
      console.error(`${field.label}: invalid choices`, error);
    }
  }
  const values = value && !choices.includes(value) ? [...choices, value] : choices;
  return [
    { value: '', label: field.allLabel ?? 'All' },
    ...values.map((choice) => ({ value: choice, label: choice })),
  ];
}

export function LoadedSelect({
  field,
  value,
  onChange,
}: {
  field: LoadedSelectFilterField;
  value: string;
  onChange: (value: string) => void;
}) {
  const { data } = useQuery(optionSourceQuery(field.source));
  return (
    <NativeSelect
      name={field.name}
      label={field.label}
      data={loadedSelectOptions(field, data, value)}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      w={{ base: '100%', xs: 200 }}
    />
  );
}

/** Two native date inputs (their value is an ISO date), side by side under one group name. */
export function DateRangeInputs({
  field,
  values,
  onChange,
}: {
  field: DateRangeFilterField;
  values: Readonly<Record<string, string>>;
  onChange: (name: string, value: string) => void;
}) {
  return (
    <Group role="group" aria-label={field.label} gap="md" wrap="wrap" align="flex-end">
      {[field.from, field.to].map((part) => (
        <TextInput
          key={part.name}
          type="date"
          name={part.name}
          label={part.label}
          value={values[part.name] ?? ''}
          // Each bound limits the other's calendar, so the picker does not offer an empty period.
          max={part === field.from ? values[field.to.name] || undefined : undefined}
          min={part === field.to ? values[field.from.name] || undefined : undefined}
          onChange={(event) => onChange(part.name, event.currentTarget.value)}
          w={{ base: '100%', xs: 170 }}
        />
      ))}
    </Group>
  );
}
