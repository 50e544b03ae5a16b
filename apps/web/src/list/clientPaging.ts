/**
 * Paging in the browser over a list fetched once (the command lookup asks the server for up to
 * 1,000 rows, then the operator narrows them with a search text and pages through them). Pure
 * functions: the page size and search text live in the address bar like the page and filters.
 */
import { totalPages } from '@obd/contract/constants';

/** How a declaration pages its rows in the browser. */
export interface ClientPaging<Row> {
  /** Rows asked from the server in one request, sent as `limit` (with `page=1`). */
  fetchLimit: number;
  /** The choices of 'Items per page', e.g. 10 / 30 / 50 / 100. */
  pageSizes: readonly number[];
  defaultPageSize: number;
  /** An optional search box narrowing the fetched rows as the operator types. */
  search?: ClientSearch<Row>;
}

export interface ClientSearch<Row> {
  label: string;
  placeholder?: string;
  /** Does `row` match the (trimmed, lower-cased, non-empty) search text? */
  matches: (row: Row, text: string) => boolean;
}

/** The browser-side view of the fetched rows: page size and search text. */
export interface ClientView {
  pageSize: number;
  /** As typed (untrimmed), so the search box keeps the operator's spaces. */
  text: string;
}

export const PAGE_SIZE_PARAM = 'perPage';
export const SEARCH_PARAM = 'q';

/** Reads the view from the address bar; a page size that is not one of the choices is the default. */
export function parseClientView<Row>(params: URLSearchParams, paging: ClientPaging<Row>): ClientView {
  const raw = params.get(PAGE_SIZE_PARAM);
  const size = raw && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return {
    pageSize: paging.pageSizes.includes(size) ? size : paging.defaultPageSize,
    text: paging.search ? (params.get(SEARCH_PARAM) ?? '') : '',
  };
}

/** Adds the view to `params` (the list state's address), leaving defaults out. */
export function writeClientView<Row>(params: URLSearchParams, view: ClientView, paging: ClientPaging<Row>) {
  if (view.text.trim()) params.set(SEARCH_PARAM, view.text);
  if (view.pageSize !== paging.defaultPageSize) params.set(PAGE_SIZE_PARAM, String(view.pageSize));
  return params;
}

export interface ClientPage<Row> {
  /** The rows of `page`. */
  rows: Row[];
  /** The rows matching the search text, across every page. */
  total: number;
  pages: number;
}

/** The matching rows of the fetched list, and the slice of them on `page` (1-based). */
export function clientPage<Row>(
  all: readonly Row[],
  page: number,
  view: ClientView,
  search?: ClientSearch<Row>,
): ClientPage<Row> {
  const text = view.text.trim().toLowerCase();
  const matching = text && search ? all.filter((row) => search.matches(row, text)) : [...all];
  const start = (page - 1) * view.pageSize;
  return {
    rows: matching.slice(start, start + view.pageSize),
    total: matching.length,
    pages: totalPages(matching.length, view.pageSize),
  };
}
