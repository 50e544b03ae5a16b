import { vi } from 'vitest';

/** One request the app sent. */
export interface FetchCall {
  url: URL;
  init: RequestInit | undefined;
  /** The query parameters, for readable assertions. */
  params: Record<string, string>;
}

type Responder = (call: FetchCall) => Response | Promise<Response>;

/**
 * The list engine's own requests beside a list's (the operator's columns and density, the list's
 * saved views, issue 12): answered here with "nothing arranged, no views" and not recorded, so a
 * screen's test sees only its list's requests — unless the test asks for them (`engine: 'passed'`).
 */
function engineAnswer(url: URL): Response | undefined {
  const preferences = /^\/api\/preferences\/lists\/([^/]+)$/.exec(url.pathname);
  if (preferences && url.search === '') {
    const list = decodeURIComponent(preferences[1] ?? '');
    return jsonResponse({ list, columns: null, density: 'comfortable', updated_at: null });
  }
  if (url.pathname === '/api/views') return jsonResponse({ views: [] });
  return undefined;
}

/**
 * Replaces the browser's `fetch` — the system's only outside dependency in component tests — with
 * `respond`. Like the real one it rejects with an AbortError when the request's signal aborts, so
 * cancellation is tested, not assumed. Returns the calls made, in order.
 */
export function installFakeFetch(
  respond: Responder,
  { engine = 'answered' }: { engine?: 'answered' | 'passed' } = {},
): FetchCall[] {
  const calls: FetchCall[] = [];
  const fakeFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const answered = engine === 'answered' && method === 'GET' ? engineAnswer(url) : undefined;
    if (answered) return Promise.resolve(answered);
    const call: FetchCall = { url, init, params: Object.fromEntries(url.searchParams) };
    calls.push(call);
    return new Promise((resolve, reject) => {
      const signal = init?.signal;
      const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort);
      Promise.resolve()
        .then(() => respond(call))
        .then(resolve, reject);
    });
  };
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  return calls;
}

/** A JSON answer. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A promise settled from outside: lets a test hold a request open to look at the loading state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
