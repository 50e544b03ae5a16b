import { getToken, loginPath } from '../lib/session.ts';
import { Navigate, Outlet, useLocation } from './navigation.tsx';

/**
 * Guarded routes (spec §2.1): without a stored token, replace this entry with the login page,
 * remembering where the operator wanted to go. Whether the token is still valid is the server's
 * call; a 401 from it ends the session (lib/api.ts).
 */
export function RequireAuth() {
  const location = useLocation();
  if (!getToken()) return <Navigate replace to={loginPath(location.pathname + location.search)} />;
  return <Outlet />;
}
