import { createBrowserRouter, type DataRouter, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { RESET_PASSWORD_PATH, ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { SignupPage } from '../features/auth/SignupPage.tsx';
import { setUnauthorizedHandler } from '../lib/api.ts';
import { AppLayout } from './AppLayout.tsx';
import { NotFoundScreen } from './NotFoundScreen.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { SCREENS } from './screens.tsx';

/** What the login page says after a signed-in request was refused with 401. */
export const SESSION_ENDED = 'Your session has ended. Sign in again.';

/** All routes: the public sign-in screens, then every registered screen behind the guard and layout. */
export const ROUTES: RouteObject[] = [
  { path: '/', element: <LoginPage /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/signup', element: <SignupPage /> },
  { path: RESET_PASSWORD_PATH, element: <ResetPasswordPage /> },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppLayout />,
        children: [
          ...SCREENS.map((screen) => ({ path: screen.path, element: screen.element })),
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
    ],
  },
];

/**
 * A 401 mid-session: client-side navigation keeps the app loaded; `replace`, because Back to the
 * page that just failed would only fail again; the login page says why the operator is there
 * (disabled, signed out elsewhere, expired).
 */
export function loginHandler(router: { navigate: DataRouter['navigate'] }) {
  return (loginUrl: string) =>
    void router.navigate(loginUrl, { replace: true, state: { notice: SESSION_ENDED } });
}

export function createAppRouter() {
  const router = createBrowserRouter(ROUTES);
  setUnauthorizedHandler(loginHandler(router));
  return router;
}
