import { describe, expect, it } from 'vitest';
import type { FilterField } from './declaration.ts';
import {
  goToPage,
  hasFilters,
  INITIAL_LIST_STATE,
  parseListState,
  search,
  serialiseListState,
} from './listState.ts';

const fields: readonly FilterField[] = [
  { kind: 'text', name: 'dtc', label: 'DTC Code' },
  { kind: 'text', name: 'make', label: 'Make' },
  {
    kind: 'select',
    name: 'generic',
    label: 'Generic',
    options: [
      { value: '', label: 'All' },
      { value: 'true', label: 'Generic Only' },
      { value: 'false', label: 'Non-Generic Only' },
    ],
  },
];

describe('search', () => {
  it('goes back to page 1 with the trimmed, non-empty filters', () => {
    expect(search(fields, { dtc: '  P03 ', make: '   ', generic: '' })).toEqual({
      page: 1,
      filters: { dtc: 'P03' },
    });
  });

  it('drops undeclared names and select values that are not options', () => {
    expect(search(fields, { dtc: 'P0', color: 'red', generic: 'maybe' })).toEqual({
      page: 1,
      filters: { dtc: 'P0' },
    });
    expect(search(fields, { generic: 'false' }).filters).toEqual({ generic: 'false' });
  });
});

describe('goToPage', () => {
  it('keeps the filters last searched', () => {
    const searched = search(fields, { make: 'Honda', generic: 'false' });
    expect(goToPage(searched, 3)).toEqual({ page: 3, filters: { make: 'Honda', generic: 'false' } });
  });

  it('never leaves page 1 for a page that cannot exist', () => {
    expect(goToPage(INITIAL_LIST_STATE, 0).page).toBe(1);
    expect(goToPage(INITIAL_LIST_STATE, -2).page).toBe(1);
    expect(goToPage(INITIAL_LIST_STATE, 2.5).page).toBe(1);
  });
});

describe('hasFilters', () => {
  it('tells a filtered search from the unfiltered list', () => {
    expect(hasFilters(INITIAL_LIST_STATE)).toBe(false);
    expect(hasFilters(search(fields, { dtc: ' ' }))).toBe(false);
    expect(hasFilters(search(fields, { dtc: 'P0' }))).toBe(true);
  });
});

describe('address bar', () => {
  const parse = (search: string) => parseListState(new URLSearchParams(search), fields);

  it('reads page and filters back', () => {
    expect(parse('dtc=P03&make=Honda&generic=true&page=4')).toEqual({
      page: 4,
      filters: { dtc: 'P03', make: 'Honda', generic: 'true' },
    });
  });

  it('is the initial state for an empty search', () => {
    expect(parse('')).toEqual(INITIAL_LIST_STATE);
  });

  it.each(['page=abc', 'page=0', 'page=-3', 'page=2.5', 'page=1e3', 'page=', 'page=99999999999999999999'])(
    'falls back to page 1 for %s',
    (junk) => {
      expect(parse(junk).page).toBe(1);
    },
  );

  it('ignores junk filters and keeps the good ones', () => {
    expect(parse('generic=maybe&make=%20%20&dtc=%20P0%20&sort=desc')).toEqual({
      page: 1,
      filters: { dtc: 'P0' },
    });
  });

  it('writes filters in declared order, and page only past page 1', () => {
    const state = { page: 2, filters: { generic: 'true', dtc: 'P0' } };
    expect(serialiseListState(state, fields).toString()).toBe('dtc=P0&generic=true&page=2');
    expect(serialiseListState(INITIAL_LIST_STATE, fields).toString()).toBe('');
    expect(serialiseListState(search(fields, { make: 'Land Rover' }), fields).toString()).toBe(
      'make=Land+Rover',
    );
  });

  it('round-trips', () => {
    const state = goToPage(search(fields, { dtc: 'P0', make: 'Mercedes-Benz', generic: 'false' }), 7);
    expect(parseListState(serialiseListState(state, fields), fields)).toEqual(state);
  });
});
