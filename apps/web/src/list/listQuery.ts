import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { ApiError, apiFetch, INVALID_RESPONSE } from '../lib/api.ts';
import { type FilterValues, type ListDeclaration, queryKeys } from './declaration.ts';
import { type ListState, parseListState, serialiseListState } from './listState.ts';
import { resolveRelativeDates } from './relativeDates.ts';

/** One page of a list as the screen needs it. */
export interface ListPage<Row> {
  rows: Row[];
  /** All rows matching the filters (spec §3: 0 when the answer has none). */
  total: number;
}

export const DEFAULT_INVALID_RESPONSE_MESSAGE = 'Invalid response format from server';

/** The parts of a declaration that decide what is asked of the server. */
type Asking<Row> = Pick<
  ListDeclaration<Row>,
  'title' | 'source' | 'pageSize' | 'messages' | 'fetching' | 'filters'
>;

/** The sort the server is asked for: none for a list sorted in the browser (it fetched every row). */
function serverSort<Row>(declaration: Pick<ListDeclaration<Row>, 'fetching'>, state: ListState) {
  return pagingOf(declaration) === 'client' ? undefined : state.sort;
}

/**
 * The request of a list screen, declared once: key, fetcher and cancellation. The key holds the
 * whole state, so a new page or search is a new query and the superseded one is aborted through
 * the signal TanStack Query hands to the fetcher.
 */
export function listQueryOptions<Row>(declaration: Asking<Row>, state: ListState) {
  // A list fetched whole (unpaged, or paged in the browser) is one query whatever the page.
  const page = pagingOf(declaration) === 'server' ? state.page : 0;
  return queryOptions({
    queryKey: queryKeys.list(
      declaration.source.path,
      declaration.pageSize,
      page,
      state.filters,
      serverSort(declaration, state),
    ),
    queryFn: ({ signal }) => fetchListPage(declaration, state, signal),
    enabled: declaration.fetching?.canFetch?.(state.filters) ?? true,
    // Only when declared: an explicit `undefined` would override the client's default.
    ...(declaration.fetching?.staleTime === undefined ? {} : { staleTime: declaration.fetching.staleTime }),
  });
}

/**
 * The list's state as its controller reads it from the address (`search`): parsed, written back
 * and parsed again, so equal lists have equal states (and one query key) however the address was
 * spelt. `useListController` and `prefetchList` both use it: one state, one key, one request.
 */
export function listStateOf<Row>(
  declaration: Pick<ListDeclaration<Row>, 'filters' | 'sortFields'>,
  search: URLSearchParams,
): ListState {
  const { filters: fields, sortFields } = declaration;
  const canonical = serialiseListState(parseListState(search, fields, sortFields), fields);
  return parseListState(canonical, fields, sortFields);
}

/**
 * Starts the request of the list at `search` before its screen is drawn (the router calls it while
 * the screen's code downloads, see app/screens.tsx): the same key as the screen's own query, so the
 * screen finds the answer in the cache, or the request under way — never a second request. Nothing
 * is asked when the list cannot be fetched with these filters, or its answer is already fresh.
 */
export function prefetchList<Row>(
  queryClient: QueryClient,
  declaration: Asking<Row> & Pick<ListDeclaration<Row>, 'sortFields'>,
  search: URLSearchParams,
): Promise<void> {
  const options = listQueryOptions(declaration, listStateOf(declaration, search));
  if (options.enabled === false) return Promise.resolve();
  return queryClient.prefetchQuery(options);
}

/** `'server'`, `'none'` or `'client'`. */
export function pagingOf<Row>(declaration: Pick<ListDeclaration<Row>, 'fetching'>) {
  const paging = declaration.fetching?.paging ?? 'server';
  return typeof paging === 'string' ? paging : 'client';
}

/** How the list pages in the browser, if it does. */
export function clientPagingOf<Row>(declaration: Pick<ListDeclaration<Row>, 'fetching'>) {
  const paging = declaration.fetching?.paging;
  return typeof paging === 'object' ? paging : undefined;
}

/** The query parameters of one request: the (mapped) filters, and the paging the declaration asks for. */
export function listRequestQuery<Row>(
  declaration: Pick<ListDeclaration<Row>, 'pageSize' | 'fetching' | 'filters'>,
  state: ListState,
): Record<string, string | number> {
  const { params, paging = 'server' } = declaration.fetching ?? {};
  const dated = serverFilters(declaration, state.filters);
  const mapped = params ? params(dated) : dated;
  const sort = serverSort(declaration, state);
  const filters = sort ? { ...mapped, sort: sort.field, order: sort.order } : mapped;
  if (paging === 'none') return { ...filters };
  if (paging === 'server') return { page: state.page, limit: declaration.pageSize, ...filters };
  return { page: 1, limit: paging.fetchLimit, ...filters };
}

/** The filters as the server takes them: periods said in words (`@last7d`) resolved to dates. */
export function serverFilters(
  declaration: Pick<ListDeclaration<unknown>, 'filters'>,
  filters: FilterValues,
): Record<string, string> {
  const ranges = declaration.filters.flatMap((field) =>
    field.kind === 'dateRange' ? [{ from: field.from.name, to: field.to.name }] : [],
  );
  return resolveRelativeDates(ranges, filters);
}

/** GET one page: `page`, `limit` and the searched filters; the answer is parsed by the source's schema. */
export async function fetchListPage<Row>(
  declaration: Asking<Row>,
  state: ListState,
  signal?: AbortSignal,
): Promise<ListPage<Row>> {
  try {
    // The schema's chunk downloads while the answer travels (see `ListSource.reader`).
    const [payload, read] = await Promise.all([
      apiFetch(declaration.source.path, { query: listRequestQuery(declaration, state), signal }),
      declaration.source.reader(),
    ]);
    const answer = read(payload);
    if (!answer) {
      throw new ApiError(
        200,
        declaration.messages.invalid ?? DEFAULT_INVALID_RESPONSE_MESSAGE,
        INVALID_RESPONSE,
      );
    }
    // An unpaged answer has no `total`: it is all there is.
    const total = answer.total ?? (pagingOf(declaration) === 'server' ? 0 : answer.rows.length);
    return { rows: answer.rows, total };
  } catch (error) {
    // Spec §8: errors are also logged. A cancelled request is not an error.
    if (!signal?.aborted) console.error(`${declaration.title}: request failed`, error);
    throw error;
  }
}
