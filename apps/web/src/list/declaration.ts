import type { ExportFormat } from '@obd/contract';
import type { ReactNode } from 'react';
import type { ClientPaging } from './clientPaging.ts';
import type { FilterField, FilterValues } from './listState.ts';

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
}

/**
 * A list's columns: fixed, or built from the rows of the page on screen (a list whose fields are
 * decided by the server, e.g. the users' allow-list; see `fieldColumnsFromRows`).
 */
export type Columns<Row> = readonly Column<Row>[] | ((rows: readonly Row[]) => readonly Column<Row>[]);

/** The columns to show for `rows`. */
export function resolveColumns<Row>(columns: Columns<Row>, rows: readonly Row[]): readonly Column<Row>[] {
  return typeof columns === 'function' ? columns(rows) : columns;
}

/** The sentences a list screen shows (spec §8). */
export interface ListMessages {
  /** A failed request: non-OK status or no answer. */
  error: string;
  /** No rows for a search with filters. */
  emptyFiltered: string;
  /** No rows at all. */
  emptyUnfiltered: string;
  /** The answer has no row array under `dataKey`; default 'Invalid response format from server'. */
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

/**
 * Everything that makes one list screen different from another. The engine (`ListScreen`,
 * `useListController`) does the paging, fetching, address-bar state and display states.
 * `FilterName` ties the filters to the endpoint's query parameters (see the fault-code declarations).
 */
export interface ListDeclaration<Row, FilterName extends string = string> {
  title: string;
  /** API path, e.g. `/api/faultCodesList`; called with `page`, `limit` and the searched filters. */
  endpoint: string;
  /** Rows per page, sent as `limit` (spec §9: 20, 30, 100, 200 depending on the list). */
  pageSize: number;
  /** The key of the row array in the answer: `data`, `users`, `scans`, … (`total` is always `total`). */
  dataKey: string;
  filters: readonly FilterField<FilterName>[];
  columns: Columns<Row>;
  /** A stable React key for a row (`index` on the page, for lists whose rows have no identity). */
  rowKey: (row: Row, index: number) => string | number;
  messages: ListMessages;
  /** A download of every row under the searched filters, streamed by the server's export engine. */
  export?: ListExport;

  /**
   * How the rows are paged (default `'server'`: `page` and `limit` go to the endpoint, which
   * answers one page and `total`). `'none'`: one unpaged answer, no pager (the make and model
   * lists). A `ClientPaging`: one fetch of up to `fetchLimit` rows, paged and searched in the browser.
   */
  paging?: 'server' | 'none' | ClientPaging<Row>;
  /**
   * When the list asks the server: `'submit'` (default) on Search; `'auto'` as the operator types,
   * debounced (no Search button; a superseded request is cancelled like any other).
   */
  trigger?: 'submit' | 'auto';
  /** The Search button's text (default 'Search'). */
  searchLabel?: string;
  /**
   * The searched filters as the endpoint's query parameters, when they differ from the filter
   * names and values (e.g. a comma-separated module list sent as a JSON array). Default: as they are.
   */
  request?: (filters: FilterValues) => Readonly<Record<string, string>>;
  /**
   * Whether these filters can be asked for at all (e.g. at least one module): if not, nothing is
   * fetched and the Search button is disabled until the form can.
   */
  canFetch?: (filters: FilterValues) => boolean;
  /** Draws the rows of a page instead of the table (cards, a grid of names, a plain list). */
  renderRows?: (rows: Row[]) => ReactNode;
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

/** How a list downloads: the server's export name, the format, the button text. */
export interface ListExport {
  list: string;
  format: ExportFormat;
  /** Default 'Download Excel' for xlsx, 'Download CSV' for csv (spec §2.6: "Download Excel" may produce CSV). */
  label?: string;
  /** Alert on failure; default 'Failed to download Excel file' (spec §8). */
  failedMessage?: string;
}
