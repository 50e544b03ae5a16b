import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiFetch, INVALID_RESPONSE } from '../lib/api.ts';
import type { ListDeclaration } from './declaration.ts';
import type { ListState } from './listState.ts';

/** One page of a list as the screen needs it. */
export interface ListPage<Row> {
  rows: Row[];
  /** All rows matching the filters (spec §3: 0 when the answer has none). */
  total: number;
}

export const DEFAULT_INVALID_RESPONSE_MESSAGE = 'Invalid response format from server';

/**
 * The request of a list screen, declared once: key, fetcher and cancellation. The key holds the
 * whole state, so a new page or search is a new query and the superseded one is aborted through
 * the signal TanStack Query hands to the fetcher.
 */
export function listQueryOptions<Row>(declaration: ListDeclaration<Row>, state: ListState) {
  // A list fetched whole (unpaged, or paged in the browser) is one query whatever the page.
  const page = pagingOf(declaration) === 'server' ? state.page : 0;
  return queryOptions({
    queryKey: ['list', declaration.endpoint, declaration.pageSize, page, state.filters] as const,
    queryFn: ({ signal }) => fetchListPage(declaration, state, signal),
    enabled: declaration.canFetch?.(state.filters) ?? true,
  });
}

/** `'server'`, `'none'` or `'client'`. */
export function pagingOf<Row>(declaration: Pick<ListDeclaration<Row>, 'paging'>) {
  const { paging = 'server' } = declaration;
  return typeof paging === 'string' ? paging : 'client';
}

/** How the list pages in the browser, if it does. */
export function clientPagingOf<Row>(declaration: Pick<ListDeclaration<Row>, 'paging'>) {
  return typeof declaration.paging === 'object' ? declaration.paging : undefined;
}

/** The query parameters of one request: the (mapped) filters, and the paging the declaration asks for. */
export function listRequestQuery<Row>(
  declaration: ListDeclaration<Row>,
  state: ListState,
): Record<string, string | number> {
  const filters = declaration.request ? declaration.request(state.filters) : state.filters;
  const { paging = 'server' } = declaration;
  if (paging === 'none') return { ...filters };
  if (paging === 'server') return { page: state.page, limit: declaration.pageSize, ...filters };
  return { page: 1, limit: paging.fetchLimit, ...filters };
}

/** GET one page: `page`, `limit` and the searched filters; checks that the rows are an array. */
export async function fetchListPage<Row>(
  declaration: ListDeclaration<Row>,
  state: ListState,
  signal?: AbortSignal,
): Promise<ListPage<Row>> {
  try {
    const payload = await apiFetch(declaration.endpoint, {
      query: listRequestQuery(declaration, state),
      signal,
    });
    const body = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
    const rows = body[declaration.dataKey];
    if (!Array.isArray(rows)) {
      throw new ApiError(
        200,
        declaration.messages.invalid ?? DEFAULT_INVALID_RESPONSE_MESSAGE,
        INVALID_RESPONSE,
      );
    }
    // Like the old client, only the array is checked; the row type is the contract's.
    // An unpaged answer has no `total`: it is all there is.
    const total =
      typeof body.total === 'number' ? body.total : pagingOf(declaration) === 'server' ? 0 : rows.length;
    return { rows: rows as Row[], total };
  } catch (error) {
    // Spec §8: errors are also logged. A cancelled request is not an error.
    if (!signal?.aborted) console.error(`${declaration.title}: request failed`, error);
    throw error;
  }
}
