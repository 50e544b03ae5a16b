import type { Overview } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLocation } from '../../app/navigation.tsx';
import { installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { LIST_TARGETS, listLink } from './links.ts';
import { changeText, OverviewScreen, overviewLinks } from './OverviewScreen.tsx';
import { parsePeriod, serialisePeriod } from './period.ts';

/** Where the app went: the path and query the router is at. */
function Where() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}

const routes = [
  { path: '/Overview', element: <OverviewScreen /> },
  { path: '*', element: <Where /> },
];

const fixture: Overview = {
  period: { from: '2026-06-01', to: '2026-06-30', days: 30 },
  previousPeriod: { from: '2026-05-02', to: '2026-05-31' },
  scanDays: { first: '2025-01-01', last: '2026-06-30' },
  figures: {
    scans: { value: 120, previous: 100 },
    specialFunctionRuns: { value: 8, previous: 10 },
    actuationRuns: { value: 3, previous: 3 },
    scanningUsers: { value: 40, previous: 0 },
    newUsers: { value: 5, previous: 2 },
    imports: { value: 4, previous: 1 },
    failedImports: { value: 1, previous: 0 },
  },
  scansPerDay: [{ day: '2026-06-01', car: 3, bike: 1, three_wheeler: 0, hcv: 0, other: 1 }],
  topFaultCodes: [{ dtc: 'P0300', title: 'Random/Multiple Cylinder Misfire Detected', scans: 12 }],
  scansByMake: [
    { make: 'Honda', segment: 'car', scans: 50 },
    { make: 'Royal Enfield', segment: 'bike', scans: 20 },
  ],
  scansByAppVersion: [
    { version: '3.2.1', scans: 90 },
    { version: null, scans: 30 },
  ],
  usersByPlan: [{ plan: 'pro', users: 7 }],
  usersByStatus: [{ status: 'active', users: 9 }],
  coverage: { functionTypes: ['ABS', 'Airbag'], makes: [{ make: 'Honda', total: 5, counts: [3, 2] }] },
  importsPerDay: [{ day: '2026-06-03', succeeded: 2, failed: 1, running: 0 }],
};

const card = (name: string) => screen.getByRole('region', { name });
const showTable = (name: string) => fireEvent.click(within(card(name)).getByText('Table'));

