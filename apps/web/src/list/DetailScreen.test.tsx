import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { DetailScreen, detailTable } from './DetailScreen.tsx';
import type { DetailDeclaration } from './detail.ts';
import { fieldColumn } from './format.ts';
import { rememberListQuery } from './rememberedQueries.ts';

interface Part {
  pid: string;
  data: string | null;
}
interface Thing {
  id: number;
  name: string;
  parts: Part[];
}

const thingSchema = {
  safeParse(value: unknown) {
    const thing = value as Thing;
    return typeof thing?.id === 'number' && Array.isArray(thing.parts)
      ? { success: true as const, data: thing }
      : { success: false as const };
  },
};

const thingDetails: DetailDeclaration<Thing> = {
  title: 'Thing Details',
  endpoint: '/api/things',
  schema: thingSchema,
  listPath: '/Things',
  messages: { notFound: 'The thing was not found.', error: 'Something went wrong' },
  summary: [
    { label: 'Name', value: (thing) => thing.name },
    { label: 'Number of Parts', value: (thing) => thing.parts.length },
  ],
  sections: [
    detailTable<Thing, Part>({
      title: 'Parts',
      rows: (thing) => thing.parts,
      columns: [fieldColumn<Part, 'pid'>('PID', 'pid'), fieldColumn<Part, 'data'>('Data', 'data')],
      empty: 'No parts available.',
    }),
  ],
};

const routes = [
  { path: '/Things', element: <p>The list</p> },
  { path: '/Things/details', element: <DetailScreen declaration={thingDetails} /> },
];

describe('DetailScreen', { timeout: 20_000 }, () => {
  it('fetches the record of the address and shows its summary and sections', async () => {
    const calls = installFakeFetch(() =>
      jsonResponse({
        id: 7,
        name: 'Seven',
        parts: [
          { pid: '03', data: '43 01 33' },
          { pid: '03', data: null },
        ],
      }),
    );
    renderRoutes(routes, '/Things/details?id=7');

    const table = await screen.findByRole('table', { name: 'Parts' });
    expect(calls.map((call) => call.url.pathname)).toEqual(['/api/things/7']);
    expect(screen.getByRole('heading', { name: 'Thing Details', level: 2 })).toBeTruthy();
    expect(screen.getByText('Seven')).toBeTruthy();
    expect(screen.getByText('Number of Parts').nextSibling?.textContent).toBe('2');
    const cells = within(table)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    // Equal sub-rows are fine: they are keyed by position.
    expect(cells).toEqual(['03', '43 01 33', '03', '-']);
  });

  it('says when a record has nothing in a section', async () => {
    installFakeFetch(() => jsonResponse({ id: 7, name: 'Seven', parts: [] }));
    renderRoutes(routes, '/Things/details?id=7');
    expect(await screen.findByText('No parts available.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says the record was not found when the server answers 404', async () => {
    const calls = installFakeFetch(() =>
      jsonResponse({ error: 'There is no thing with id 99.', code: 'NOT_FOUND' }, 404),
    );
    renderRoutes(routes, '/Things/details?id=99');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The thing was not found.');
    // A 404 is an answer, not a glitch: no retry.
    expect(calls).toHaveLength(1);
  });

  it('asks nothing for an address without a usable id', async () => {
    const calls = installFakeFetch(() => jsonResponse({}));
    renderRoutes(routes, '/Things/details?id=abc');
    expect((await screen.findByRole('alert')).textContent).toContain('The thing was not found.');
    expect(calls).toHaveLength(0);
  });

  it('shows the general sentence for other failures and for a malformed answer', async () => {
    installFakeFetch(() => jsonResponse({ error: 'Boom', code: 'INTERNAL' }, 400));
    renderRoutes(routes, '/Things/details?id=7');
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong');
    cleanup();

    installFakeFetch(() => jsonResponse({ id: 'seven' }));
    renderRoutes(routes, '/Things/details?id=8');
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong');
  });

  it("goes Back to the list's remembered filters and page", async () => {
    installFakeFetch(() => jsonResponse({ id: 7, name: 'Seven', parts: [] }));
    rememberListQuery('/Things', 'make=Honda&page=2');
    const { router } = renderRoutes(routes, '/Things/details?id=7');
    await screen.findByText('Seven');

    const back = screen.getByRole('link', { name: 'Back' });
    expect(back.getAttribute('href')).toBe('/Things?make=Honda&page=2');
    fireEvent.click(back);
    await screen.findByText('The list');
    expect(router.state.location.pathname + router.state.location.search).toBe('/Things?make=Honda&page=2');
  });

  it('goes Back to the bare list when it has no remembered query (a pasted link)', async () => {
    installFakeFetch(() => jsonResponse({ id: 7, name: 'Seven', parts: [] }));
    renderRoutes(routes, '/Things/details?id=7');
    await screen.findByText('Seven');
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/Things');
  });
});
