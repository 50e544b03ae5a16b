import type { ScanDetail, ScanRow, UserRow } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DetailScreen } from '../../list/DetailScreen.tsx';
import { ListScreen } from '../../list/ListScreen.tsx';
import { type FetchCall, installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { faultCodeList } from '../faultCodes/declarations.tsx';
import { scansList, specialFunctionsList, usersList } from './declarations.tsx';
import { scanDetails } from './details.tsx';

const routes = [
  { path: '/UsersTable', element: <ListScreen declaration={usersList} /> },
  { path: '/ObdScanReport', element: <ListScreen declaration={scansList} /> },
  { path: '/ObdScanReport/details', element: <DetailScreen declaration={scanDetails} /> },
  { path: '/SpecilaFunction', element: <ListScreen declaration={specialFunctionsList} /> },
  { path: '/FaultCodeList', element: <ListScreen declaration={faultCodeList} /> },
];

function scan(overrides: Partial<ScanRow> = {}): ScanRow {
  return {
    id: 5,
    email: 'asha@example.com',
    scan_start_time: '2025-03-04T09:15:00.000Z',
    scan_end_time: '2025-03-04T09:27:05.000Z',
    model: 'City',
    license_plate: 'MH 12 AB 1234',
    vin: 'MAKGM1234AB123456',
    scan_ended: true,
    make: 'Honda',
    country_id: 91,
    function: 'Full Scan',
    type: 'OBD',
    app_version: '3.2.1',
    pdf_report: null,
    ...overrides,
  };
}

const user: UserRow = {
  id: 1,
  email: 'asha@example.com',
  name: 'Asha',
  phone: null,
  country: 'India',
  plan: 'pro',
  status: 'active',
  device: 'Android',
  app_version: '3.2.1',
  created_at: '2025-01-02T03:04:05.000Z',
  last_login_at: null,
  subscription_ends_at: '2026-01-02T03:04:05.000Z',
};

const row = (table: HTMLElement, index: number) =>
  within(within(table).getAllByRole('row')[index] as HTMLElement)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('Users Table', { timeout: 20_000 }, () => {
  it('builds its columns from the fields the server returns and offers the known plans', async () => {
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/users/facets'
        ? jsonResponse({ plans: ['basic', 'free', 'pro'], statuses: ['active', 'expired'] })
        : jsonResponse({ users: [user], total: 1 }),
    );
    const { router } = renderRoutes(routes, '/UsersTable');

    const table = await screen.findByRole('table', { name: 'User List' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'ID',
      'Email',
      'Name',
      'Phone',
      'Country',
      'Plan',
      'Status',
      'Device',
      'App Version',
      'Created At',
      'Last Login At',
      'Subscription Ends At',
    ]);
    expect(row(table, 1)).toEqual([
      '1',
      'asha@example.com',
      'Asha',
      '-',
      'India',
      'pro',
      'active',
      'Android',
      '3.2.1',
      '2025-01-02 03:04:05',
      '-',
      '2026-01-02 03:04:05',
    ]);
    expect(screen.getByRole('heading', { name: 'User List', level: 2 })).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === '/api/users')?.params).toEqual({
      page: '1',
      limit: '20',
    });

    const plan = screen.getByLabelText('Plan') as HTMLSelectElement;
    await waitFor(() =>
      expect([...plan.options].map((o) => o.textContent)).toEqual(['All', 'basic', 'free', 'pro']),
    );
    const status = screen.getByLabelText('Status') as HTMLSelectElement;
    expect([...status.options].map((o) => o.value)).toEqual(['', 'active', 'expired']);
    // Both selects share one request for their choices.
    expect(calls.filter((call) => call.url.pathname === '/api/users/facets')).toHaveLength(1);

    fireEvent.change(plan, { target: { value: 'pro' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?plan=pro'));
    await waitFor(() => expect(calls.at(-1)?.params).toEqual({ page: '1', limit: '20', plan: 'pro' }));
    expect(screen.getByRole('button', { name: 'Download Excel' })).toBeTruthy();
  });

  it("shows 'Failed to fetch users' when the list fails", async () => {
    installFakeFetch((call) =>
      call.url.pathname === '/api/users/facets'
        ? jsonResponse({ plans: [], statuses: [] })
        : jsonResponse({ error: 'Nope', code: 'INTERNAL' }, 400),
    );
    renderRoutes(routes, '/UsersTable');
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to fetch users');
  });
});

describe('Cars Scans', { timeout: 20_000 }, () => {
  function scansServer(respond?: (call: FetchCall) => Response | undefined) {
    return installFakeFetch(
      (call) =>
        respond?.(call) ??
        jsonResponse({
          scans: [scan(), scan({ id: 6, pdf_report: 'https://reports.example-obd.com/scans/2025/ab.pdf' })],
          total: 62,
        }),
    );
  }

  it('reads its nine filters from the address, date range included, and sends them', async () => {
    const calls = scansServer();
    renderRoutes(
      routes,
      '/ObdScanReport?make=Honda&country_id=91&scan_start_time=2025-01-01&scan_end_time=2025-03-31&page=2',
    );
    const table = await screen.findByRole('table', { name: 'Scan Details' });
    expect(calls[0]?.params).toEqual({
      page: '2',
      limit: '30',
      make: 'Honda',
      country_id: '91',
      scan_start_time: '2025-01-01',
      scan_end_time: '2025-03-31',
    });
    expect((screen.getByLabelText('Started on or after') as HTMLInputElement).value).toBe('2025-01-01');
    expect((screen.getByLabelText('Ended on or before') as HTMLInputElement).type).toBe('date');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Email',
      'Start Time',
      'End Time',
      'Model',
      'License Plate',
      'VIN',
      'Scan Ended',
      'Make',
      'Country',
      'Function',
      'Type',
      'App Version',
      'PDF Report',
      'View Details',
    ]);
    expect(row(table, 1)).toEqual([
      'asha@example.com',
      '2025-03-04 09:15:00',
      '2025-03-04 09:27:05',
      'City',
      'MH 12 AB 1234',
      'MAKGM1234AB123456',
      'Yes',
      'Honda',
      '91',
      'Full Scan',
      'OBD',
      '3.2.1',
      'View PDF',
      'View Details',
    ]);
    expect(row(table, 2)[12]).toBe('Open PDF');
    const details = within(table).getAllByRole('link', { name: 'View Details' });
    expect(details.map((link) => link.getAttribute('href'))).toEqual([
      '/ObdScanReport/details?id=5',
      '/ObdScanReport/details?id=6',
    ]);
  });

  it('searches a date range from page 1', async () => {
    const calls = scansServer();
    const { router } = renderRoutes(routes, '/ObdScanReport?page=3');
    await screen.findByRole('table', { name: 'Scan Details' });

    fireEvent.change(screen.getByLabelText('Make', { selector: 'input' }), { target: { value: 'Honda' } });
    fireEvent.change(screen.getByLabelText('Started on or after'), { target: { value: '2025-02-01' } });
    fireEvent.change(screen.getByLabelText('Ended on or before'), { target: { value: '2025-02-28' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?make=Honda&scan_start_time=2025-02-01&scan_end_time=2025-02-28',
      ),
    );
    await waitFor(() =>
      expect(calls.at(-1)?.params).toEqual({
        page: '1',
        limit: '30',
        make: 'Honda',
        scan_start_time: '2025-02-01',
        scan_end_time: '2025-02-28',
      }),
    );
  });

  it('links the external report of a scan that has one, for a new tab', async () => {
    scansServer();
    renderRoutes(routes, '/ObdScanReport');
    const table = await screen.findByRole('table', { name: 'Scan Details' });

    const report = within(table).getByRole('link', { name: 'Open PDF' });
    expect(report.getAttribute('href')).toBe('https://reports.example-obd.com/scans/2025/ab.pdf');
    expect(report.getAttribute('target')).toBe('_blank');
    expect(report.getAttribute('rel')).toBe('noopener noreferrer');
    // Only the scan without an external report offers the server-rendered one.
    expect(within(table).getAllByRole('button', { name: 'View PDF' })).toHaveLength(1);
  });

  it("opens the server's report in a tab opened at the click, through a single-use link", async () => {
    const calls = scansServer((call) =>
      call.url.pathname === '/api/exports'
        ? jsonResponse({ url: '/api/downloads/ticket-1', expiresAt: '2030-01-01T00:00:00Z' }, 201)
        : undefined,
    );
    const tab = { opener: {}, location: { href: 'about:blank' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    renderRoutes(routes, '/ObdScanReport');
    const table = await screen.findByRole('table', { name: 'Scan Details' });

    fireEvent.click(within(table).getAllByRole('button', { name: 'View PDF' })[0] as HTMLElement);
    // The tab opens synchronously within the click (no popup blocking), before the request.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    await waitFor(() => expect(tab.location.href).toBe('/api/downloads/ticket-1'));
    const ticket = calls.find((call) => call.url.pathname === '/api/exports');
    expect(JSON.parse(String(ticket?.init?.body))).toEqual({
      list: 'scanReport',
      format: 'pdf',
      query: { id: '5' },
    });
  });

  it('closes the tab and says so when the report cannot be had', async () => {
    scansServer((call) =>
      call.url.pathname === '/api/exports' ? jsonResponse({ error: 'No', code: 'X' }, 400) : undefined,
    );
    const tab = { opener: {}, location: { href: 'about:blank' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderRoutes(routes, '/ObdScanReport');
    const table = await screen.findByRole('table', { name: 'Scan Details' });

    fireEvent.click(within(table).getAllByRole('button', { name: 'View PDF' })[0] as HTMLElement);
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Something went wrong'));
    expect(tab.close).toHaveBeenCalled();
  });

  it("says the server's sentence when too many downloads are running", async () => {
    const busy =
      'You already have 3 downloads running. Wait for one of them to finish, then start this one again.';
    scansServer((call) =>
      call.url.pathname === '/api/exports'
        ? jsonResponse({ error: busy, code: 'RATE_LIMITED' }, 429)
        : undefined,
    );
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderRoutes(routes, '/ObdScanReport');
    await screen.findByRole('table', { name: 'Scan Details' });
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith(busy));
  });

  it("shows 'Failed to fetch scan report' when the list fails", async () => {
    scansServer(() => jsonResponse({ error: 'Nope', code: 'BAD_REQUEST' }, 400));
    renderRoutes(routes, '/ObdScanReport');
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to fetch scan report');
  });
});

describe('Scan details', { timeout: 20_000 }, () => {
  const detail: ScanDetail = {
    ...scan(),
    scanResArray: [
      { system: 'Engine', pid: '0C', data: '41 0C 1A F8', header: '7E8', protocol: 'CAN', make: 'Honda' },
    ],
    decodedArray: [
      {
        system: 'Engine',
        pid: '03',
        data: '43 02 01 33 03 00',
        protocol: 'ISO 15765-4 CAN',
        header: '7E8',
        decodedFaultArray: { P0133: 'O2 Sensor Circuit Slow Response', P0300: 'Random Misfire' },
      },
    ],
  };

  it('shows the summary, the decoded faults linked to the Fault Code List, and the raw results', async () => {
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/ScanDetail/5' ? jsonResponse(detail) : jsonResponse({ data: [], total: 0 }),
    );
    const { router } = renderRoutes(routes, '/ObdScanReport/details?id=5');

    const decoded = await screen.findByRole('table', { name: 'Decoded Fault Codes' });
    expect(calls[0]?.url.pathname).toBe('/api/ScanDetail/5');
    expect(screen.getByText('Duration').nextSibling?.textContent).toBe('12 min 5 s');
    expect(screen.getByText('Number of Results').nextSibling?.textContent).toBe('1');
    expect(screen.getByText('Scan Ended').nextSibling?.textContent).toBe('Yes');
    expect(screen.getByText('License Plate').nextSibling?.textContent).toBe('MH 12 AB 1234');

    expect(
      within(decoded)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['System', 'PID', 'Data', 'Protocol', 'Header', 'Decoded Faults']);
    expect(row(decoded, 1).at(-1)).toBe('P0133: O2 Sensor Circuit Slow ResponseP0300: Random Misfire');
    const raw = screen.getByRole('table', { name: 'Raw Scan Results' });
    expect(row(raw, 1)).toEqual(['Engine', '0C', '41 0C 1A F8', '7E8', 'CAN', 'Honda']);

    const link = within(decoded).getByRole('link', { name: 'P0300' });
    expect(link.getAttribute('href')).toBe('/FaultCodeList?dtc=P0300');
    fireEvent.click(link);
    await screen.findByRole('heading', { name: 'Fault Code List', level: 2 });
    expect(router.state.location.search).toBe('?dtc=P0300');
    expect((screen.getByLabelText('DTC Code') as HTMLInputElement).value).toBe('P0300');
  });

  it('says so when a scan has no results', async () => {
    installFakeFetch(() => jsonResponse({ ...detail, scanResArray: [], decodedArray: [] }));
    renderRoutes(routes, '/ObdScanReport/details?id=5');
    expect(await screen.findByText('No decoded fault data available.')).toBeTruthy();
    expect(screen.getByText('No scan data available.')).toBeTruthy();
  });

  it('says the scan was not found for an unknown id', async () => {
    installFakeFetch(() => jsonResponse({ error: 'There is no scan with id 999.', code: 'NOT_FOUND' }, 404));
    renderRoutes(routes, '/ObdScanReport/details?id=999');
    expect((await screen.findByRole('alert')).textContent).toContain('The scan record was not found.');
  });
});

describe('Special Function', { timeout: 20_000 }, () => {
  it('filters hard-coded runs with the Yes/No select', async () => {
    const calls = installFakeFetch(() => jsonResponse({ scans: [], total: 0 }));
    const { router } = renderRoutes(routes, '/SpecilaFunction');
    await screen.findByText('No special function runs available.');

    const hardCoded = screen.getByLabelText('Hard Coded') as HTMLSelectElement;
    expect([...hardCoded.options].map((o) => `${o.value}:${o.textContent}`)).toEqual([
      ':All',
      'true:Yes',
      'false:No',
    ]);
    fireEvent.change(hardCoded, { target: { value: 'true' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?hard_coded=true'));
    await screen.findByText('No special function runs found for the specified criteria.');
    expect(calls.at(-1)?.params).toEqual({ page: '1', limit: '30', hard_coded: 'true' });
  });
});