describe('Overview', { timeout: 20_000 }, () => {
  it('asks for the period in the address and shows each figure against the previous period', async () => {
    const calls = installFakeFetch(() => jsonResponse(fixture));
    renderRoutes(routes, '/Overview?from=2026-06-01&to=2026-06-30');
    expect(await within(await screen.findByRole('region', { name: 'Scans' })).findByText('120')).toBeTruthy();
    expect(calls[0]?.url.pathname).toBe('/api/overview');
    expect(calls[0]?.params).toEqual({ from: '2026-06-01', to: '2026-06-30' });
    expect(within(card('Scans')).getByText(/▲ 20% on the previous period \(100\)/)).toBeTruthy();
    expect(within(card('Special-function runs')).getByText(/▼ 20%/)).toBeTruthy();
    expect(within(card('Imports')).getByText('1 failed (0 before)')).toBeTruthy();
  });

  it('a make in the chart table opens the scans list filtered by that make and the period', async () => {
    installFakeFetch((call) =>
      call.url.pathname === '/api/overview' ? jsonResponse(fixture) : jsonResponse({}, 404),
    );
    renderRoutes(routes, '/Overview?from=2026-06-01&to=2026-06-30');
    await screen.findByRole('region', { name: 'Scans by make' });
    showTable('Scans by make');
    const honda = within(card('Scans by make')).getByRole('link', { name: 'Honda: 50 scans' });
    expect(honda.getAttribute('href')).toBe(
      '/ObdScanReport?make=Honda&scan_start_time=2026-06-01&scan_end_time=2026-06-30',
    );
    fireEvent.click(honda);
    expect((await screen.findByRole('status', { name: 'location' })).textContent).toBe(
      '/ObdScanReport?make=Honda&scan_start_time=2026-06-01&scan_end_time=2026-06-30',
    );
  });

  it('fault codes open the Fault Code List at the code; plans the users of that plan; coverage the make', async () => {
    installFakeFetch(() => jsonResponse(fixture));
    renderRoutes(routes, '/Overview?from=2026-06-01&to=2026-06-30');
    await screen.findByRole('region', { name: 'Top fault codes' });
    showTable('Top fault codes');
    expect(within(card('Top fault codes')).getByRole('link', { name: 'P0300' }).getAttribute('href')).toBe(
      '/FaultCodeList?dtc=P0300',
    );
    expect(
      within(card('Top fault codes')).getByText('Random/Multiple Cylinder Misfire Detected'),
    ).toBeTruthy();
    expect(within(card('Top fault codes')).getByRole('link', { name: '12' }).getAttribute('href')).toBe(
      '/ObdScanReport?scan_start_time=2026-06-01&scan_end_time=2026-06-30&dtc=P0300',
    );
    showTable('App users by plan');
    expect(within(card('App users by plan')).getByRole('link', { name: '7' }).getAttribute('href')).toBe(
      '/UsersTable?plan=pro',
    );
    showTable('Coverage: functions per make');
    expect(
      within(card('Coverage: functions per make')).getByRole('link', { name: 'Honda' }).getAttribute('href'),
    ).toBe('/Api1?make=Honda');
    showTable('Scans by app version');
    const versions = within(card('Scans by app version'));
    expect(versions.getByRole('link', { name: '90' }).getAttribute('href')).toBe(
      '/ObdScanReport?scan_start_time=2026-06-01&scan_end_time=2026-06-30&app_version=3.2.1',
    );
    // An unrecorded version has no list to open.
    expect(versions.getByText('Not recorded')).toBeTruthy();
    expect(versions.queryByRole('link', { name: '30' })).toBeNull();
  });

  it('a period without scans says when the latest was and offers the 30 days up to it', async () => {
    const empty: Overview = {
      ...fixture,
      figures: { ...fixture.figures, scans: { value: 0, previous: 0 } },
      scansPerDay: [],
      scansByMake: [],
    };
    const calls = installFakeFetch(() => jsonResponse(empty));
    const { router } = renderRoutes(routes, '/Overview');
    expect(await screen.findByText('No scans in this period')).toBeTruthy();
    expect(within(card('Scans by make')).getByText('No scans in this period.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show the 30 days up to it' }));
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-06-01&to=2026-06-30'));
    await waitFor(() => expect(calls.at(-1)?.params).toEqual({ from: '2026-06-01', to: '2026-06-30' }));
  });

  it('every figure and each segment of a day and each day of imports is a door to its list', async () => {
    installFakeFetch(() => jsonResponse(fixture));
    renderRoutes(routes, '/Overview?from=2026-06-01&to=2026-06-30');
    await within(await screen.findByRole('region', { name: 'Actuation runs' })).findByText('3');
    expect(within(card('Actuation runs')).getByRole('link', { name: '3' }).getAttribute('href')).toBe(
      '/ActuationsDetail?created_from=2026-06-01&created_to=2026-06-30',
    );
    expect(within(card('App users who scanned')).getByRole('link', { name: '40' }).getAttribute('href')).toBe(
      '/ObdScanReport?scan_start_time=2026-06-01&scan_end_time=2026-06-30&sort=email&order=asc',
    );
    expect(within(card('New app users')).getByRole('link', { name: '5' }).getAttribute('href')).toBe(
      '/UsersTable?created_from=2026-06-01&created_to=2026-06-30',
    );
    showTable('Scans per day');
    expect(within(card('Scans per day')).getByRole('link', { name: '3' }).getAttribute('href')).toBe(
      '/ObdScanReport?scan_start_time=2026-06-01&scan_end_time=2026-06-01&segment=car',
    );
    showTable('Imports per day');
    expect(
      within(card('Imports per day')).getByRole('link', { name: '2026-06-03' }).getAttribute('href'),
    ).toBe('/ImportHistory?day=2026-06-03');
    expect(within(card('Imports per day')).getByRole('link', { name: '1' }).getAttribute('href')).toBe(
      '/ImportHistory?status=failed&day=2026-06-03',
    );
  });

  it('a failed overview shows the server’s sentence', async () => {
    installFakeFetch(() =>
      jsonResponse({ error: 'from must be a date such as 2026-03-01', code: 'BAD_REQUEST' }, 400),
    );
    renderRoutes(routes, '/Overview');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'from must be a date such as 2026-03-01',
    );
  });
});

