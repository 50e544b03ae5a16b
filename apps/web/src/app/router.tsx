import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type DataRouter, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RESET_PASSWORD_PATH } from '../features/auth/paths.ts';
import { setUnauthorizedHandler } from '../lib/api.ts';
import { getToken } from '../lib/session.ts';
import { keepDocumentTitle } from './documentTitle.ts';
import { NotFoundScreen } from './NotFoundScreen.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { PageLoading, RouteError } from './RouteStates.tsx';
import { SCREENS, type ScreenRoute } from './screens.tsx';

/** What the login page says after a signed-in request was refused with 401. */
export const SESSION_ENDED = 'Your session has ended. Sign in again.';

/**
 * All routes: the public sign-in screens, then every registered screen behind the guard and layout.
 *
 * Only the login page is in the first download (with React, the router and the part of Mantine it
 * uses); the layout, sign-up and every screen of the table are `lazy`: each is its own chunk, which
 * the router fetches on the way to its address, in parallel for the layout and the screen. On a
 * click the current screen stays until the next one's code is there (no flash of a spinner); on the
 * first load of the page `PageLoading` stands in. A chunk that cannot be fetched (a deploy removed
 * it) or a screen that throws shows `RouteError`: a sentence and a Reload button, in the layout.
 */
export function appRoutes(queryClient?: QueryClient): RouteObject[] {
  return [
    {
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageLoading />,
      children: [
        { path: '/', element: <LoginPage /> },
        { path: '/login', element: <LoginPage /> },
        {
          path: '/signup',
          lazy: orError(() =>
            import('../features/auth/SignupPage.tsx').then((m) => ({ Component: m.SignupPage })),
          ),
        },
        {
          path: RESET_PASSWORD_PATH,
          lazy: orError(() =>
            import('../features/auth/ResetPasswordPage.tsx').then((m) => ({
              Component: m.ResetPasswordPage,
            })),
          ),
        },
        {
          element: <RequireAuth />,
          children: [
            {
              lazy: orError(() => import('./AppLayout.tsx').then((m) => ({ Component: m.AppLayout }))),
              children: [
                ...SCREENS.map((screen) => screenRoute(screen, queryClient)),
                { path: '*', element: <NotFoundScreen />, errorElement: <RouteError /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}

/** The routes without a query client: screens ask for their data as they draw. */
export const ROUTES: RouteObject[] = appRoutes();

/**
 * A screen of the table as a route: its code fetched when it is first opened. With `queryClient`,
 * a screen that can (`prefetch`, the lists) starts its request in the route's loader, which React
 * Router runs alongside `lazy` — in parallel with the download of the screen's code — and again
 * when the address's query changes (a new page or search). The loader waits for nothing: the
 * screen draws as soon as its code is there, and its query finds the answer or the request under
 * way (one request, see list/listQuery.ts `prefetchList`). A failed prefetch is the screen's
 * business: its own query shows the error.
 */
export function screenRoute(screen: ScreenRoute, queryClient?: QueryClient): RouteObject {
  const { prefetch } = screen;
  return {
    path: screen.path,
    errorElement: <RouteError />,
    ...(prefetch && queryClient
      ? {
          loader: ({ request }: { request: Request }) => {
            // Signed out, RequireAuth sends the operator to the login page: nothing to ask.
            if (getToken()) prefetch(queryClient, new URL(request.url).searchParams).catch(() => {});
            return null;
          },
        }
      : {}),
    lazy: orError(async () => ({ element: await screen.load() })),
  };
}

type LazyRoute = () => Promise<Pick<RouteObject, 'element' | 'Component'>>;

/**
 * A route's `lazy` that does not reject: React Router renders nothing at all for a route whose
 * `lazy` failed (it waits for it as on a first load), so a chunk that cannot be fetched becomes a
 * component that throws the failure, which the route's error element then shows.
 */
export function orError(load: LazyRoute): LazyRoute {
  return () =>
    load().catch((error: unknown) => ({
      element: undefined,
      Component: () => {
        throw error;
      },
    }));
}

/**
 * A 401 mid-session: client-side navigation keeps the app loaded; `replace`, because Back to the
 * page that just failed would only fail again; the login page says why the operator is there
 * (disabled, signed out elsewhere, expired).
 */
export function loginHandler(router: { navigate: DataRouter['navigate'] }) {
  return (loginUrl: string) =>
    void router.navigate(loginUrl, { replace: true, state: { notice: SESSION_ENDED } });
}

export function createAppRouter(queryClient?: QueryClient) {
  const router = createBrowserRouter(appRoutes(queryClient));
  keepDocumentTitle(router);
  setUnauthorizedHandler(loginHandler(router));
  return router;
}
