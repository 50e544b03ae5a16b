import type { CommandRow } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListScreen } from '../../list/ListScreen.tsx';
import { installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { actuationCommands, bikeMakeList, coverageData, mechanicCommands } from './declarations.tsx';

const routes = [
  { path: '/Api1', element: <ListScreen declaration={coverageData} /> },
  { path: '/Api2', element: <ListScreen declaration={mechanicCommands} /> },
  { path: '/BikeMakeList', element: <ListScreen declaration={bikeMakeList} /> },
  { path: '/ActuationCommands', element: <ListScreen declaration={actuationCommands} /> },
];

const makes = { data: [{ name: 'Honda', segment: 'car' }] };

/** `count` commands: every 4th an AT setup command, modules alternating Engine / ABS. */
function commands(count: number): CommandRow[] {
  return Array.from({ length: count }, (_, i) => ({
    command: i % 4 === 0 ? `AT${i}` : `01${String(i).padStart(2, '0')}`,
    module: i % 2 === 0 ? 'Engine' : 'ABS',
  }));
}

const pagination = (total: number) => ({
  currentPage: 1,
  totalPages: 1,
  totalItems: total,
  itemsPerPage: 1000,
});
const pagerButton = (name: string) =>
  within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name });
const columnCells = (index: number) =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[index]?.textContent);

describe('Mechanic Commands (/Api2)', { timeout: 20_000 }, () => {
  it('fetches once on opening with the defaults, asking for up to 1000 rows', async () => {
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/CommandAPI'
        ? jsonResponse({ data: commands(3), pagination: pagination(3) })
        : jsonResponse(makes),
    );
    const { router } = renderRoutes(routes, '/Api2');
    await screen.findByText('3 commands found for Honda');
    const lookups = calls.filter((call) => call.url.pathname === '/api/CommandAPI');
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.params).toEqual({
      page: '1',
      limit: '1000',
      make: 'Honda',
      function_type: 'scan',
      full_scan: 'true',
      module: '["Engine","ABS"]',
    });
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText('Vehicle Make', { selector: 'input' })).toHaveProperty('value', 'Honda');
    expect(screen.getByLabelText('Select Modules')).toHaveProperty('value', 'Engine, ABS');
    expect(screen.getByLabelText('Full Scan')).toHaveProperty('checked', true);
    expect(columnCells(2)).toEqual(['Setup', 'Diagnostic', 'Diagnostic']);
  });

  it('pages and searches the fetched rows in the browser, with the view in the address', async () => {
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/CommandAPI'
        ? jsonResponse({ data: commands(250), pagination: pagination(250) })
        : jsonResponse(makes),
    );
    const { router } = renderRoutes(routes, '/Api2');
    await screen.findByText('250 commands found for Honda');
    expect(columnCells(0)).toHaveLength(100);
    expect(pagerButton('First')).toHaveProperty('disabled', true);

    fireEvent.click(pagerButton('Last'));
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    expect(columnCells(0)).toHaveLength(50);

    fireEvent.change(screen.getByLabelText('Items per page'), { target: { value: '30' } });
    await waitFor(() => expect(router.state.location.search).toBe('?perPage=30'));
    expect(columnCells(0)).toHaveLength(30);
    expect(
      within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: 'Page 5' }),
    );

    fireEvent.change(screen.getByLabelText('Search Commands'), { target: { value: 'at1' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=at1&perPage=30'));
    // AT100 … AT196 (every 4th from 100) and AT12, AT16: all contain "at1".
    await screen.findByText(/commands found for Honda$/);
    expect(columnCells(2).every((type) => type === 'Setup')).toBe(true);
    expect(columnCells(0).every((command) => command?.toLowerCase().includes('at1'))).toBe(true);

    fireEvent.change(screen.getByLabelText('Search Commands'), { target: { value: 'nothing-like-this' } });
    await screen.findByText('No Commands Found');
    // Searching and paging never asked the server again.
    expect(calls.filter((call) => call.url.pathname === '/api/CommandAPI')).toHaveLength(1);
  });

  it('disables Fetch Commands without a module, and sends the typed modules as a JSON array', async () => {
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/CommandAPI'
        ? jsonResponse({ data: commands(2), pagination: pagination(2) })
        : jsonResponse(makes),
    );
    const { router } = renderRoutes(routes, '/Api2');
    await screen.findByText('2 commands found for Honda');
    const modules = screen.getByLabelText('Select Modules');
    const button = screen.getByRole('button', { name: 'Fetch Commands' });
    fireEvent.change(modules, { target: { value: ' , ' } });
    expect(button).toHaveProperty('disabled', true);

    fireEvent.change(modules, { target: { value: ' HVAC ,, Airbag ' } });
    fireEvent.click(screen.getByLabelText('Full Scan'));
    fireEvent.click(button);
    await waitFor(() =>
      expect(router.state.location.search).toBe('?full_scan=false&module=HVAC+%2C%2C+Airbag'),
    );
    await waitFor(() =>
      expect(calls.filter((call) => call.url.pathname === '/api/CommandAPI')).toHaveLength(2),
    );
    const last = calls.filter((call) => call.url.pathname === '/api/CommandAPI').at(-1);
    expect(last?.params.module).toBe('["HVAC","Airbag"]');
    expect(last?.params.full_scan).toBe('false');
  });

  it('keeps modules typed but not fetched when the address changes for the in-page search', async () => {
    installFakeFetch((call) =>
      call.url.pathname === '/api/CommandAPI'
        ? jsonResponse({ data: commands(2), pagination: pagination(2) })
        : jsonResponse(makes),
    );
    const { router } = renderRoutes(routes, '/Api2');
    await screen.findByText('2 commands found for Honda');
    fireEvent.change(screen.getByLabelText('Select Modules'), { target: { value: 'Engine' } });
    fireEvent.change(screen.getByLabelText('Search Commands'), { target: { value: 'at' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=at'));
    expect(screen.getByLabelText('Select Modules')).toHaveProperty('value', 'Engine');
  });

  it('shows the sentence of each failure', async () => {
    installFakeFetch((call) =>
      call.url.pathname === '/api/CommandAPI'
        ? jsonResponse({ error: 'Not found', code: 'NOT_FOUND' }, 404)
        : jsonResponse(makes),
    );
    renderRoutes(routes, '/Api2');
    await screen.findByText('API endpoint not found. Please check your server configuration.');
  });
});

describe('Coverage Data (/Api1)', { timeout: 20_000 }, () => {
  it('shows the result line and the pager caption only with more than one page', async () => {
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/getCoverage'
        ? jsonResponse({
            coverages: Array.from({ length: 30 }, (_, i) => ({
              id: i + 1,
              make: 'Hyundai',
              function_name: `Function ${i + 1}`,
              function_type: 'Scan',
            })),
            total: 95,
          })
        : jsonResponse(makes),
    );
    renderRoutes(routes, '/Api1?make=Hyundai&page=2');
    await screen.findByText('Showing 30 out of 95 results');
    expect(screen.getByText('Showing page 2 of 4 (95 total items)')).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === '/api/getCoverage')?.params).toEqual({
      page: '2',
      limit: '30',
      make: 'Hyundai',
    });
    expect(screen.getByPlaceholderText('Enter car make (e.g. Hyundai)')).toHaveProperty('value', 'Hyundai');
  });

  it("says 'Invalid response format' when coverages is not an array", async () => {
    installFakeFetch((call) =>
      call.url.pathname === '/api/getCoverage' ? jsonResponse({ total: 3 }) : jsonResponse(makes),
    );
    renderRoutes(routes, '/Api1');
    await screen.findByText('Invalid response format');
  });
});

