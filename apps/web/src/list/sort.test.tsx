import type { ScanRow } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mechanicCommands } from '../features/catalogue/declarations.tsx';
import { scansList } from '../features/operations/declarations.tsx';
import { installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { ListScreen } from './ListScreen.tsx';
import { parseListState, serialiseListState, sortBy } from './listState.ts';
import { nextSort, parseSort, sortRows } from './sortState.ts';

describe('sort state', () => {
  it('cycles a header ascending, descending, then the list’s own order', () => {
    expect(nextSort(undefined, 'make')).toEqual({ field: 'make', order: 'asc' });
    expect(nextSort({ field: 'make', order: 'asc' }, 'make')).toEqual({ field: 'make', order: 'desc' });
    expect(nextSort({ field: 'make', order: 'desc' }, 'make')).toBeUndefined();
    expect(nextSort({ field: 'make', order: 'desc' }, 'email')).toEqual({ field: 'email', order: 'asc' });
  });

  it('is in the address after the filters, survives a round trip, and a sort goes back to page 1', () => {
    const fields = [{ kind: 'text', name: 'make', label: 'Make' }] as const;
    const state = sortBy({ page: 7, filters: { make: 'Honda' } }, 'email');
    expect(state.page).toBe(1);
    const params = serialiseListState(state, fields);
    expect(params.toString()).toBe('make=Honda&sort=email&order=asc');
    expect(parseListState(params, fields, ['email'])).toEqual(state);
  });

  it('ignores a field the list does not sort by and an unknown order', () => {
    expect(parseSort(new URLSearchParams('sort=password'), ['email'])).toBeUndefined();
    expect(parseSort(new URLSearchParams('sort=email&order=sideways'), ['email'])).toEqual({
      field: 'email',
      order: 'asc',
    });
    expect(parseSort(new URLSearchParams('sort=email'), undefined)).toBeUndefined();
  });

  it('sorts rows in the browser as the server does: empty first ascending, last descending', () => {
    const rows = [
      { id: 1, v: 'b' },
      { id: 2, v: null },
      { id: 3, v: 'a' },
      { id: 4, v: 'b' },
    ];
    expect(sortRows(rows, { field: 'v', order: 'asc' }).map((r) => r.id)).toEqual([2, 3, 1, 4]);
    expect(sortRows(rows, { field: 'v', order: 'desc' }).map((r) => r.id)).toEqual([4, 1, 3, 2]);
    expect(sortRows(rows, undefined).map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });
});

function scan(id: number, make: string): ScanRow {
  return {
    id,
    email: `driver${id}@example.com`,
    scan_start_time: '2025-03-04T09:15:00.000Z',
    scan_end_time: null,
    model: 'City',
    license_plate: null,
    vin: null,
    scan_ended: true,
    make,
    country_id: 91,
    function: null,
    type: 'OBD',
    app_version: '3.2.1',
    pdf_report: null,
  };
}

describe('sorting a list by its headers', { timeout: 20_000 }, () => {
  const routes = [{ path: '/ObdScanReport', element: <ListScreen declaration={scansList} /> }];

  it('sorts ascending, descending, then by default; the sort is in the address and the request, from page 1', async () => {
    const calls = installFakeFetch(() =>
      jsonResponse({ scans: [scan(1, 'Honda'), scan(2, 'BMW')], total: 95 }),
    );
    const { router } = renderRoutes(routes, '/ObdScanReport?make=o&page=3');
    const table = await screen.findByRole('table', { name: 'Scan Details' });
    const header = () => within(table).getByRole('columnheader', { name: /Make/ });
    expect(header().getAttribute('aria-sort')).toBe('none');
    // A column the list cannot sort by has no button and no aria-sort.
    expect(
      within(table).getByRole('columnheader', { name: 'PDF Report' }).getAttribute('aria-sort'),
    ).toBeNull();

    fireEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?make=o&sort=make&order=asc'));
    await waitFor(() =>
      expect(calls.at(-1)?.params).toEqual({ page: '1', limit: '30', make: 'o', sort: 'make', order: 'asc' }),
    );
    const sorted = await screen.findByRole('table', { name: 'Scan Details' });
    const make = () => within(sorted).getByRole('columnheader', { name: /Make/ });
    expect(make().getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(make()).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?make=o&sort=make&order=desc'));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Scan Details' }))
          .getByRole('columnheader', { name: /Make/ })
          .getAttribute('aria-sort'),
      ).toBe('descending'),
    );

    fireEvent.click(
      within(
        within(screen.getByRole('table', { name: 'Scan Details' })).getByRole('columnheader', {
          name: /Make/,
        }),
      ).getByRole('button'),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?make=o'));
    await waitFor(() => expect(calls.at(-1)?.params).toEqual({ page: '1', limit: '30', make: 'o' }));
  });

  it('a link with a sort opens sorted (reload), and a new search keeps the sort', async () => {
    const calls = installFakeFetch(() => jsonResponse({ scans: [scan(1, 'Honda')], total: 1 }));
    const { router } = renderRoutes(routes, '/ObdScanReport?sort=scan_end_time&order=desc&page=2');
    const table = await screen.findByRole('table', { name: 'Scan Details' });
    expect(calls[0]?.params).toEqual({ page: '2', limit: '30', sort: 'scan_end_time', order: 'desc' });
    expect(
      within(table)
        .getByRole('columnheader', { name: /End Time/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'asha' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?email=asha&sort=scan_end_time&order=desc'),
    );
  });
});

describe('sorting a list paged in the browser', { timeout: 20_000 }, () => {
  it('sorts the fetched rows itself, with the sort in the address and not sent to the server', async () => {
    const data = [
      { command: '22F190', module: 'Engine' },
      { command: '0100', module: 'ABS' },
      { command: '1902', module: 'Engine' },
    ];
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/CommandAPI'
        ? jsonResponse({
            data,
            pagination: { currentPage: 1, totalPages: 1, totalItems: 3, itemsPerPage: 1000 },
          })
        : jsonResponse({ data: [], total: 0 }),
    );
    const { router } = renderRoutes(
      [{ path: '/Api2', element: <ListScreen declaration={mechanicCommands} /> }],
      '/Api2',
    );
    const table = await screen.findByRole('table');
    const commands = () =>
      within(screen.getByRole('table'))
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    expect(commands()).toEqual(['22F190', '0100', '1902']);
    fireEvent.click(within(within(table).getByRole('columnheader', { name: /Command/ })).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=command&order=asc'));
    await waitFor(() => expect(commands()).toEqual(['0100', '1902', '22F190']));
    const lookups = calls.filter((call) => call.url.pathname === '/api/CommandAPI');
    expect(lookups.every((call) => call.params.sort === undefined)).toBe(true);
  });
});
