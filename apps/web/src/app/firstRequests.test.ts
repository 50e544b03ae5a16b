import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '../lib/session.ts';
import { installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { FIRST_REQUESTS } from './firstRequests.ts';
import { SCREENS } from './screens.tsx';

/** The request a list screen's route asks first at its bare address (the router's loader, `prefetch`). */
async function firstRequestOf(prefetch: NonNullable<(typeof SCREENS)[number]['prefetch']>) {
  const calls = installFakeFetch(() => jsonResponse({ rows: [], total: 0 }));
  await prefetch(new QueryClient(), new URLSearchParams());
  return calls.map((call) => call.url.pathname + call.url.search);
}

describe('FIRST_REQUESTS (the list requests the boot script starts before the app)', {
  timeout: 30_000,
}, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearToken();
  });

  it("is exactly each list screen's first request at its bare address", async () => {
    setToken('t');
    const asked: Record<string, string> = {};
    for (const screen of SCREENS) {
      if (!screen.prefetch) continue;
      const urls = await firstRequestOf(screen.prefetch);
      expect(urls, screen.path).toHaveLength(1);
      asked[screen.path.toLowerCase()] = urls[0] ?? '';
    }
    if (process.env.PRINT_FIRST_REQUESTS) console.log(JSON.stringify(asked, null, 2));
    expect(FIRST_REQUESTS).toEqual(asked);
  });
});
