import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import { useSearchParams as useWouterSearchParams, Link as WouterLink, Router as WouterRouter } from 'wouter';

/**
 * The app's navigation, in one place: every screen imports its links and hooks from here, never from
 * the router library. Links and `useSearchParams` are wouter's (~2 kB gzipped; React Router was
 * ~28 kB of a list page's first download, issue 14); the history, the route table and `Outlet`
 * are this module's, so that a navigation renders in a React transition: the current screen stays
 * until the next one's code is there, as with React Router.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation handed over (`navigate(to, { state })`), e.g. the login page's notice. */
  state: { notice?: unknown } | null;
  key: string;
}
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';
export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}
export interface RouteObject {
  path?: string;
  element?: ReactNode;
  children?: RouteObject[];
}

interface Place {
  location: Location;
  action: NavigationType;
}

/** Where the app is and how to go elsewhere: the browser's history, or a list in memory (tests). */
export interface History {
  /** The place last gone to (drawn, or being drawn in a transition). */
  place(): Place;
  go(to: string, options?: NavigateOptions): void;
  listen(listener: () => void): () => void;
  /** `Router` says a place is drawn: only then does the address bar take it (see browserHistory). */
  drawn(place: Place): void;
}

let keys = 0;
function placeAt(url: string, state: unknown, action: NavigationType): Place {
  const parsed = new URL(url, 'http://app.invalid');
  return {
    location: {
      pathname: parsed.pathname,
      search: parsed.search,
      hash: parsed.hash,
      state: (state ?? null) as Location['state'],
      key: String(++keys),
    },
    action,
  };
}

/** A history that starts at `start`; `changed` tells the listeners of a new place. */
function makeHistory(
  start: Place,
  drawn: (place: Place) => void = () => {},
): History & { changed(next: Place): void } {
  let place = start;
  const listeners = new Set<() => void>();
  const changed = (next: Place) => {
    place = next;
    for (const listener of listeners) listener();
  };
  return {
    place: () => place,
    changed,
    drawn,
    go(to, { replace, state = null } = {}) {
      const url = new URL(to, `http://app.invalid${place.location.pathname}`);
      // As React Router's links did: the address already shown is replaced, not pushed again.
      const again =
        url.pathname === place.location.pathname &&
        url.search === place.location.search &&
        url.hash === place.location.hash;
      changed(placeAt(url.pathname + url.search + url.hash, state, (replace ?? again) ? 'REPLACE' : 'PUSH'));
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The browser's history. A new address is written to the address bar when its page is drawn, not
 * when it is asked for, as React Router's data router did: while the next screen's code downloads,
 * the screen still shown and the address agree (a click on it acts on its own address), and Back
 * never lands on a page that was never shown. Back and Forward (`popstate`) have moved the address
 * already.
 */
function browserHistory(): History {
  const read = (action: NavigationType) =>
    placeAt(
      window.location.pathname + window.location.search + window.location.hash,
      window.history.state,
      action,
    );
  const written = new WeakSet<Place>();
  const history = makeHistory(read('POP'), (place) => {
    if (place.action === 'POP' || written.has(place)) return;
    written.add(place);
    const { pathname, search, hash, state } = place.location;
    window.history[place.action === 'REPLACE' ? 'replaceState' : 'pushState'](
      state,
      '',
      pathname + search + hash,
    );
  });
  window.addEventListener('popstate', () => history.changed(read('POP')));
  return history;
}

/** A history of its own, for tests: the browser's address is left alone. */
export function memoryHistory(url: string): History {
  return makeHistory(placeAt(url, null, 'POP'));
}

const HistoryContext = createContext<History | null>(null);
const PlaceContext = createContext<Place | null>(null);

function useHistory(): History {
  const history = useContext(HistoryContext);
  if (!history) throw new Error('Navigation is used outside <BrowserRouter> / <Router>.');
  return history;
}

function usePlace(): Place {
  const place = useContext(PlaceContext);
  if (!place) throw new Error('Navigation is used outside <BrowserRouter> / <Router>.');
  return place;
}

// wouter reads the path and the query through these (its Link and useSearchParams).
const wouterLocation = (): [string, (to: string, options?: NavigateOptions) => void] => [
  usePlace().location.pathname,
  useHistory().go,
];
const wouterSearch = () => usePlace().location.search;

export function Router({ history, children }: { history: History; children: ReactNode }) {
  const [place, setPlace] = useState(history.place);
  // In a transition: a screen whose code is still downloading leaves the current one on screen.
  useLayoutEffect(() => {
    const stop = history.listen(() => startTransition(() => setPlace(history.place())));
    setPlace(history.place()); // a navigation made before this listened (a child's layout effect)
    return stop;
  }, [history]);
  useLayoutEffect(() => history.drawn(place), [history, place]);
  return (
    <HistoryContext.Provider value={history}>
      <PlaceContext.Provider value={place}>
        <WouterRouter hook={wouterLocation} searchHook={wouterSearch}>
          {children}
        </WouterRouter>
      </PlaceContext.Provider>
    </HistoryContext.Provider>
  );
}

export function BrowserRouter({ children }: { children: ReactNode }) {
  const history = useMemo(browserHistory, []);
  return <Router history={history}>{children}</Router>;
}

export const Link = WouterLink;

export function useLocation(): Location {
  return usePlace().location;
}

export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  return useHistory().go;
}

/** Where the app is going: the location last navigated to, drawn or not yet (a stable function). */
export function usePlaceGoneTo(): () => Location {
  const history = useHistory();
  return useMemo(() => () => history.place().location, [history]);
}

export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams, options?: NavigateOptions) => void,
] {
  return useWouterSearchParams();
}

/** Replaces (or pushes) the address once drawn, e.g. RequireAuth's way to the login page. */
export function Navigate({ to, replace, state }: { to: string; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

const OutletContext = createContext<ReactNode>(null);

/** Where a parent route's element draws the matched child route. */
export function Outlet() {
  return useContext(OutletContext);
}

/**
 * The element of the route `routes` has for the address: the first route (depth first, `*` after
 * every other) whose path matches, regardless of case and a trailing slash, drawn inside its
 * parents' elements (each parent draws it where its `Outlet` is). Paths are absolute and static.
 */
export function useRoutes(routes: RouteObject[]): ReactNode {
  const { pathname } = useLocation();
  const chain = useMemo(() => match(routes, normalise(pathname)), [routes, pathname]);
  return chain ? drawn(chain) : null;
}

/** The first route's element, with the rest of the chain where its `Outlet` is. */
function drawn([route, ...inner]: RouteObject[]): ReactNode {
  if (!route) return null;
  return <OutletContext.Provider value={drawn(inner)}>{route.element ?? <Outlet />}</OutletContext.Provider>;
}

function normalise(path: string): string {
  return (path.length > 1 ? path.replace(/\/+$/, '') : path).toLowerCase();
}

function match(routes: RouteObject[], path: string): RouteObject[] | undefined {
  return matchIn(routes, path, false) ?? matchIn(routes, path, true);
}

/** The first chain of routes to a leaf whose path is `path` (or, with `splat`, to a `*` leaf). */
function matchIn(routes: RouteObject[], path: string, splat: boolean): RouteObject[] | undefined {
  for (const route of routes) {
    if (route.children) {
      const inner = matchIn(route.children, path, splat);
      if (inner) return [route, ...inner];
    } else if (route.path !== undefined && (splat ? route.path === '*' : normalise(route.path) === path)) {
      return [route];
    }
  }
  return undefined;
}
