import { spotlight } from '@mantine/spotlight';
import type { SearchResult } from '@obd/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLocation } from '../../app/navigation.tsx';
import { deferred, type FetchCall, installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { HeaderSearch } from './HeaderSearch.tsx';

function Where() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}

const routes = [
  {
    path: '*',
    element: (
      <>
        <HeaderSearch />
        <Where />
      </>
    ),
  },
];

const none = { hits: [], more: false, seeAll: null };
const vinResult: SearchResult = {
  q: 'MAKGM1234AB123456',
  kind: 'vin',
  faultCodes: none,
  scans: {
    hits: [
      {
        id: 42,
        scan_start_time: '2026-06-03T10:00:00.000Z',
        email: 'asha@example.com',
        make: 'Honda',
        model: 'City',
        vin: 'MAKGM1234AB123456',
        license_plate: 'MH12AB1234',
      },
    ],
    more: true,
    seeAll: { vin: 'MAKGM1234AB123456' },
  },
  users: none,
  makes: none,
};

const location = () => screen.getByRole('status', { name: 'location' }).textContent;
const typeInPalette = async (text: string) =>
  fireEvent.change(await screen.findByRole('textbox', { name: 'Search' }), { target: { value: text } });

/** The searches sent, in order (the palette also asks who is signed in). */
const searches = (calls: FetchCall[]) =>
  calls.filter((c) => c.url.pathname === '/api/search').map((c) => c.params.q);

// jsdom lays nothing out; Spotlight scrolls the selected entry into view.
Element.prototype.scrollIntoView ??= () => {};

afterEach(() => act(() => spotlight.close()));

describe('Search palette', { timeout: 20_000 }, () => {
  it('the header field opens it; a screen name jumps to the screen without asking the server for screens', async () => {
    installFakeFetch(() => jsonResponse({ ...vinResult, q: 'cars', kind: 'text', scans: none }));
    renderRoutes(routes, '/start');
    fireEvent.click(screen.getByRole('button', { name: 'Search (Ctrl+K)' }));
    await typeInPalette('cars');
    fireEvent.click(await screen.findByText('Cars Scans'));
    await waitFor(() => expect(location()).toBe('/ObdScanReport'));
  });

  it('Ctrl+K and a VIN: the scan hit opens its detail; no “see all” while the scans list cannot filter by VIN', async () => {
    const calls = installFakeFetch(() => jsonResponse(vinResult));
    renderRoutes(routes, '/start');
    fireEvent.keyDown(document.documentElement, { key: 'k', code: 'KeyK', ctrlKey: true });
    await typeInPalette('MAKGM1234AB123456');
    expect(await screen.findByText('Honda · City · MAKGM1234AB123456')).toBeTruthy();
    expect(calls.at(-1)?.url.pathname).toBe('/api/search');
    expect(calls.at(-1)?.params).toEqual({ q: 'MAKGM1234AB123456', limit: '5' });
    // The group's name is drawn by CSS from a custom property.
    expect(document.querySelector('[style*="\'Scans\'"]')).toBeTruthy();
    expect(screen.queryByText(/See all scans/)).toBeNull();
    fireEvent.click(screen.getByText('Honda · City · MAKGM1234AB123456'));
    await waitFor(() => expect(location()).toBe('/ObdScanReport/details?id=42'));
  });

  it('see all opens the list filtered by what was typed (through the list engine)', async () => {
    installFakeFetch(() =>
      jsonResponse({
        ...vinResult,
        q: 'P0300',
        kind: 'dtc',
        scans: none,
        faultCodes: {
          hits: [{ id: 3, dtc: 'P0300', make: null, generic: true, title: 'Random misfire' }],
          more: true,
          seeAll: { dtc: 'P0300' },
        },
      }),
    );
    renderRoutes(routes, '/start');
    fireEvent.click(screen.getByRole('button', { name: 'Search (Ctrl+K)' }));
    await typeInPalette('P0300');
    expect(await screen.findByText('Random misfire')).toBeTruthy();
    fireEvent.click(screen.getByText('See all fault codes for “P0300”'));
    await waitFor(() => expect(location()).toBe('/FaultCodeList?dtc=P0300'));
  });

  it('asks once the typing pauses and cancels a superseded request', async () => {
    const held = deferred<Response>();
    const calls = installFakeFetch((call) =>
      call.params.q === 'P03' ? held.promise : jsonResponse({ ...vinResult, scans: none, q: 'P0300' }),
    );
    renderRoutes(routes, '/start');
    fireEvent.click(screen.getByRole('button', { name: 'Search (Ctrl+K)' }));
    // Three keystrokes in quick succession: one request, for what the typing paused at.
    const input = await screen.findByRole('textbox', { name: 'Search' });
    for (const text of ['P', 'P0', 'P03']) fireEvent.change(input, { target: { value: text } });
    await waitFor(() => expect(searches(calls)).toEqual(['P03']));
    expect(screen.getByText('Searching…')).toBeTruthy();
    await typeInPalette('P0300');
    await waitFor(() => expect(searches(calls)).toEqual(['P03', 'P0300']));
    await waitFor(() => expect(calls.find((c) => c.params.q === 'P03')?.init?.signal?.aborted).toBe(true));
    expect(await screen.findByText(/Nothing found for “P0300”/)).toBeTruthy();
  });

  it('a failed search says so', async () => {
    installFakeFetch(() => jsonResponse({ error: 'q is at most 100 characters', code: 'BAD_REQUEST' }, 400));
    renderRoutes(routes, '/start');
    fireEvent.click(screen.getByRole('button', { name: 'Search (Ctrl+K)' }));
    await typeInPalette('zzz');
    expect((await screen.findByRole('alert')).textContent).toBe('Search failed: q is at most 100 characters');
  });
});
