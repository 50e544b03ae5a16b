import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RESET_PASSWORD_PATH } from '../features/auth/paths.ts';
import { setAddressReader, setUnauthorizedHandler } from '../lib/api.ts';
import { getToken } from '../lib/session.ts';
import { useDocumentTitle } from './documentTitle.ts';
import { NotFoundScreen } from './NotFoundScreen.tsx';
import {
  Outlet,
  type RouteObject,
  useLocation,
  useNavigate,
  usePlaceGoneTo,
  useRoutes,
} from './navigation.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { PageLoading, RouteErrorBoundary } from './RouteStates.tsx';
import { SCREENS, type ScreenRoute, screenAt } from './screens.tsx';

/** What the login page says after a signed-in request was refused with 401. */
export const SESSION_ENDED = 'Your session has ended. Sign in again.';

/**
 * All routes: the public sign-in screens, then every registered screen behind the guard and layout.
 *
 * A plain route table drawn by navigation.tsx's `useRoutes` (wouter underneath, not React Router's
 * data router with loaders and `lazy` routes: React Router was ~28 kB of a list page's first download,
 * which has to stay under 150 kB gzipped — issue 14, scripts/bundleBudget.mjs). What its loaders and
 * lazy routes did is done with React's own means:
 * - Only the login page is in the first download (with React, the router and the part of Mantine it
 *   uses); the layout, sign-up and every screen are `React.lazy`: each is its own chunk. On the way
 *   to an address the screen's code is asked for at once, alongside the layout's (`RouteFrame`), not
 *   after the layout has drawn.
 * - On a click the current screen stays until the next one's code is there (no flash of a spinner):
 *   navigation.tsx changes the location in a transition, and the one `Suspense` is above the
 *   routes, so React keeps what is shown. On the first load of the page `PageLoading` stands in.
 * - A chunk that cannot be fetched (a deploy removed it) or a screen that throws shows `RouteError`:
 *   a sentence and a Reload button, in the layout (each screen has its own boundary), cleared by the
 *   next navigation.
 */
export function appRoutes(queryClient?: QueryClient): RouteObject[] {
  return [
    {
      element: <RouteFrame queryClient={queryClient} />,
      children: [
        { path: '/', element: <LoginPage /> },
        { path: '/login', element: <LoginPage /> },
        {
          path: '/signup',
          element: lazyElement(() => import('../features/auth/SignupPage.tsx').then((m) => <m.SignupPage />)),
        },
        {
          path: RESET_PASSWORD_PATH,
          element: lazyElement(() =>
            import('../features/auth/ResetPasswordPage.tsx').then((m) => <m.ResetPasswordPage />),
          ),
        },
        {
          element: <RequireAuth />,
          children: [
            {
              element: <Layout />,
              children: [
                ...SCREENS.map(screenRoute),
                {
                  path: '*',
                  element: (
                    <RouteErrorBoundary>
                      <NotFoundScreen />
                    </RouteErrorBoundary>
                  ),
                },
              ],
            },
          ],
        },
      ],
    },
  ];
}

const loadLayout = once(() => import('./AppLayout.tsx'));
const LazyLayout = lazy(() => loadLayout().then((m) => ({ default: m.AppLayout })));

/** The layout's code, fetched on the first guarded page (RequireAuth draws it only when signed in). */
function Layout() {
  return (
    <RouteErrorBoundary>
      <LazyLayout />
    </RouteErrorBoundary>
  );
}

/**
 * Around every route: the one `Suspense` (see appRoutes) and the error boundary of the public pages
 * and the layout. On every new address it starts, without waiting for the layout to draw:
 * - the code of the screen at that address (its chunk, in parallel with the layout's);
 * - with `queryClient`, the first request of a screen that can (`prefetch`, the lists), with the
 *   address's query — in parallel with the download of the screen's code, and again when the query
 *   changes (a new page or search). Nothing waits for it: the screen draws as soon as its code is
 *   there, and its query finds the answer or the request under way (one request, see
 *   list/listQuery.ts `prefetchList`). A failed prefetch is the screen's business.
 * Both are started while rendering, not in an effect: a navigation renders in a transition that
 * waits (suspends) for the screen's code, and an effect would run only once that code is there.
 * Both are idempotent (a module's import; a query already under way or answered is not asked again).
 */
function RouteFrame({ queryClient }: { queryClient?: QueryClient }) {
  const { pathname, search } = useLocation();
  useMemo(() => {
    const screen = screenAt(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
    // Signed out, RequireAuth sends the operator to the login page: nothing to fetch or ask.
    if (!screen || !getToken()) return;
    void loadLayout().catch(() => {});
    void lazyScreen(screen)
      .load()
      .catch(() => {});
    if (screen.prefetch && queryClient) {
      screen.prefetch(queryClient, new URLSearchParams(search)).catch(() => {});
    }
  }, [pathname, search, queryClient]);
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </RouteErrorBoundary>
  );
}

type LazyScreen = { load: () => Promise<ReactNode>; element: ReactNode };

const lazyScreens = new WeakMap<ScreenRoute, LazyScreen>();

/** A screen's element, drawn once its code is in; one per screen, so its code is asked for once. */
function lazyScreen(screen: ScreenRoute): LazyScreen {
  let known = lazyScreens.get(screen);
  if (!known) {
    const load = once(screen.load);
    known = { load, element: lazyElement(load) };
    lazyScreens.set(screen, known);
  }
  return known;
}

/** A screen of the table as a route: its code fetched when it is first opened, with its own error boundary. */
export function screenRoute(screen: ScreenRoute): RouteObject {
  return { path: screen.path, element: lazyScreen(screen).element };
}

/**
 * The element `load` gives, inside the route's error boundary: a chunk that cannot be fetched (or a
 * `load` that fails) is thrown where the screen would be, and the boundary shows it.
 */
export function lazyElement(load: () => Promise<ReactNode>): ReactNode {
  const Screen = lazy(() => load().then((element) => ({ default: () => element })));
  return (
    <RouteErrorBoundary>
      <Screen />
    </RouteErrorBoundary>
  );
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => {
    started ??= load();
    return started;
  };
}

/**
 * A 401 mid-session: client-side navigation keeps the app loaded; `replace`, because Back to the
 * page that just failed would only fail again; the login page says why the operator is there
 * (disabled, signed out elsewhere, expired).
 */
export function loginHandler(router: {
  navigate: (to: string, options: { replace: boolean; state: { notice: string } }) => unknown;
}) {
  return (loginUrl: string) =>
    void router.navigate(loginUrl, { replace: true, state: { notice: SESSION_ENDED } });
}

/** The app inside `<BrowserRouter>` (main.tsx): its routes, the document title, the 401's way to the login page. */
export function AppRoutes({ queryClient }: { queryClient: QueryClient }) {
  const routes = useMemo(() => appRoutes(queryClient), [queryClient]);
  const navigate = useNavigate();
  const placeGoneTo = usePlaceGoneTo();
  useEffect(() => {
    setUnauthorizedHandler(loginHandler({ navigate }));
    setAddressReader(placeGoneTo);
  }, [navigate, placeGoneTo]);
  useDocumentTitle();
  return useRoutes(routes);
}

/** The routes without a query client: screens ask for their data as they draw (the tests' table). */
export const ROUTES: RouteObject[] = appRoutes();