describe('Bike Make List (/BikeMakeList): fetch as the operator types', { timeout: 20_000 }, () => {
  it('fetches the default segment, then once per pause in typing, cancelling the superseded request', async () => {
    const calls = installFakeFetch(async (call) => {
      if (call.params.segement === 'ca') await new Promise((resolve) => setTimeout(resolve, 5_000));
      return jsonResponse({
        data:
          call.params.segement === 'car'
            ? [{ name: 'Honda', segment: 'car' }]
            : [
                { name: 'Ducati Bikes', segment: 'bike' },
                { name: 'KTM- Bikes', segment: 'bike' },
              ],
      });
    });
    const { router } = renderRoutes(routes, '/BikeMakeList');
    await screen.findByText('Ducati Bikes');
    expect(calls.map((call) => call.params)).toEqual([{ segement: 'bike' }]);
    expect(screen.queryByRole('button', { name: 'Search' })).toBeNull();

    const input = screen.getByLabelText('Segment', { selector: 'input' });
    fireEvent.change(input, { target: { value: 'c' } });
    fireEvent.change(input, { target: { value: 'ca' } });
    // One request for the pause after 'ca' (not one per keystroke) …
    await waitFor(() => expect(calls.map((call) => call.params.segement)).toEqual(['bike', 'ca']));
    await waitFor(() => expect(router.state.location.search).toBe('?segement=ca'));
    fireEvent.change(input, { target: { value: 'car' } });
    await screen.findByText('Honda');
    // … which the next search cancelled.
    const superseded = calls[1]?.init?.signal;
    expect(superseded?.aborted).toBe(true);
    expect(router.state.location.search).toBe('?segement=car');
    // Typing never piled up history entries.
    expect(router.state.historyAction).toBe('REPLACE');

    fireEvent.change(input, { target: { value: '' } });
    await waitFor(() => expect(router.state.location.search).toBe('?segement='));
  });
});

describe('sorting the lists drawn without a table', { timeout: 20_000 }, () => {
  it('coverage sorts by a header; actuation cards by the group name from a sort button', async () => {
    const calls = installFakeFetch((call) => {
      if (call.url.pathname === '/api/getCoverage')
        return jsonResponse({
          coverages: [{ id: 1, make: 'Honda', function_name: 'ABS bleed', function_type: 'special' }],
          total: 1,
        });
      if (call.url.pathname === '/api/ActuationCommands')
        return jsonResponse({ data: [{ actuation_type: 'Horn', message: null, details: [] }], total: 1 });
      return jsonResponse(makes);
    });
    const { router } = renderRoutes(routes, '/Api1');
    const table = await screen.findByRole('table');
    fireEvent.click(within(table).getByRole('button', { name: /^Function Type/ }));
    await waitFor(() => expect(calls.at(-1)?.params).toMatchObject({ sort: 'function_type', order: 'asc' }));

    await router.navigate('/ActuationCommands');
    const sortGroup = await screen.findByRole('group', { name: 'Sort' });
    fireEvent.click(within(sortGroup).getByRole('button', { name: /^Actuation Type/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=actuation_type&order=asc'));
    await waitFor(() => expect(calls.at(-1)?.params).toMatchObject({ sort: 'actuation_type', order: 'asc' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Sort' })).getByRole('button', { name: /^Actuation Type/ }),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?sort=actuation_type&order=desc'));
  });
});
