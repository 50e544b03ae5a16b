import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_REQUEST_GLOBAL } from '../app/firstRequests.ts';
import { type FetchCall, installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { ApiError, apiFetch, NETWORK_ERROR, setForbiddenHandler, setUnauthorizedHandler } from './api.ts';
import { getToken, setToken } from './session.ts';

const headersOf = (call: FetchCall | undefined) => (call?.init?.headers ?? {}) as Record<string, string>;

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('apiFetch', () => {
  it('sends the bearer token and JSON, and returns the parsed answer', async () => {
    setToken('t0k3n');
    const calls = installFakeFetch(() => jsonResponse({ ok: true }));
    await expect(
      apiFetch('/api/x', { method: 'POST', body: { a: 1 }, query: { page: 2, dtc: undefined } }),
    ).resolves.toEqual({ ok: true });
    const headers = headersOf(calls[0]);
    expect(headers.Authorization).toBe('Bearer t0k3n');
    expect(headers['Content-Type']).toBe('application/json');
    expect(calls[0]?.init?.body).toBe('{"a":1}');
    expect(calls[0]?.url.search).toBe('?page=2');
  });

  it('sends no token for public calls', async () => {
    setToken('stale');
    const calls = installFakeFetch(() => jsonResponse({}));
    await apiFetch('/api/login', { method: 'POST', body: {}, auth: false });
    expect(headersOf(calls[0]).Authorization).toBeUndefined();
  });

  it("throws the server's sentence and code", async () => {
    installFakeFetch(() =>
      jsonResponse({ error: 'Too many attempts. Try again in a minute.', code: 'RATE_LIMITED' }, 429),
    );
    const error = await apiFetch('/api/login', { auth: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Try again in a minute.',
    });
  });

  it('names a failure without a JSON body by its status, and a missing answer as a network error', async () => {
    installFakeFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(apiFetch('/api/x')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_502',
      isServerMessage: false,
    });
    installFakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ status: 0, code: NETWORK_ERROR });
  });

  it('lets a cancellation through as a cancellation', async () => {
    installFakeFetch(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const request = apiFetch('/api/x', { signal: controller.signal });
    controller.abort();
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('on a 401 of a signed-in call, ends the session and returns to the page after login', async () => {
    const goToLogin = vi.fn();
    setUnauthorizedHandler(goToLogin);
    window.history.replaceState(null, '', '/FaultCodeList?page=2');
    setToken('expired');
    installFakeFetch(() => jsonResponse({ error: 'Sign in again.', code: 'UNAUTHORIZED' }, 401));

    await expect(apiFetch('/api/faultCodesList')).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
    expect(goToLogin).toHaveBeenCalledWith('/login?next=/FaultCodeList%3Fpage%3D2');
  });

  it('tells the app of a 403 to a signed-in call (a role may have been lowered), not of a public one', async () => {
    const heard = vi.fn();
    setForbiddenHandler(heard);
    installFakeFetch(() => jsonResponse({ error: 'This needs the admin role.', code: 'FORBIDDEN' }, 403));
    await expect(apiFetch('/api/password-reset', { method: 'POST', auth: false })).rejects.toThrow();
    expect(heard).not.toHaveBeenCalled();
    setToken('t0k3n');
    await expect(apiFetch('/api/operators')).rejects.toThrow('This needs the admin role.');
    expect(heard).toHaveBeenCalledTimes(1);
    expect(getToken()).toBe('t0k3n');
    setForbiddenHandler(() => {});
  });

  it('leaves a failed login alone (no token was sent)', async () => {
    const goToLogin = vi.fn();
    setUnauthorizedHandler(goToLogin);
    installFakeFetch(() => jsonResponse({ error: 'Invalid email or password', code: 'UNAUTHORIZED' }, 401));
    await expect(apiFetch('/api/login', { method: 'POST', auth: false })).rejects.toMatchObject({
      message: 'Invalid email or password',
    });
    expect(goToLogin).not.toHaveBeenCalled();
  });
});

describe("apiFetch and the boot script's request (vite.boot.ts)", () => {
  const holder = window as unknown as Record<string, unknown>;
  afterEach(() => {
    delete holder[FIRST_REQUEST_GLOBAL];
  });
  const start = (url: string, token: string, body: unknown) => {
    holder[FIRST_REQUEST_GLOBAL] = { url, token, response: Promise.resolve(jsonResponse(body)) };
  };

  it('adopts the answer to the very same address and token, once', async () => {
    setToken('t0k3n');
    const calls = installFakeFetch(() => jsonResponse({ from: 'fetch' }));
    start('/api/ScanDetail?page=1&limit=30', 't0k3n', { from: 'boot' });
    await expect(apiFetch('/api/ScanDetail', { query: { page: 1, limit: 30 } })).resolves.toEqual({
      from: 'boot',
    });
    expect(calls).toHaveLength(0);
    await expect(apiFetch('/api/ScanDetail', { query: { page: 1, limit: 30 } })).resolves.toEqual({
      from: 'fetch',
    });
    expect(calls).toHaveLength(1);
  });

  it('asks again for another address, another token or another method', async () => {
    setToken('t0k3n');
    const calls = installFakeFetch(() => jsonResponse({ from: 'fetch' }));
    start('/api/ScanDetail?page=1&limit=30', 'old', { from: 'boot' });
    await expect(apiFetch('/api/ScanDetail', { query: { page: 1, limit: 30 } })).resolves.toEqual({
      from: 'fetch',
    });
    start('/api/ScanDetail?page=1&limit=30', 't0k3n', { from: 'boot' });
    await apiFetch('/api/ScanDetail', { query: { page: 2, limit: 30 } });
    await apiFetch('/api/ScanDetail?page=1&limit=30', { method: 'POST', body: {} });
    expect(calls).toHaveLength(3);
    expect(holder[FIRST_REQUEST_GLOBAL]).toBeDefined();
  });

  it('lets a cancellation through while the adopted answer travels', async () => {
    setToken('t0k3n');
    installFakeFetch(() => jsonResponse({}));
    holder[FIRST_REQUEST_GLOBAL] = { url: '/api/x', token: 't0k3n', response: new Promise(() => {}) };
    const controller = new AbortController();
    const pending = apiFetch('/api/x', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
  });
});
