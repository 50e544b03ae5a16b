/**
 * The operator's session as the browser keeps it: the bearer token in local storage under the key
 * `token` (spec §9, decisions §4), and the "come back here after signing in" address.
 */

const TOKEN_KEY = 'token';

/** Where an operator lands after signing in when no other page was asked for (spec §2.3). */
export const HOME_PATH = '/UsersTable';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/** Pages that must never be a `next` target: returning to them after sign-in would loop. */
const AUTH_PATHS = new Set(['/', '/login', '/signup', '/reset-password']);

/**
 * The login address that returns to `next` after sign-in, e.g. `/login?next=/FaultCodeList%3Fpage%3D2`.
 * Slashes stay readable (they are legal in a query string); everything else is encoded.
 */
export function loginPath(next?: string): string {
  if (!next || !isSafeNextPath(next)) return '/login';
  return `/login?next=${encodeURIComponent(next).replace(/%2F/gi, '/')}`;
}

/** Where to go after sign-in: `next` if it is one of our own pages, otherwise the home page. */
export function nextPathAfterSignIn(next: string | null): string {
  return next && isSafeNextPath(next) ? next : HOME_PATH;
}

// Only same-origin paths: `//evil.example` or `https://…` would turn the login page into an open redirect.
function isSafeNextPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return false;
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  return !AUTH_PATHS.has(pathname);
}
