import type { ErrorBody } from '@obd/contract';
import { FIRST_REQUEST_GLOBAL } from '../app/firstRequests.ts';
import { clearToken, getToken, loginPath } from './session.ts';

/** Every failed API call: the HTTP status (0 when the server was not reached), the server's sentence, its code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** `message` is the server's own `error` sentence, not one made up here from the status. */
  readonly isServerMessage: boolean;

  constructor(status: number, message: string, code: string, isServerMessage = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.isServerMessage = isServerMessage;
  }
}

/** The code of an answer that arrived but does not have the shape the screen needs. */
export const INVALID_RESPONSE = 'INVALID_RESPONSE';
/** The code of a request that never got an answer (server down, network gone). */
export const NETWORK_ERROR = 'NETWORK_ERROR';

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Query parameters; `undefined` values are left out. */
  query?: Readonly<Record<string, string | number | undefined>>;
  /** Sent as JSON. */
  body?: unknown;
  /** Cancels the request, e.g. when TanStack Query supersedes it. */
  signal?: AbortSignal;
  /** Send the bearer token (default). Login and sign-up are public and must not send a stale one. */
  auth?: boolean;
  /**
   * On a 401 for a signed-in call, end the session and go to the login page (default). Logout turns
   * this off: it leaves for the login page anyway and must not remember the page as `next`.
   */
  redirectOnUnauthorized?: boolean;
}

type UnauthorizedHandler = (loginUrl: string) => void;

// A full page load works everywhere; the app replaces it with a router navigation (see app/router.tsx)
// so the single-page state — and the address to return to — survives.
let onUnauthorized: UnauthorizedHandler = (loginUrl) => window.location.assign(loginUrl);

/** Lets the app decide how to reach the login page after a 401 (the router's navigate). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

// A 403 to a signed-in call may mean the operator's role was lowered since the app learnt it.
let onForbidden: () => void = () => {};

/** Lets the app hear of a 403 to a signed-in call (to ask again who is signed in, and with what role). */
export function setForbiddenHandler(handler: () => void): void {
  onForbidden = handler;
}

/**
 * The one way the web app talks to the API: bearer token, JSON in and out, cancellation, typed
 * errors carrying the server's `{error, code}`, and the 401 → login redirect.
 * Resolves with the parsed JSON body (`undefined` for 204).
 */
export async function apiFetch(path: string, options: ApiRequestOptions = {}): Promise<unknown> {
  const { method = 'GET', query, body, signal, auth = true, redirectOnUnauthorized = true } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = auth ? getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  const url = withQuery(path, query);
  const started = method === 'GET' && token ? takeStartedRequest(url, token) : undefined;
  let response: Response;
  try {
    response = await (started
      ? untilAborted(started, signal)
      : fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        }));
  } catch (error) {
    // A cancelled request must stay recognisable as a cancellation, never become an error message.
    if (signal?.aborted) throw error;
    throw new ApiError(
      0,
      'Cannot connect to the server. Please check your connection and try again.',
      NETWORK_ERROR,
    );
  }

  const payload = await readJson(response);
  if (response.ok) return payload;

  if (response.status === 401 && token && redirectOnUnauthorized) endSessionAndGoToLogin();
  if (response.status === 403 && token) onForbidden();
  throw toApiError(response, payload);
}

/** What `apiFetchParsed` needs of a schema; every zod schema of the contract has it. */
export interface ResponseSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** `apiFetch`, then checks the answer against a contract schema, so callers get typed data. */
export async function apiFetchParsed<T>(
  schema: ResponseSchema<T>,
  path: string,
  options?: ApiRequestOptions,
): Promise<T> {
  const payload = await apiFetch(path, options);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiError(200, 'Invalid response format from server', INVALID_RESPONSE);
  return parsed.data;
}

/**
 * `apiFetchParsed` with a schema fetched on demand, in parallel with the request: for the calls of
 * the first page (sign-in, who is signed in), whose schemas would otherwise bring zod into it.
 */
export async function apiFetchParsedLater<T>(
  loadSchema: () => Promise<ResponseSchema<T>>,
  path: string,
  options?: ApiRequestOptions,
): Promise<T> {
  const [payload, schema] = await Promise.all([apiFetch(path, options), loadSchema()]);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiError(200, 'Invalid response format from server', INVALID_RESPONSE);
  return parsed.data;
}

/** What the boot script (vite.boot.ts) leaves in `window`: a list's first request, already under way. */
interface StartedRequest {
  url: string;
  token: string;
  response: Promise<Response>;
}

/**
 * The answer to `url` if the boot script started that very request with this token, taken once: a
 * list page's first request leaves as the HTML is read instead of once the app's code has run.
 */
function takeStartedRequest(url: string, token: string): Promise<Response> | undefined {
  const holder = window as unknown as Record<string, StartedRequest | undefined>;
  const started = holder[FIRST_REQUEST_GLOBAL];
  if (started?.url !== url || started.token !== token) return undefined;
  delete holder[FIRST_REQUEST_GLOBAL];
  return started.response;
}

/** `response`, or an AbortError as soon as `signal` aborts (as `fetch` itself would). */
function untilAborted(response: Promise<Response>, signal: AbortSignal | undefined): Promise<Response> {
  if (!signal) return response;
  return new Promise((resolve, reject) => {
    const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    response.then(resolve, reject);
  });
}

function withQuery(path: string, query: ApiRequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page or a truncated body: the caller treats it like an absent body.
    return undefined;
  }
}

function toApiError(response: Response, payload: unknown): ApiError {
  const body = errorBodyOf(payload);
  const sentence = body?.error;
  const code = body?.code || `HTTP_${response.status}`;
  if (sentence) return new ApiError(response.status, sentence, code, true);
  return new ApiError(response.status, `Request failed with status ${response.status}`, code);
}

/**
 * The contract's error body (`errorBodySchema`, every field optional), checked by hand: this file is
 * in every page's first download, and the schema would bring zod with it (~25 kB gzip).
 */
function errorBodyOf(payload: unknown): Partial<ErrorBody> | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const body = payload as Record<string, unknown>;
  const fields = ['error', 'code', 'message'] as const;
  if (!fields.every((name) => body[name] === undefined || typeof body[name] === 'string')) return undefined;
  return body as Partial<ErrorBody>;
}

// Where the app is, for the login page's `next`: the address bar, unless the app says otherwise
// (its router writes a new address to the bar only once that page is drawn, app/navigation.tsx, and a
// 401 can come back while it downloads: `next` is the page the operator was going to).
let currentAddress: () => { pathname: string; search: string } = () => window.location;

/** Lets the app say where it is (or is going), for the login page's `next` after a 401. */
export function setAddressReader(reader: () => { pathname: string; search: string }): void {
  currentAddress = reader;
}

// Several queries can fail with 401 at once; the first one has already left the page, so the
// others must not overwrite `next` with the login page itself.
function endSessionAndGoToLogin(): void {
  clearToken();
  const { pathname, search } = currentAddress();
  if (pathname === '/login') return;
  onUnauthorized(loginPath(pathname + search));
}
