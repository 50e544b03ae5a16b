import { describe, expect, it } from 'vitest';
import type { FilterField } from './declaration.ts';
import { parseListState, search, serialiseListState } from './listState.ts';

// Filters with default values (the command lookup: make Honda, scan, full scan on).
const fields: readonly FilterField[] = [
  { kind: 'text', name: 'make', label: 'Make', defaultValue: 'Honda' },
  {
    kind: 'select',
    name: 'function_type',
    label: 'Function Type',
    options: [
      { value: 'scan', label: 'Scan' },
      { value: 'vin', label: 'VIN' },
    ],
    defaultValue: 'scan',
  },
  { kind: 'checkbox', name: 'full_scan', label: 'Full Scan', defaultValue: 'true' },
  { kind: 'text', name: 'model', label: 'Model' },
];

describe('filters with default values', () => {
  it('a bare address is the defaults, and the defaults write a bare address', () => {
    const state = parseListState(new URLSearchParams(''), fields);
    expect(state).toEqual({ page: 1, filters: { make: 'Honda', function_type: 'scan', full_scan: 'true' } });
    expect(serialiseListState(state, fields).toString()).toBe('');
  });

  it('an emptied text field is written as `name=` and read back as empty, not as the default', () => {
    const state = search(fields, { make: '  ', function_type: 'scan', full_scan: 'true' });
    expect(state.filters).toEqual({ function_type: 'scan', full_scan: 'true' });
    const address = serialiseListState(state, fields);
    expect(address.toString()).toBe('make=');
    expect(parseListState(address, fields)).toEqual(state);
  });

  it('keeps other values in the address and round-trips them', () => {
    const state = search(fields, {
      make: 'Toyota',
      function_type: 'vin',
      full_scan: 'false',
      model: 'Camry',
    });
    const address = serialiseListState(state, fields);
    expect(address.toString()).toBe('make=Toyota&function_type=vin&full_scan=false&model=Camry');
    expect(parseListState(address, fields)).toEqual(state);
  });

  it('a junk choice falls back to its default; a checkbox is only true or false', () => {
    const state = parseListState(new URLSearchParams('function_type=nope&full_scan=maybe'), fields);
    expect(state.filters).toEqual({ make: 'Honda', function_type: 'scan', full_scan: 'true' });
    expect(search(fields, { full_scan: 'yes' }).filters).toEqual({});
  });
});
