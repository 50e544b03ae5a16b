/**
 * The state of a list screen — which page, which filters were last searched — and its only
 * transitions. Pure functions, so every rule (a search goes back to page 1, paging keeps the
 * searched filters, junk in the address is ignored) is unit-tested without React.
 */

/** One choice of a select filter; the value `''` means "no filter" (e.g. 'All (Generic/Non-Generic)'). */
export interface SelectOption {
  value: string;
  label: string;
}

/**
 * Where a text filter's suggestions come from (e.g. the make list, decisions §5): loaded once per
 * `key` and cached, so every screen with a make input shares one request.
 */
export interface SuggestionSource {
  key: string;
  load: (signal: AbortSignal) => Promise<readonly string[]>;
}

/** The query key a suggestion list is cached under, shared by every screen that offers it. */
export const suggestionsQueryKey = (key: string) => ['suggestions', key] as const;

interface FilterFieldBase<Name extends string> {
  /** The query-parameter name, shared by the address bar and the API call. */
  name: Name;
  label: string;
  placeholder?: string;
  /**
   * The value a fresh screen starts with (e.g. make 'Honda'). Left out of the address while it is
   * the value; an operator who empties the field gets `name=` in the address, so the empty search
   * survives a reload instead of snapping back to the default.
   */
  defaultValue?: string;
}

export interface TextFilterField<Name extends string = string> extends FilterFieldBase<Name> {
  kind: 'text';
  /** Suggestions while typing (an autocomplete); any text may still be searched. */
  suggestions?: SuggestionSource;
}

/** An on/off filter, sent as `true` / `false`. */
export interface CheckboxFilterField<Name extends string = string> extends FilterFieldBase<Name> {
  kind: 'checkbox';
}

export interface SelectFilterField<Name extends string = string> extends FilterFieldBase<Name> {
  kind: 'select';
  options: readonly SelectOption[];
}

/** Where a select's choices come from: an endpoint, asked once and shared by every field naming it. */
export interface OptionSource {
  /** API path answering the choices, e.g. `/api/users/facets`. */
  endpoint: string;
  /** The choices in that answer (each is its own value and label); may throw on a malformed answer. */
  select: (payload: unknown) => readonly string[];
}

/**
 * A select whose choices are loaded from the server (e.g. the plans the users have), after an
 * 'All' choice (value `''`). Any value is accepted from the address bar: the choices may not have
 * arrived yet, and the server checks the value anyway.
 */
export interface LoadedSelectFilterField<Name extends string = string> extends FilterFieldBase<Name> {
  kind: 'loadedSelect';
  source: OptionSource;
  /** The no-filter choice; default 'All'. */
  allLabel?: string;
}

/**
 * A period as two ISO-date inputs (`YYYY-MM-DD`), each its own query parameter (e.g.
 * `scan_start_time` from, `scan_end_time` to). A value that is not a real date is dropped.
 */
export interface DateRangeFilterField<Name extends string = string> {
  kind: 'dateRange';
  /** Names the pair for assistive technology. */
  label: string;
  from: { name: Name; label: string };
  to: { name: Name; label: string };
}

/** A filter the screen declares; the list engine renders, cleans and serialises it. */
export type FilterField<Name extends string = string> =
  | TextFilterField<Name>
  | SelectFilterField<Name>
  | LoadedSelectFilterField<Name>
  | DateRangeFilterField<Name>
  | CheckboxFilterField<Name>;

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

function acceptsValue(field: FilterField, value: string): boolean {
  if (field.kind === 'select') return field.options.some((option) => option.value === value);
  if (field.kind === 'dateRange') return isIsoDate(value);
  if (field.kind === 'checkbox') return value === 'true' || value === 'false';
  return true;
}

/** Searched filter values by name: only declared, trimmed, non-empty values. */
export type FilterValues = Readonly<Record<string, string>>;

export interface ListState {
  /** 1-based. */
  readonly page: number;
  readonly filters: FilterValues;
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
      if (value && acceptsValue(field, value)) filters[name] = value;
    }
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
export function parseListState(params: URLSearchParams, fields: readonly FilterField[]): ListState {
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
  return { page: parsePage(params.get(PAGE_PARAM)), filters };
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
