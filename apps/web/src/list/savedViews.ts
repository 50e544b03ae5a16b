import type { ColumnLayout, SavedView, SavedViewPatch } from '@obd/contract';
import { SAVED_VIEWS_PATH, savedViewPath } from '@obd/contract/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from '../app/navigation.tsx';
import { ApiError, apiFetch, apiFetchParsedLater } from '../lib/api.ts';

const schemas = () => import('./schemas.ts');
const viewSchema = async () => (await schemas()).savedViewSchema;

/** The address parameter that opens a saved view: `/ScanDetail?view=12`. */
export const VIEW_PARAM = 'view';

/** The sentence of a failed view request: the server's own when it has one. */
export function viewErrorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.isServerMessage ? error.message : fallback;
}

/** The views menu's button: the view on screen, if any. */
export function viewsLabel(active: Pick<SavedView, 'name'> | undefined): string {
  return active ? `View: ${active.name}` : 'Views';
}

/** The views of a list the operator may open (their own, then the shared ones), and their changes. */
export function useSavedViews(list: string) {
  const client = useQueryClient();
  const queryKey = ['saved-views', list] as const;
  const views = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      apiFetchParsedLater(async () => (await schemas()).savedViewListSchema, SAVED_VIEWS_PATH, {
        query: { list },
        signal,
      }),
    staleTime: 0,
  });
  const refresh = () => client.invalidateQueries({ queryKey });
  const create = useMutation({
    mutationFn: (view: { name: string; shared: boolean; query: string; columns: ColumnLayout | null }) =>
      apiFetchParsedLater(viewSchema, SAVED_VIEWS_PATH, { method: 'POST', body: { list, ...view } }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, change }: { id: number; change: SavedViewPatch }) =>
      apiFetchParsedLater(viewSchema, savedViewPath(id), { method: 'PATCH', body: change }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiFetch(savedViewPath(id), { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { views: views.data?.views ?? [], create, update, remove };
}

/** The view a list has open: which one, the query it opened with, and the columns it shows. */
export interface OpenedView {
  id: number;
  query: string;
  columns: ColumnLayout | null;
}

// The view each list last opened in this tab: still "the view on screen" while the address is its query.
const openedViews = new Map<string, OpenedView>();

/**
 * Which view the list shows: the one last opened, while the address still holds its query. Its
 * columns are the view's own while it is open: opening a view, or arranging the columns of an open
 * one, never writes the operator's own layout (`useListPreferences`), which comes back as soon as
 * the list leaves the view; "Update view" saves the arranged columns into the view.
 */
export function useOpenedView(list: string) {
  const [opened, setState] = useState<OpenedView | undefined>(() => openedViews.get(list));
  const set = (next: OpenedView | undefined) => {
    if (next === undefined) openedViews.delete(list);
    else openedViews.set(list, next);
    setState(next);
  };
  return {
    opened,
    open: (view: Pick<SavedView, 'id' | 'query' | 'columns'>) =>
      set({ id: view.id, query: view.query, columns: view.columns }),
    close: () => set(undefined),
    /** Arranges the open view's columns on screen (not saved until "Update view"). */
    setColumns: (columns: ColumnLayout | null) => {
      if (opened) set({ ...opened, columns });
    },
  };
}

/**
 * The columns a list shows and where a change of them goes: the open view's while the address
 * holds its query (`query`, without the page), else the operator's own.
 */
export function layoutInUse(
  opened: OpenedView | undefined,
  query: string,
  own: { layout: ColumnLayout | null; setLayout: (layout: ColumnLayout | null) => void },
  setViewColumns: (layout: ColumnLayout | null) => void,
): { layout: ColumnLayout | null; setLayout: (layout: ColumnLayout | null) => void; fromView: boolean } {
  if (opened && sameQuery(opened.query, query))
    return { layout: opened.columns, setLayout: setViewColumns, fromView: true };
  return { layout: own.layout, setLayout: own.setLayout, fromView: false };
}

/** The same query whatever the order of its parameters. */
export function sameQuery(a: string, b: string): boolean {
  const sorted = (query: string) => {
    const params = new URLSearchParams(query);
    params.delete('page');
    params.sort();
    return params.toString();
  };
  return sorted(a) === sorted(b);
}

/**
 * `?view=<id>` in the address: fetches the view (a link sent by a colleague), applies its columns,
 * and replaces the address with its filters and sort. A view that is gone or private is said.
 */
export function useViewFromAddress(
  list: string,
  open: (view: SavedView) => void,
): { loading: boolean; error: string | undefined; dismiss: () => void } {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = searchParams.get(VIEW_PARAM);
  const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
  const [error, setError] = useState<string | undefined>(undefined);
  const view = useQuery({
    queryKey: ['saved-view', id],
    queryFn: ({ signal }) => apiFetchParsedLater(viewSchema, savedViewPath(id ?? 0), { signal }),
    enabled: id !== undefined,
    retry: false,
    staleTime: 0,
  });
  const { data, error: failed } = view;
  // Opened once per link, even while the address is being replaced.
  const handled = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (raw === null) {
      handled.current = undefined;
      return;
    }
    if (id === undefined) {
      setError(`"${raw}" is not a view number.`);
      setSearchParams(withoutView(searchParams), { replace: true });
    } else if (failed) {
      setError(viewErrorText(failed, 'The view could not be opened. Try again.'));
      setSearchParams(withoutView(searchParams), { replace: true });
    } else if (data && data.id === id) {
      if (data.list !== list) {
        setError(`View ${id} belongs to another list.`);
        setSearchParams(withoutView(searchParams), { replace: true });
        return;
      }
      setError(undefined);
      if (handled.current === id) return;
      handled.current = id;
      open(data);
      setSearchParams(new URLSearchParams(data.query), { replace: true });
    }
  }, [raw, id, data, failed, list, open, searchParams, setSearchParams]);
  return { loading: id !== undefined && view.isFetching, error, dismiss: () => setError(undefined) };
}

function withoutView(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(VIEW_PARAM);
  return next;
}
