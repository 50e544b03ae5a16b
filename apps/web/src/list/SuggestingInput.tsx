import { Autocomplete } from '@mantine/core';
import widths from './FilterFields.module.css';

/**
 * A text filter's input with suggestions (Mantine's Autocomplete: a combobox and its dropdown).
 * Fetched on demand by FilterFields.tsx, which shows a plain input of the same look meanwhile: the
 * combobox brings floating-ui, which a list page's first download does without.
 */
export function SuggestingAutocomplete({
  name,
  label,
  placeholder,
  suggestions,
  value,
  onChange,
  autoFocusAt,
}: {
  name: string;
  label: string;
  placeholder: string | undefined;
  suggestions: readonly string[];
  value: string;
  onChange: (value: string) => void;
  /** The caret of the stand-in the operator was typing in: the combobox takes the focus there. */
  autoFocusAt: number | undefined;
}) {
  return (
    <Autocomplete
      name={name}
      label={label}
      placeholder={placeholder}
      data={[...new Set(suggestions)]}
      value={value}
      onChange={onChange}
      limit={20}
      className={widths.w240}
      ref={(input) => {
        if (input && autoFocusAt !== undefined && document.activeElement !== input) {
          input.focus();
          input.setSelectionRange(autoFocusAt, autoFocusAt);
        }
      }}
    />
  );
}
