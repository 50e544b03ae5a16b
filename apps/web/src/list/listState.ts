/**
 * The state of a list screen — which page, which filters were last searched — and its only
 * transitions. Pure functions, so every rule (a search goes back to page 1, paging keeps the
 * searched filters, junk in the address is ignored) is unit-tested without React.
 */

import type { FilterField, FilterValues } from './declaration.ts';
import { isRelativePeriod } from './relativeDates.ts';
import { type ListSort, nextSort, parseSort, writeSort } from './sortState.ts';

/** The query parameters a field stands for: one, or two for a date range. */
export function filterParams<Name extends string>(field: FilterField<Name>): Name[] {
  return field.kind === 'dateRange' ? [field.from.name, field.to.name] : [field.name];
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2025-03-01` and a real calendar day (not `2025-02-30`). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function acceptsValue(field: FilterField, value: string, name: string): boolean {
  if (field.kind === 'select') return field.options.some((option) => option.value === value);
  // A period said in words (`@last7d`, issue 12) stands in a range's `from`, for the whole range.
  if (field.kind === 'dateRange')
    return isIsoDate(value) || (name === field.from.name && isRelativePeriod(value));
  if (field.kind === 'checkbox') return value === 'true' || value === 'false';
  return true;
}

export interface ListState {
  /** 1-based. */
  readonly page: number;
  readonly filters: FilterValues;
  /** The column the rows are sorted by (issue 12); absent: the list's own order. */
  readonly sort?: ListSort;
}

/** What a screen without default filter values shows when opened fresh: page 1, no filters (spec §2.18). */
export const INITIAL_LIST_STATE: ListState = { page: 1, filters: {} };

const PAGE_PARAM = 'page';

/**
 * Keeps what the server can filter on: declared fields only, trimmed, non-empty, and for a select
 * one of its options. In declaration order, so equal searches serialise to equal addresses.
 */
export function cleanFilters(
  fields: readonly FilterField[],
  entered: Readonly<Record<string, string | null | undefined>>,
): FilterValues {
  const filters: Record<string, string> = {};
  for (const field of fields) {
    for (const name of filterParams(field)) {
      const value = entered[name]?.trim();
      if (value && acceptsValue(field, value, name)) filters[name] = value;
    }
    if (field.kind === 'dateRange' && isRelativePeriod(filters[field.from.name]))
      delete filters[field.to.name];
  }
  return filters;
}

/** The Search button: the entered filters, cleaned, from page 1 (a new search must not land on page 7). */
export function search(
  fields: readonly FilterField[],
  entered: Readonly<Record<string, string | null | undefined>>,
): ListState {
  return { page: 1, filters: cleanFilters(fields, entered) };
}

/** A pager button: another page of the filters last searched — not of whatever is typed in the form. */
export function goToPage(state: ListState, page: number): ListState {
  return { ...state, page: toPageNumber(page) };
}

export function hasFilters(state: ListState): boolean {
  return Object.keys(state.filters).length > 0;
}

/**
 * Reads the state from the address bar. Tolerant: a pasted or hand-edited link never breaks the
 * screen, it falls back to page 1 / no filter for whatever part is junk (`page=abc`, `generic=maybe`).
 */
export function parseListState(
  params: URLSearchParams,
  fields: readonly FilterField[],
  sortFields?: readonly string[],
): ListState {
  const entered: Record<string, string | null | undefined> = {};
  for (const field of fields) for (const name of filterParams(field)) entered[name] = params.get(name);
  // A field with a default: absent from the address means the default (`name=` means emptied).
  for (const field of fields) {
    if (field.kind !== 'dateRange' && field.defaultValue !== undefined && entered[field.name] === null) {
      entered[field.name] = field.defaultValue;
    }
  }
  const filters = { ...cleanFilters(fields, entered) };
  // A choice (select, checkbox) that is junk falls back to its default; only text may be emptied.
  for (const field of fields) {
    if (field.kind !== 'text' && field.kind !== 'dateRange' && field.defaultValue && !filters[field.name]) {
      filters[field.name] = field.defaultValue;
    }
  }
  const sort = parseSort(params, sortFields);
  return { page: parsePage(params.get(PAGE_PARAM)), filters, ...(sort ? { sort } : {}) };
}

/** A header click: the next sort of that column (ascending, descending, none), from page 1. */
export function sortBy(state: ListState, field: string): ListState {
  const { sort: _, ...rest } = state;
  const sort = nextSort(state.sort, field);
  return { ...rest, page: 1, ...(sort ? { sort } : {}) };
}

/**
 * Writes the state for the address bar: filters in declaration order, then the page. Defaults are
 * left out, so a fresh screen's address stays bare and equal states give equal addresses.
 */
export function serialiseListState(state: ListState, fields: readonly FilterField[]): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of fields) {
    for (const name of filterParams(field)) {
      const value = state.filters[name];
      const defaultValue = field.kind === 'dateRange' ? undefined : field.defaultValue;
      if (defaultValue !== undefined && (value ?? '') === defaultValue) continue;
      if (value) params.set(name, value);
      else if (defaultValue) params.set(name, '');
    }
  }
  writeSort(params, state.sort);
  if (state.page > 1) params.set(PAGE_PARAM, String(state.page));
  return params;
}

/**
 * The address of the list at `path` searched for `entered` (page 1), written exactly as that list
 * writes its own address, e.g. a fault code linking to `/FaultCodeList?dtc=P0300`.
 */
export function listHref(
  path: string,
  fields: readonly FilterField[],
  entered: Readonly<Record<string, string | null | undefined>>,
): string {
  const query = serialiseListState(search(fields, entered), fields).toString();
  return query ? `${path}?${query}` : path;
}

function parsePage(raw: string | null): number {
  if (!raw || !/^\d+$/.test(raw.trim())) return 1;
  return toPageNumber(Number(raw));
}

function toPageNumber(page: number): number {
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}
