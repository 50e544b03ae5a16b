import type { ExportFormat } from '@obd/contract';
import type { ReactNode } from 'react';
import type { ResponseSchema } from '../lib/api.ts';
import type { ClientPaging } from './clientPaging.ts';
import type { ListSort } from './sortState.ts';

/**
 * What a list screen declares, and the request keys the engine caches under. A screen is one
 * `defineList({...})`: its contract source, filters, columns (or its own view of the rows) and
 * sentences; `ListScreen` and `useListController` do the rest.
 */

// ------------------------------------------------------------------ filters

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
  /**
   * The answer's check against the contract, loaded on demand alongside the request (see
   * `ListSource.reader`); the check throws on a malformed answer.
   */
  reader: () => Promise<(payload: unknown) => unknown>;
  /** The choices in the answer the reader checked (each is its own value and label). */
  select: (answer: unknown) => readonly string[];
}

/**
 * An option source from the contract: the endpoint, its response schema (or the schema's dynamic
 * import, see `SchemaSource`) and the choices in the answer. Fields naming the same endpoint share
 * one request, so they must name the same schema.
 */
export function optionSource<Body>(
  endpoint: string,
  schema: SchemaSource<Body>,
  select: (answer: Body) => readonly string[],
): OptionSource {
  return {
    endpoint,
    reader: async () => {
      const loaded = await loadSchema(schema);
      return (payload) => {
        const parsed = loaded.safeParse(payload);
        if (!parsed.success) throw new TypeError(`${endpoint}: the answer does not match the contract`);
        return parsed.data;
      };
    },
    // `answer` is what the reader returned: the schema's own type.
    select: (answer) => select(answer as Body),
  };
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

/**
 * The filter names a contract query allows: its parameters without `page` and `limit`. Typing a
 * screen's filters with it makes a parameter the server does not know fail to compile.
 */
export type QueryFilterName<Query> = Exclude<keyof Query, 'page' | 'limit'> & string;

/** Searched filter values by name: only declared, trimmed, non-empty values. */
export type FilterValues = Readonly<Record<string, string>>;

// ------------------------------------------------------------------ query keys

/** Every key the list and detail engines cache a request under, in one place. */
export const queryKeys = {
  /** One page (or, unpaged, the whole answer) of a list under its searched filters. */
  list: (path: string, pageSize: number, page: number, filters: FilterValues, sort?: ListSort) =>
    ['list', path, pageSize, page, filters, sort ?? null] as const,
  /** One record of a detail screen. */
  detail: (path: string, id: number) => ['detail', path, id] as const,
  /** A loaded select's choices: one request per endpoint, shared by the fields naming it. */
  filterOptions: (endpoint: string) => ['filter-options', endpoint] as const,
  /** A suggestion list, shared by every screen that offers it. */
  suggestions: (key: string) => ['suggestions', key] as const,
};

// ------------------------------------------------------------------ source

/** One answer of a list's endpoint, checked: its rows and, when the answer has one, its total. */
export interface SourcePage<Row> {
  rows: Row[];
  total: number | undefined;
}

/** The reader of one answer: checks it against the schema; `undefined` when it does not match. */
export type SourceReader<Row> = (payload: unknown) => SourcePage<Row> | undefined;

/**
 * Where a list's rows come from: the API path and how to read an answer of it. Built by
 * `listSource` from the contract's response schema, so the row type is the schema's and every
 * answer is parsed, not cast.
 */
export interface ListSource<Row> {
  /** API path, e.g. `/api/faultCodesList`. */
  path: string;
  /** The key of the row array in the answer: `data`, `users`, `scans`, … */
  dataKey: string;
  /**
   * The answer's reader. A promise: a declaration names its schema as a dynamic import, so zod and
   * the contract's schemas are not in a list page's first download (issue 14); the list's request
   * asks for the reader alongside the fetch (`fetchListPage`), so the schema's chunk downloads while
   * the answer travels.
   */
  reader: () => Promise<SourceReader<Row>>;
}

/** A contract schema, or a dynamic import of it: `() => import('./schemas.ts').then((m) => m.x)`. */
export type SchemaSource<Body> = ResponseSchema<Body> | (() => Promise<ResponseSchema<Body>>);

/** The schema of `source`, loaded when it is a dynamic import. */
export async function loadSchema<Body>(source: SchemaSource<Body>): Promise<ResponseSchema<Body>> {
  return typeof source === 'function' ? source() : source;
}

/**
 * A list's source from the contract: `path`, the response schema (or its dynamic import) and the
 * key of the rows in it (a key that is not an array of the schema fails to compile). The rows'
 * type is inferred.
 */
export function listSource<
  Key extends string,
  Body extends Record<Key, readonly unknown[]> & { total?: number },
>(path: string, schema: SchemaSource<Body>, dataKey: Key): ListSource<Body[Key][number]> {
  return {
    path,
    dataKey,
    reader: async () => {
      const loaded = await loadSchema(schema);
      return (payload) => {
        const parsed = loaded.safeParse(payload);
        if (!parsed.success) return undefined;
        return { rows: [...parsed.data[dataKey]], total: parsed.data.total };
      };
    },
  };
}

// ------------------------------------------------------------------ columns

/** One table column: its header and what a row shows in it ('-' when that is empty). */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /**
   * Cells are centred (spec); a column of sentences or paragraphs (repair steps, causes) reads
   * better left-aligned with a readable width.
   */
  prose?: boolean;
  /** Keep the cell on one line (times, codes, buttons); a wide table scrolls sideways instead. */
  nowrap?: boolean;
  /** Header and cells at the start of the line instead of centred (a short result table). */
  start?: boolean;
  /**
   * The field a click on the header sorts by (issue 12), when the list sorts by it (its
   * declaration's `sortFields`); columns built from the rows carry their field's name.
   */
  sortField?: string;
  /**
   * A download of the visible columns (issue 12) names this column by the export's header, when it
   * differs from `header`; `exported: false` for a column the export does not have (a button, a link).
   */
  exportHeader?: string;
  exported?: false;
}

