import { totalPages } from '@obd/contract/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useLocation, useSearchParams } from '../app/navigation.tsx';
import { ApiError, INVALID_RESPONSE } from '../lib/api.ts';
import { type ClientView, clientPage, parseClientView, writeClientView } from './clientPaging.ts';
import type { ListDeclaration, ListMessages } from './declaration.ts';
import {
  clientPagingOf,
  DEFAULT_INVALID_RESPONSE_MESSAGE,
  listQueryOptions,
  listStateOf,
  pagingOf,
} from './listQuery.ts';
import {
  goToPage as goToPageState,
  hasFilters,
  type ListState,
  search as searchState,
  serialiseListState,
  sortBy as sortByState,
} from './listState.ts';
import { rememberListQuery } from './rememberedQueries.ts';
import { sortRows } from './sortState.ts';

/** What the list area shows; exactly one at a time (spec §4). */
export type ListStatus<Row> =
  /** Nothing yet, or the request was cancelled: show nothing. */
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'empty'; message: string }
  | { kind: 'rows'; rows: Row[] };

export interface ListController<Row> {
  /** The page and filters in the address bar. */
  state: ListState;
  status: ListStatus<Row>;
  /** A request is running: the Search button and pager are disabled. */
  isLoading: boolean;
  /** Matching rows of the last answer; while loading, of the previous one, so the pager keeps its place. */
  total: number;
  /** Number of pages of `total` (at least 1). */
  pages: number;
  /** Rows on the current page, once loaded. */
  pageItemCount: number;
  /** Searches the entered filters from page 1 (again, if they are already the current search). */
  search: (entered: Readonly<Record<string, string>>, options?: { replace?: boolean }) => void;
  goToPage: (page: number) => void;
  /** A click on the header of `field`: ascending, descending, then the list's own order, from page 1. */
  sortBy: (field: string) => void;
  /** Browser-side paging only: the page size and search text in the address bar. */
  view?: ClientView;
  /** Browser-side paging only: another page size, from page 1. */
  setPageSize: (pageSize: number) => void;
  /** Browser-side paging only: another search text, from page 1 (replaces the history entry). */
  setSearchText: (text: string) => void;
}

/**
 * The one controller of every list screen: the state lives in the address bar (reload, Back/Forward
 * and pasted links reproduce the list), each state is one TanStack query (a superseded request is
 * aborted), and the screen's last query is remembered for its sidebar link.
 */
export function useListController<Row>(declaration: ListDeclaration<Row>): ListController<Row> {
  const { filters: fields, pageSize, messages } = declaration;
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();

  const clientPaging = clientPagingOf(declaration);
  // The list's own state (filters, page) keeps its identity while only a view parameter of the
  // address changes (the in-page search and page size of client-paged lists): the filter form
  // then keeps what the operator has typed but not yet searched.
  const { sortFields } = declaration;
  const stateParams = serialiseListState(listStateOf(declaration, searchParams), fields).toString();
  const state = useMemo(
    () => listStateOf({ filters: fields, sortFields }, new URLSearchParams(stateParams)),
    [stateParams, fields, sortFields],
  );
  const view = useMemo(
    () => (clientPaging ? parseClientView(searchParams, clientPaging) : undefined),
    [searchParams, clientPaging],
  );
  const address = useCallback(
    (next: ListState, nextView = view) => {
      const params = serialiseListState(next, fields);
      return clientPaging && nextView ? writeClientView(params, nextView, clientPaging) : params;
    },
    [fields, clientPaging, view],
  );
  const canonicalSearch = address(state).toString();

  // keepPreviousData only keeps the previous total for the pager while the next page loads; the
  // previous rows are never shown as if they were the new ones (see `status`).
  const query = useQuery({ ...listQueryOptions(declaration, state), placeholderData: keepPreviousData });
  const { data, error, isFetching, isPlaceholderData, refetch } = query;

  useEffect(() => rememberListQuery(pathname, canonicalSearch), [pathname, canonicalSearch]);

  const show = useCallback(
    (next: ListState, options?: { replace?: boolean; view?: ClientView }) => {
      const nextSearch = address(next, options?.view ?? view);
      if (nextSearch.toString() === canonicalSearch) {
        // Same address: pushing it would add a useless history entry; the operator wants fresh rows.
        if (!options?.view) void refetch();
        return;
      }
      setSearchParams(nextSearch, { replace: options?.replace });
    },
    [address, view, canonicalSearch, refetch, setSearchParams],
  );

  // Browser-side paging: the fetched rows narrowed by the search text, then sliced to the page.
  const answer = useMemo(() => {
    if (!data || !clientPaging || !view) return data;
    return clientPage(sortRows(data.rows, state.sort), state.page, view, clientPaging.search);
  }, [data, clientPaging, view, state.page, state.sort]);
  const canFetch = declaration.fetching?.canFetch;
  const blocked = canFetch ? !canFetch(state.filters) : false;
  const total = blocked ? 0 : (answer?.total ?? 0);
  const pages = pagingOf(declaration) === 'none' ? 1 : totalPages(total, view?.pageSize ?? pageSize);
  const currentPage = isPlaceholderData ? undefined : answer;

  // A link to a page past the end (rows were deleted since it was shared): show the last page instead.
  const pastTheEnd = currentPage !== undefined && currentPage.total > 0 && state.page > pages;
  useEffect(() => {
    if (pastTheEnd) show(goToPageState(state, pages), { replace: true });
  }, [pastTheEnd, state, pages, show]);

  let status: ListStatus<Row>;
  // Past the end, the last page is on its way: not "no fault codes".
  if (isFetching || pastTheEnd) status = { kind: 'loading' };
  else if (error) status = { kind: 'error', message: errorMessage(error, messages) };
  // Filters the endpoint cannot answer (e.g. no module): nothing asked, nothing shown.
  else if (blocked) status = { kind: 'idle' };
  else if (!currentPage) status = { kind: 'idle' };
  else if (currentPage.rows.length === 0) {
    status = {
      kind: 'empty',
      message: hasFilters(state) ? messages.emptyFiltered : messages.emptyUnfiltered,
    };
  } else status = { kind: 'rows', rows: currentPage.rows };

  return {
    state,
    status,
    isLoading: isFetching,
    // Spec §4: after a failure the total is reset, so the pager disappears with the rows.
    total: error && !isFetching ? 0 : total,
    pages: error && !isFetching ? 1 : pages,
    pageItemCount: currentPage?.rows.length ?? 0,
    // A new search keeps the sort: it changes which rows, not their order.
    search: (entered, options) =>
      show({ ...searchState(fields, entered), ...(state.sort ? { sort: state.sort } : {}) }, options),
    goToPage: (page) => show(goToPageState(state, page)),
    sortBy: (field) => show(sortByState(state, field)),
    view,
    setPageSize: (size) => {
      if (view) show(goToPageState(state, 1), { view: { ...view, pageSize: size } });
    },
    setSearchText: (text) => {
      if (view) show(goToPageState(state, 1), { replace: true, view: { ...view, text } });
    },
  };
}

function errorMessage(error: Error, messages: ListMessages): string {
  if (messages.describeError) return messages.describeError(error);
  if (error instanceof ApiError && error.code === INVALID_RESPONSE) {
    return messages.invalid ?? DEFAULT_INVALID_RESPONSE_MESSAGE;
  }
  return messages.error;
}