describe('Overview links and period', () => {
  it('every list link is written by the list engine from the list’s own filters', () => {
    const links = overviewLinks({ from: '2026-06-01', to: '2026-06-30' });
    expect(links.scansOnDay('2026-06-03')).toBe(
      '/ObdScanReport?scan_start_time=2026-06-03&scan_end_time=2026-06-03',
    );
    expect(links.usersOfStatus('active')).toBe('/UsersTable?status=active');
    expect(links.imports('failed')).toBe('/ImportHistory?status=failed');
    expect(links.specialFunctions()).toBe(
      '/SpecilaFunction?scan_start_time=2026-06-01&scan_end_time=2026-06-30',
    );
    // Issue 13 gaps: a segment of a day's bar, a day of imports, the actuation and new-user figures.
    expect(links.scansOnDayOfSegment('2026-06-03', 'three_wheeler')).toBe(
      '/ObdScanReport?scan_start_time=2026-06-03&scan_end_time=2026-06-03&segment=three_wheeler',
    );
    expect(links.importsOnDay('2026-06-03', 'failed')).toBe('/ImportHistory?status=failed&day=2026-06-03');
    expect(links.actuations()).toBe('/ActuationsDetail?created_from=2026-06-01&created_to=2026-06-30');
    expect(links.newUsers()).toBe('/UsersTable?created_from=2026-06-01&created_to=2026-06-30');
    // A filter the list does not declare is dropped, as the list drops it from a pasted address.
    expect(listLink('users', { nonsense: 'x', email: ' a@b.c ' })).toBe('/UsersTable?email=a%40b.c');
    expect(Object.keys(LIST_TARGETS)).toContain('scans');
  });

  it('the period: default 30 days, presets by name, custom days, junk ignored', () => {
    const today = '2026-11-23';
    expect(parsePeriod(new URLSearchParams(''), today)).toEqual({
      preset: '30d',
      from: '2026-10-25',
      to: today,
    });
    expect(parsePeriod(new URLSearchParams('period=7d'), today)).toEqual({
      preset: '7d',
      from: '2026-11-17',
      to: today,
    });
    expect(parsePeriod(new URLSearchParams('period=month'), today).from).toBe('2026-11-01');
    expect(parsePeriod(new URLSearchParams('period=today'), today).from).toBe(today);
    expect(parsePeriod(new URLSearchParams('from=2026-06-01&to=2026-06-30'), today)).toEqual({
      preset: 'custom',
      from: '2026-06-01',
      to: '2026-06-30',
    });
    expect(parsePeriod(new URLSearchParams('from=2026-06-30&to=2026-06-01&period=zzz'), today).preset).toBe(
      '30d',
    );
    expect(serialisePeriod({ preset: '30d', from: 'x', to: 'y' }).toString()).toBe('');
    expect(serialisePeriod({ preset: '7d', from: 'x', to: 'y' }).toString()).toBe('period=7d');
    expect(changeText({ value: 0, previous: 0 }).text).toBe('No change on the previous period');
  });
});
