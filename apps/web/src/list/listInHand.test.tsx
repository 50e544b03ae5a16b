import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { CellList, splitList } from './CellList.tsx';
import { listKeyOf, moveColumn, orderedColumns, toggleColumn, visibleColumns } from './columnLayout.ts';
import { detailsColumn } from './columns.tsx';
import { defineList, listSource } from './declaration.ts';
import { fieldColumn } from './format.ts';
import { ListScreen } from './ListScreen.tsx';
import { cleanFilters } from './listState.ts';
import { resolvePeriod, resolveRelativeDates } from './relativeDates.ts';

const col = (header: string) => ({ header, cell: () => header });
const columns = ['ID', 'Email', 'Make', 'VIN'].map(col);
const headers = (list: readonly { header: string }[]) => list.map((c) => c.header);

describe('column layout', () => {
  it('orders named columns, keeps unnamed ones in their declared slot, hides what is hidden', () => {
    expect(headers(orderedColumns(columns, { order: ['Make', 'ID'], hidden: [] }))).toEqual([
      'Make',
      'Email',
      'ID',
      'VIN',
    ]);
    expect(headers(visibleColumns(columns, { order: [], hidden: ['VIN', 'Gone'] }))).toEqual([
      'ID',
      'Email',
      'Make',
    ]);
    expect(headers(visibleColumns(columns, null))).toEqual(['ID', 'Email', 'Make', 'VIN']);
    // Never an empty table: a layout hiding every column shows them all.
    expect(visibleColumns(columns, { order: [], hidden: headers(columns) })).toHaveLength(4);
  });

  it('toggles and moves, keeping at least one column shown', () => {
    const hidden = toggleColumn(columns, null, 'Email');
    expect(hidden).toEqual({ order: ['ID', 'Email', 'Make', 'VIN'], hidden: ['Email'] });
    expect(toggleColumn(columns, hidden, 'Email').hidden).toEqual([]);
    const one = { order: [], hidden: ['ID', 'Email', 'Make'] };
    expect(toggleColumn(columns, one, 'VIN').hidden).toEqual(['ID', 'Email', 'Make']);
    expect(moveColumn(columns, null, 'Make', -1).order).toEqual(['ID', 'Make', 'Email', 'VIN']);
    expect(moveColumn(columns, null, 'ID', -1).order).toEqual(['ID', 'Email', 'Make', 'VIN']);
    expect(moveColumn(columns, null, 'VIN', 1).order).toEqual(['ID', 'Email', 'Make', 'VIN']);
  });

  it('names a list by its API path', () => {
    expect(listKeyOf({ path: '/api/ScanDetail' })).toBe('ScanDetail');
    expect(listKeyOf({ path: '/api/fault-codes/list' })).toBe('fault-codes-list');
  });
});

