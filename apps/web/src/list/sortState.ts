/**
 * Sorting a list by a column (issue 12 item 2, decisions §9): the sort lives in the address bar as
 * `sort=<field>&order=asc|desc`, beside the filters and the page. Pure functions, unit-tested.
 * A header click cycles ascending → descending → the list's own order (no `sort`), from page 1.
 */

export type SortOrder = 'asc' | 'desc';

/** The list's sort, when it is not the list's own order. */
export interface ListSort {
  readonly field: string;
  readonly order: SortOrder;
}

export const SORT_PARAM = 'sort';
export const ORDER_PARAM = 'order';

/**
 * Reads the sort from the address bar. Tolerant: a field the list does not sort by, or an order
 * that is neither asc nor desc, means the list's own order (or ascending), never a broken screen.
 */
export function parseSort(
  params: URLSearchParams,
  fields: readonly string[] | undefined,
): ListSort | undefined {
  const field = params.get(SORT_PARAM)?.trim();
  if (!field || !fields?.includes(field)) return undefined;
  return { field, order: params.get(ORDER_PARAM)?.trim() === 'desc' ? 'desc' : 'asc' };
}

/** Writes the sort to `params` (both parameters, so a link says what it means). */
export function writeSort(params: URLSearchParams, sort: ListSort | undefined): URLSearchParams {
  if (sort) {
    params.set(SORT_PARAM, sort.field);
    params.set(ORDER_PARAM, sort.order);
  }
  return params;
}

/** The next sort when the header of `field` is clicked: ascending, descending, then none. */
export function nextSort(current: ListSort | undefined, field: string): ListSort | undefined {
  if (current?.field !== field) return { field, order: 'asc' };
  return current.order === 'asc' ? { field, order: 'desc' } : undefined;
}

/** `aria-sort` of a column's header. */
export function ariaSort(current: ListSort | undefined, field: string): 'ascending' | 'descending' | 'none' {
  if (current?.field !== field) return 'none';
  return current.order === 'asc' ? 'ascending' : 'descending';
}

/**
 * Sorts rows in the browser as the server does (client-paged lists): empty values first
 * ascending and last descending, text by code point, ties in the rows' original order reversed
 * with the direction (as the server's id tie-break).
 */
export function sortRows<Row>(rows: readonly Row[], sort: ListSort | undefined): Row[] {
  if (!sort) return [...rows];
  const sign = sort.order === 'asc' ? 1 : -1;
  const value = (row: Row) => (row as Record<string, unknown>)[sort.field];
  return rows
    .map((row, index) => ({ row, index, v: value(row) }))
    .sort((a, b) => sign * (compareValues(a.v, b.v) || a.index - b.index))
    .map((entry) => entry.row);
}

function compareValues(a: unknown, b: unknown): number {
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (empty(a) || empty(b)) return empty(a) === empty(b) ? 0 : empty(a) ? -1 : 1;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
