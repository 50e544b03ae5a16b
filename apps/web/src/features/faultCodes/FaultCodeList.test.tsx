import type { FaultCodeRow } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListScreen } from '../../list/ListScreen.tsx';
import { deferred, installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { faultCodeList } from './declarations.tsx';

const routes = [{ path: '/FaultCodeList', element: <ListScreen declaration={faultCodeList} /> }];

function row(overrides: Partial<FaultCodeRow> = {}): FaultCodeRow {
  return {
    id: 1,
    dtc: 'P0300',
    title: 'Random/Multiple Cylinder Misfire Detected',
    severity: 2,
    repair_difficulty: 1,
    make: null,
    company_id: 0,
    generic: true,
    ...overrides,
  };
}

/** `count` distinct rows, as a page of the server would hold. */
function rows(count: number, firstId = 1): FaultCodeRow[] {
  return Array.from({ length: count }, (_, i) => row({ id: firstId + i, dtc: `P0${300 + firstId + i}` }));
}

const pagerButton = (name: string) =>
  within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name });

describe('Fault Code List screen', { timeout: 20_000 }, () => {
  it('opens on page 1 without filters and shows the display values', async () => {
    const calls = installFakeFetch(() =>
      jsonResponse({
        data: [
          row(),
          row({
            id: 2,
            dtc: 'P1456',
            title: null,
            severity: 7,
            repair_difficulty: null,
            make: 'Honda',
            company_id: 21,
            generic: false,
          }),
        ],
        total: 2,
      }),
    );
    renderRoutes(routes, '/FaultCodeList');

    const table = await screen.findByRole('table', { name: 'Fault Code List' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.pathname).toBe('/api/faultCodesList');
    expect(calls[0]?.params).toEqual({ page: '1', limit: '30' });

    const [, first, second] = within(table).getAllByRole('row');
    const cells = (tableRow: HTMLElement | undefined) =>
      within(tableRow as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(first)).toEqual([
      '1',
      'P0300',
      'Random/Multiple Cylinder Misfire Detected',
      'Medium',
      'Easy',
      '-',
      '0',
      'Yes',
    ]);
    expect(cells(second)).toEqual(['2', 'P1456', '-', 'Unknown', '-', 'Honda', '21', 'No']);

    expect(screen.getByText('2 items')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(screen.getByText('Total Items: 2')).toBeTruthy();
    expect(screen.getByText('Current Page Items: 2')).toBeTruthy();
    // One page: no pager at all.
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('says there are no fault codes, with or without filters', async () => {
    const calls = installFakeFetch(() => jsonResponse({ data: [], total: 0 }));
    const { router } = renderRoutes(routes, '/FaultCodeList');

    expect(await screen.findByText('No fault codes available.')).toBeTruthy();
    expect(screen.getByText('Try searching with different criteria')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('DTC Code'), { target: { value: '  P03 ' } });
    fireEvent.change(screen.getByLabelText('Generic'), { target: { value: 'true' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    expect(await screen.findByText('No fault codes found for the specified criteria.')).toBeTruthy();
    expect(screen.getByText('Try searching with different criteria')).toBeTruthy();
    expect(calls.at(-1)?.params).toEqual({ page: '1', limit: '30', dtc: 'P03', generic: 'true' });
    expect(router.state.location.search).toBe('?dtc=P03&generic=true');
  });

  it("shows the screen's error sentence when the server refuses", async () => {
    installFakeFetch(() =>
      jsonResponse({ error: 'page must be a whole number of 1 or more', code: 'BAD_REQUEST' }, 400),
    );
    renderRoutes(routes, '/FaultCodeList');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch fault codes. Please try again.');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the error sentence when the server cannot be reached (after one retry)', async () => {
    const calls = installFakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderRoutes(routes, '/FaultCodeList');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch fault codes. Please try again.');
    expect(calls).toHaveLength(2);
  });

  it('says so when the answer has no row array', async () => {
    installFakeFetch(() => jsonResponse({ rows: [], total: 0 }));
    renderRoutes(routes, '/FaultCodeList');

    expect((await screen.findByRole('alert')).textContent).toContain('Invalid response format from server');
  });

  it('pages through the searched filters and disables the pager while a page loads', async () => {
    const pageTwo = deferred<Response>();
    const calls = installFakeFetch((call) => {
      const page = Number(call.params.page);
      if (page === 2) return pageTwo.promise;
      // A few rows per page keep the test quick; the pager only reads `total`.
      return jsonResponse({ data: rows(page === 4 ? 5 : 3, (page - 1) * 30 + 1), total: 95 });
    });
    const { router } = renderRoutes(routes, '/FaultCodeList?make=Honda');

    await screen.findByRole('table');
    expect(pagerButton('Previous').hasAttribute('disabled')).toBe(true);
    expect(pagerButton('Next').hasAttribute('disabled')).toBe(false);
    expect(pagerButton('Page 1').getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('Page 1 of 4')).toBeTruthy();

    // Typed but not searched: paging must keep the filters last searched.
    fireEvent.change(screen.getByLabelText('DTC Code'), { target: { value: 'P99' } });
    fireEvent.click(pagerButton('Next'));

    await screen.findByText('Loading...', { selector: 'p' });
    for (const name of ['Previous', 'Page 1', 'Page 2', 'Page 3', 'Page 4', 'Next']) {
      expect(pagerButton(name).hasAttribute('disabled'), name).toBe(true);
    }
    const searchButton = screen.getByRole('button', { name: 'Loading...' });
    expect(searchButton.hasAttribute('disabled')).toBe(true);
    expect(calls.at(-1)?.params).toEqual({ page: '2', limit: '30', make: 'Honda' });

    pageTwo.resolve(jsonResponse({ data: rows(3, 31), total: 95 }));
    await screen.findByText('Page 2 of 4');
    expect(pagerButton('Page 2').getAttribute('aria-current')).toBe('page');
    expect(pagerButton('Page 1').getAttribute('aria-current')).toBeNull();
    expect(pagerButton('Previous').hasAttribute('disabled')).toBe(false);
    expect(router.state.location.search).toBe('?make=Honda&page=2');
    // The form shows the search the page belongs to again.
    expect((screen.getByLabelText('DTC Code') as HTMLInputElement).value).toBe('');

    fireEvent.click(pagerButton('Page 4'));
    await waitFor(() => expect(screen.getByText('Page 4 of 4')).toBeTruthy());
    expect(pagerButton('Next').hasAttribute('disabled')).toBe(true);
    expect(pagerButton('Previous').hasAttribute('disabled')).toBe(false);
    expect(screen.getByText('5 items')).toBeTruthy();
  });

  it('moves a link past the last page to the last page', async () => {
    const calls = installFakeFetch((call) =>
      jsonResponse({ data: call.params.page === '4' ? rows(5, 91) : [], total: 95 }),
    );
    const { router } = renderRoutes(routes, '/FaultCodeList?make=Honda&page=9');

    await screen.findByText('Page 4 of 4');
    expect(router.state.location.search).toBe('?make=Honda&page=4');
    expect(calls.map((call) => call.params.page)).toEqual(['9', '4']);
    expect(screen.queryByText('No fault codes found for the specified criteria.')).toBeNull();
  });

  it('cancels a superseded request without showing an error', async () => {
    const neverAnswered = deferred<Response>();
    const calls = installFakeFetch((call) =>
      call.params.page === '1' ? neverAnswered.promise : jsonResponse({ data: rows(3, 31), total: 33 }),
    );
    const { router } = renderRoutes(routes, '/FaultCodeList');
    await waitFor(() => expect(calls).toHaveLength(1));

    // Like Back/Forward or a sidebar link: the list state changes while page 1 is in flight.
    await router.navigate('/FaultCodeList?page=2');

    await screen.findByRole('table');
    expect(calls[0]?.init?.signal?.aborted).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });
});