describe('dates as people say them', () => {
  const now = new Date('2026-03-10T23:30:00Z');
  it('resolves each period on the UTC calendar', () => {
    expect(resolvePeriod('@today', now)).toEqual({ from: '2026-03-10', to: '2026-03-10' });
    expect(resolvePeriod('@last7d', now)).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(resolvePeriod('@last30d', now)).toEqual({ from: '2026-02-09', to: '2026-03-10' });
    expect(resolvePeriod('@thismonth', now)).toEqual({ from: '2026-03-01', to: '2026-03-10' });
    expect(resolvePeriod('@lastmonth', now)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(resolvePeriod('@lastmonth', new Date('2026-01-15T00:00:00Z'))).toEqual({
      from: '2025-12-01',
      to: '2025-12-31',
    });
  });

  it('keeps a period as words in the state and sends dates', () => {
    const period = {
      kind: 'dateRange' as const,
      label: 'Scan period',
      from: { name: 'from', label: 'From' },
      to: { name: 'to', label: 'To' },
    };
    expect(cleanFilters([period], { from: '@last7d', to: '2026-01-01' })).toEqual({ from: '@last7d' });
    expect(cleanFilters([period], { from: '2026-01-01', to: '@last7d' })).toEqual({ from: '2026-01-01' });
    expect(cleanFilters([period], { from: '@yesterday' })).toEqual({});
    expect(resolveRelativeDates([{ from: 'from', to: 'to' }], { from: '@today', make: 'x' }, now)).toEqual({
      from: '2026-03-10',
      to: '2026-03-10',
      make: 'x',
    });
  });
});

describe('a long list in a cell', () => {
  it('shows the first few and "and N more", which expands', async () => {
    const makes = Array.from({ length: 46 }, (_, i) => `Make ${i + 1}`);
    render(
      <MantineProvider>
        <CellList items={makes} />
      </MantineProvider>,
    );
    expect(document.body.textContent).toContain('Make 5');
    expect(document.body.textContent).not.toContain('Make 6');
    fireEvent.click(screen.getByRole('button', { name: 'and 41 more' }));
    expect(document.body.textContent).toContain('Make 46');
    expect(screen.getByRole('button', { name: 'show fewer' }).getAttribute('aria-expanded')).toBe('true');
    expect(splitList(' Honda, Toyota ,,Kia ')).toEqual(['Honda', 'Toyota', 'Kia']);
  });
});

// ------------------------------------------------------------------ the engine on a screen

const rowSchema = z.object({ id: z.number(), email: z.string(), make: z.string() });
const things = defineList({
  title: 'Things',
  source: listSource('/api/things', z.object({ things: z.array(rowSchema), total: z.number() }), 'things'),
  pageSize: 20,
  filters: [
    { kind: 'text', name: 'make', label: 'Make' },
    {
      kind: 'dateRange',
      label: 'Period',
      from: { name: 'from', label: 'From' },
      to: { name: 'to', label: 'To' },
    },
  ],
  columns: [
    fieldColumn<z.infer<typeof rowSchema>, 'email'>('Email', 'email'),
    fieldColumn<z.infer<typeof rowSchema>, 'make'>('Make', 'make'),
    detailsColumn<z.infer<typeof rowSchema>>('/Things/details'),
  ],
  messages: { error: 'Failed', emptyFiltered: 'None found', emptyUnfiltered: 'None' },
});
const routes = [
  { path: '/Things', element: <ListScreen declaration={things} /> },
  { path: '/Things/details', element: <p>Details page</p> },
];
const rows = [
  { id: 1, email: 'a@example.com', make: 'Honda' },
  { id: 2, email: 'b@example.com', make: 'Toyota' },
  { id: 3, email: 'c@example.com', make: 'Kia' },
];

function server(options: { view?: object } = {}) {
  let preferences = { list: 'things', columns: null as unknown, density: 'comfortable', updated_at: null };
  return installFakeFetch(
    async (call) => {
      const path = call.url.pathname;
      if (path === '/api/things') return jsonResponse({ things: rows, total: rows.length });
      if (path === '/api/preferences/lists/things') {
        if (call.init?.method === 'PUT')
          preferences = { ...preferences, ...JSON.parse(String(call.init.body)) };
        return jsonResponse(preferences);
      }
      if (path === '/api/views') return jsonResponse({ views: [] });
      if (path === '/api/views/5' && options.view) return jsonResponse(options.view);
      if (path.startsWith('/api/views/'))
        return jsonResponse({ error: 'There is no view 9 you can open.', code: 'NOT_FOUND' }, 404);
      return jsonResponse({ error: 'unexpected', code: 'NOT_FOUND' }, 404);
    },
    { engine: 'passed' },
  );
}

describe('the list engine in the hand', { timeout: 20_000 }, () => {
  it('hides a column from the Columns menu and saves the layout for the operator', async () => {
    const calls = server();
    renderRoutes(routes, '/Things');
    const table = await screen.findByRole('table', { name: 'Things' });
    expect(within(table).getByRole('columnheader', { name: 'Make' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Make' }));
    await waitFor(() => expect(within(table).queryByRole('columnheader', { name: 'Make' })).toBeNull());
    const put = calls.find((call) => call.init?.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({
      columns: { order: ['Email', 'Make', 'View Details'], hidden: ['Make'] },
    });
  });

  it('switches to compact rows and remembers it', async () => {
    const calls = server();
    renderRoutes(routes, '/Things');
    await screen.findByRole('table', { name: 'Things' });
    fireEvent.click(screen.getByText('Compact'));
    await waitFor(() =>
      expect(
        calls.some((c) => c.init?.method === 'PUT' && String(c.init.body) === '{"density":"compact"}'),
      ).toBe(true),
    );
  });

  it('moves a row highlight with j/k and arrows, opens it with Enter, and / goes to the first filter', async () => {
    server();
    const { router } = renderRoutes(routes, '/Things');
    const table = await screen.findByRole('table', { name: 'Things' });
    const highlighted = () => table.querySelector('[data-highlighted]')?.getAttribute('data-row-index');
    act(() => {
      fireEvent.keyDown(document.body, { key: 'j' });
    });
    expect(highlighted()).toBe('0');
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    fireEvent.keyDown(document.body, { key: 'j' });
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(highlighted()).toBe('2');
    fireEvent.keyDown(document.body, { key: 'k' });
    expect(highlighted()).toBe('1');
    // Typing in a filter does not move it.
    const make = screen.getByRole('textbox', { name: 'Make' });
    fireEvent.keyDown(make, { key: 'j' });
    expect(highlighted()).toBe('1');
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(make);
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.search).toBe('?id=2'));
    expect(router.state.location.pathname).toBe('/Things/details');
  });

  it('offers periods said in words and sends their dates', async () => {
    const calls = server();
    renderRoutes(routes, '/Things?from=%40today');
    await screen.findByRole('table', { name: 'Things' });
    const today = new Date().toISOString().slice(0, 10);
    const asked = calls.find((call) => call.url.pathname === '/api/things');
    expect(asked?.params).toMatchObject({ from: today, to: today });
    expect((screen.getByRole('combobox', { name: 'Period: period' }) as HTMLSelectElement).value).toBe(
      '@today',
    );
    expect((screen.getByLabelText('From') as HTMLInputElement).disabled).toBe(true);
  });

  it('opens ?view=<id>: its filters in the address, its columns applied', async () => {
    const calls = server({
      view: {
        id: 5,
        list: 'things',
        name: 'Hondas',
        shared: true,
        query: 'make=Honda',
        columns: { order: ['Make', 'Email'], hidden: ['View Details'] },
        owner_id: 1,
        owner_email: 'a@example.com',
        editable: false,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      },
    });
    const { router } = renderRoutes(routes, '/Things?view=5');
    await waitFor(() => expect(router.state.location.search).toBe('?make=Honda'));
    await screen.findByRole('table', { name: 'Things' });
    // The table of the view's search (the address changed: a new fetch, a new table).
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Things' }))
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Make', 'Email']),
    );
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/things' && c.params.make === 'Honda')).toBe(true),
    );
  });

  it('says so when a view cannot be opened', async () => {
    server();
    const { router } = renderRoutes(routes, '/Things?view=9');
    expect(await screen.findByText('There is no view 9 you can open.')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });
});