/**
 * A list's columns: fixed, or built from the rows of the page on screen (a list whose fields are
 * decided by the server, e.g. the users' allow-list; see `fieldColumnsFromRows`).
 */
export type Columns<Row> = readonly Column<Row>[] | ((rows: readonly Row[]) => readonly Column<Row>[]);

/** A stable React key for a row. */
export type RowKey<Row> = (row: Row, index: number) => string | number;

/** The columns to show for `rows`. */
export function resolveColumns<Row>(columns: Columns<Row>, rows: readonly Row[]): readonly Column<Row>[] {
  return typeof columns === 'function' ? columns(rows) : columns;
}

/** The default row key: the row's `id` when it has one, else its position on the page. */
export function defaultRowKey(row: unknown, index: number): string | number {
  if (typeof row === 'object' && row !== null && 'id' in row) {
    const { id } = row;
    if (typeof id === 'number' || typeof id === 'string') return id;
  }
  return index;
}

// ------------------------------------------------------------------ the declaration

/** The sentences a list screen shows (spec §8). */
export interface ListMessages {
  /** A failed request: non-OK status or no answer. */
  error: string;
  /** No rows for a search with filters. */
  emptyFiltered: string;
  /** No rows at all. */
  emptyUnfiltered: string;
  /** The answer does not match the contract's schema; default 'Invalid response format from server'. */
  invalid?: string;
  /**
   * A screen whose sentence depends on the failure (404, another status, no answer): returns the
   * sentence for `error`; when absent, `error` (or `invalid`) is shown.
   */
  describeError?: (error: Error) => string;
}

/** The numbers of the list on screen, for a declaration's summary line and pager caption. */
export interface ListSummary {
  page: number;
  pages: number;
  /** Rows matching the searched filters (and the browser-side search text, if any). */
  total: number;
  /** Rows on the page shown. */
  pageItemCount: number;
  /** The searched filters. */
  filters: FilterValues;
}

