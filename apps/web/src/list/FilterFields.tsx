import { Checkbox, Group, NativeSelect, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../lib/api.ts';
import {
  type DateRangeFilterField,
  type FilterField,
  type LoadedSelectFilterField,
  type OptionSource,
  queryKeys,
  type SelectOption,
  type TextFilterField,
} from './declaration.ts';
import widths from './FilterFields.module.css';
import { lazyPart } from './onFirstUse.tsx';
import { isRelativePeriod, RELATIVE_PERIODS, resolvePeriod } from './relativeDates.ts';

/** Choices and suggestions change rarely: asking once per screen visit is plenty. */
const CHOICES_STALE_MS = 5 * 60_000;

/** The request for a select's choices: one per endpoint, so fields sharing it ask once. */
export function optionSourceQuery(source: OptionSource) {
  return {
    queryKey: queryKeys.filterOptions(source.endpoint),
    // The answer is kept checked: the fields sharing the endpoint each pick their choices from it.
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const [payload, read] = await Promise.all([apiFetch(source.endpoint, { signal }), source.reader()]);
      try {
        return read(payload);
      } catch (error) {
        // A malformed answer: the selects still offer 'All' and their current value.
        console.error(`${source.endpoint}: invalid choices`, error);
        throw error;
      }
    },
    staleTime: CHOICES_STALE_MS,
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

function LoadedSelect({
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
      className={widths.w200}
    />
  );
}

/** How long after the field first draws its combobox is fetched, if the operator has not come to it. */
const AUTOCOMPLETE_AFTER_MS = 1000;

const autocomplete = lazyPart(() => import('./SuggestingInput.tsx').then((m) => m.SuggestingAutocomplete));

/**
 * A text filter with suggestions (e.g. the makes): loaded once, shared by every screen, cached. A
 * plain input of the same look until the combobox's code is in (asked for when the operator comes
 * to the field); an operator already typing keeps the text, the focus and the caret.
 */
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
    queryKey: queryKeys.suggestions(source?.key ?? field.name),
    queryFn: ({ signal }) => (source ? source.load(signal) : Promise.resolve([])),
    enabled: source !== undefined,
    staleTime: CHOICES_STALE_MS,
  });
  const [Combobox, setCombobox] = useState(() => autocomplete.loaded());
  const standIn = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState<number | undefined>(undefined);
  // Fetched when the operator comes to the field (pointer over it, or the focus), or a moment after
  // the list drew: not with its first download, which is the rows'.
  const fetch = () => {
    autocomplete
      .load()
      .then((loaded) => {
        const input = standIn.current;
        if (input && document.activeElement === input) setCaret(input.selectionStart ?? input.value.length);
        setCombobox(() => loaded);
      })
      .catch((error: unknown) => console.error(`${field.label}: suggestions unavailable`, error));
  };
  useEffect(() => {
    if (Combobox) return;
    const later = window.setTimeout(fetch, AUTOCOMPLETE_AFTER_MS);
    return () => window.clearTimeout(later);
  });
  if (Combobox) {
    return (
      <Combobox
        name={field.name}
        label={field.label}
        placeholder={field.placeholder}
        suggestions={data ?? []}
        value={value}
        onChange={onChange}
        autoFocusAt={caret}
      />
    );
  }
  return (
    <TextInput
      ref={standIn}
      onFocus={fetch}
      onPointerEnter={fetch}
      name={field.name}
      label={field.label}
      placeholder={field.placeholder}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      className={widths.w240}
    />
  );
}

/** The input of a one-value filter; `value` and `onChange` carry its text ('true'/'false' for a checkbox). */
export function FilterInput({
  field,
  value,
  onChange,
}: {
  field: Exclude<FilterField, DateRangeFilterField>;
  value: string;
  onChange: (value: string) => void;
}) {
  if (field.kind === 'loadedSelect') return <LoadedSelect field={field} value={value} onChange={onChange} />;
  if (field.kind === 'select') {
    return (
      <NativeSelect
        name={field.name}
        label={field.label}
        data={field.options}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        className={widths.w240}
      />
    );
  }
  if (field.kind === 'checkbox') {
    return (
      <Checkbox
        name={field.name}
        label={field.label}
        checked={value === 'true'}
        onChange={(event) => onChange(event.currentTarget.checked ? 'true' : 'false')}
        mb={8}
      />
    );
  }
  if (field.suggestions) return <SuggestingInput field={field} value={value} onChange={onChange} />;
  return (
    <TextInput
      name={field.name}
      label={field.label}
      placeholder={field.placeholder}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      className={widths.w200}
    />
  );
}

const CUSTOM_RANGE = '';

/**
 * Two native date inputs (their value is an ISO date), side by side under one group name, after a
 * 'Period' choice: today, the last 7 or 30 days, this month, last month (kept as words, so a link or a
 * saved view stays relative; the dates shown are what it means today) or a custom range.
 */
export function DateRangeInputs({
  field,
  values,
  onChange,
}: {
  field: DateRangeFilterField;
  values: Readonly<Record<string, string>>;
  onChange: (name: string, value: string) => void;
}) {
  const fromValue = values[field.from.name];
  const period = isRelativePeriod(fromValue) ? fromValue : undefined;
  const shown = period ? resolvePeriod(period) : undefined;
  const choosePeriod = (choice: string) => {
    if (isRelativePeriod(choice)) {
      onChange(field.from.name, choice);
      onChange(field.to.name, '');
    } else if (shown) {
      // From a period to a custom range: start from the dates the period meant.
      onChange(field.from.name, shown.from);
      onChange(field.to.name, shown.to);
    }
  };
  return (
    <Group role="group" aria-label={field.label} gap="md" wrap="wrap" align="flex-end">
      <NativeSelect
        label={`${field.label}: period`}
        data={[
          { value: CUSTOM_RANGE, label: 'Custom range' },
          ...RELATIVE_PERIODS.map((p) => ({ value: p.token, label: p.label })),
        ]}
        value={period ?? CUSTOM_RANGE}
        onChange={(event) => choosePeriod(event.currentTarget.value)}
        className={widths.w170}
      />
      {[field.from, field.to].map((part) => (
        <TextInput
          key={part.name}
          type="date"
          name={part.name}
          label={part.label}
          disabled={period !== undefined}
          value={shown ? (part === field.from ? shown.from : shown.to) : (values[part.name] ?? '')}
          // Each bound limits the other's calendar, so the picker does not offer an empty period.
          max={part === field.from ? values[field.to.name] || undefined : undefined}
          min={part === field.to && !period ? values[field.from.name] || undefined : undefined}
          onChange={(event) => onChange(part.name, event.currentTarget.value)}
          className={widths.w170}
        />
      ))}
    </Group>
  );
}