/** How a list downloads: the server's export name, the format, the button text. */
export interface ListExport {
  list: string;
  format: ExportFormat;
  /** Default 'Download Excel' for xlsx, 'Download CSV' for csv (spec §2.6: "Download Excel" may produce CSV). */
  label?: string;
  /** Alert on failure; default 'Failed to download Excel file' (spec §8). */
  failedMessage?: string;
}

/** How and when the list asks the server; every part has a default that most lists keep. */
export interface ListFetching<Row> {
  /**
   * How the rows are paged (default `'server'`: `page` and `limit` go to the endpoint, which
   * answers one page and `total`). `'none'`: one unpaged answer, no pager (the make and model
   * lists). A `ClientPaging`: one fetch of up to `fetchLimit` rows, paged and searched in the browser.
   */
  paging?: 'server' | 'none' | ClientPaging<Row>;
  /**
   * When the list asks: `'submit'` (default) on Search; `'auto'` as the operator types,
   * debounced (no Search button; a superseded request is cancelled like any other).
   */
  trigger?: 'submit' | 'auto';
  /**
   * The searched filters as the endpoint's query parameters, when they differ from the filter
   * names and values (e.g. a comma-separated module list sent as a JSON array). Default: as they are.
   */
  params?: (filters: FilterValues) => Readonly<Record<string, string>>;
  /**
   * Whether these filters can be asked for at all (e.g. at least one module): if not, nothing is
   * fetched and the Search button is disabled until the form can.
   */
  canFetch?: (filters: FilterValues) => boolean;
  /**
   * How long an answer is shown again for the same search without asking (default: the query
   * client's 30 s, for reference data). 0 for lists that change while the operator looks (the
   * audit log, the operators): a search done before is shown and asked again at once.
   */
  staleTime?: number;
}

/** The optional parts of the screen around the rows. */
export interface ListDisplay {
  /** The Search button's text (default 'Search'). */
  searchLabel?: string;
  /**
   * A summary line above the rows (e.g. 'Showing 30 out of 95 results'); it replaces the item badge
   * and the 'Page X of Y' footer.
   */
  summary?: (list: ListSummary) => ReactNode;
  /** A caption under the pager, shown only with the pager (e.g. 'Showing page 2 of 4 (95 total items)'). */
  pagerCaption?: (list: ListSummary) => ReactNode;
  /** First and Last buttons around the pager. */
  pagerEnds?: boolean;
}

/** How the rows of a page are drawn: a table of columns, or the screen's own view (cards, a grid, a list). */
export type RowsView<Row> =
  | {
      columns: Columns<Row>;
      /** Default: the row's `id`, else its position on the page. */
      rowKey?: RowKey<Row>;
      renderRows?: undefined;
    }
  | { renderRows: (rows: readonly Row[]) => ReactNode; columns?: undefined; rowKey?: undefined };

/**
 * Everything that makes one list screen different from another. `FilterName` ties the filters to
 * the endpoint's query parameters (see `QueryFilterName`).
 */
export type ListDeclaration<Row, FilterName extends string = string> = {
  title: string;
  /** The contract's endpoint, response schema and row key: see `listSource`. */
  source: ListSource<Row>;
  /** Rows per page, sent as `limit` (spec §9: 20, 30, 100, 200 depending on the list). */
  pageSize: number;
  filters: readonly FilterField<FilterName>[];
  messages: ListMessages;
  /**
   * A download of every row under the searched filters, streamed by the server's export engine;
   * several (e.g. CSV and Excel) give one button each.
   */
  export?: ListExport | readonly ListExport[];
  fetching?: ListFetching<Row>;
  display?: ListDisplay;
  /**
   * The fields the list sorts by (issue 12): the contract's, e.g. `SCAN_SORT_FIELDS`. A column
   * whose `sortField` is one of them sorts on a header click; the sort is in the address bar and
   * sent to the server (or applied in the browser, for a list paged there).
   */
  sortFields?: readonly string[];
} & RowsView<Row>;

/** A list declaration, its row type inferred from `source` (and its filter names from `filters`). */
export function defineList<Row, FilterName extends string = string>(
  declaration: ListDeclaration<Row, FilterName>,
): ListDeclaration<Row, FilterName> {
  return declaration;
}
