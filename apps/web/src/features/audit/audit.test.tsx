import type { AuditEvent } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/session.ts';
import { DetailScreen } from '../../list/DetailScreen.tsx';
import { ListScreen } from '../../list/ListScreen.tsx';
import { installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { AUDIT_PATHS, auditList } from './declarations.tsx';
import { auditEventDetails } from './details.tsx';

const ADMIN = { id: 1, email: 'admin@example.com', role: 'admin' as const };
const routes = [
  { path: AUDIT_PATHS.list, element: <ListScreen declaration={auditList} /> },
  { path: AUDIT_PATHS.details, element: <DetailScreen declaration={auditEventDetails} /> },
];

function event(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: 6,
    at: '2026-11-23T08:19:05.000Z',
    operator_id: 1,
    operator_email: 'admin@example.com',
    action: 'role-changed',
    target: 'eddie@example.com',
    details: { from: 'editor', to: 'viewer' },
    address: '10.0.0.7',
    user_agent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
    ...overrides,
  };
}

const failed = event({
  id: 7,
  operator_id: null,
  operator_email: null,
  action: 'sign-in-failed',
  target: 'eddie@example.com',
  details: { email: 'eddie@example.com', reason: 'disabled' },
});

describe('Audit log', { timeout: 30_000 }, () => {
  it('lists events newest first with their exact total, filters by action, operator, target and period, and exports', async () => {
    setToken('token');
    const calls = installFakeFetch(() => jsonResponse({ events: [failed, event()], total: 2 }));
    const { router } = renderRoutes(routes, AUDIT_PATHS.list, { operator: ADMIN });

    const table = await screen.findByRole('table', { name: 'Audit log' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '2026-11-23 08:19:05',
      'nobody signed in',
      'Failed sign-in',
      'eddie@example.com',
      'account disabled',
      '10.0.0.7',
      'View Details',
    ]);
    expect(within(rows[1] as HTMLElement).getByText('editor → viewer')).toBeTruthy();
    // Who and what link to the log searched for them.
    expect(
      within(rows[1] as HTMLElement)
        .getByRole('link', { name: 'admin@example.com' })
        .getAttribute('href'),
    ).toBe('/AuditLog?operator=admin%40example.com');
    expect(
      within(rows[0] as HTMLElement)
        .getByRole('link', { name: 'eddie@example.com' })
        .getAttribute('href'),
    ).toBe('/AuditLog?target=eddie%40example.com');
    expect(screen.getByText('Total Items: 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download Excel' })).toBeTruthy();

    const action = screen.getByLabelText('Action') as HTMLSelectElement;
    expect(action.options[0]?.textContent).toBe('All actions');
    expect([...action.options].map((o) => o.value)).toContain('export');
    fireEvent.change(action, { target: { value: 'role-changed' } });
    fireEvent.change(screen.getByLabelText('Operator'), { target: { value: 'admin@' } });
    fireEvent.change(screen.getByLabelText('Target'), { target: { value: 'eddie@example.com' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-23' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(calls.at(-1)?.params).toEqual({
        page: '1',
        limit: '50',
        action: 'role-changed',
        operator: 'admin@',
        target: 'eddie@example.com',
        from: '2026-11-01',
        to: '2026-11-23',
      }),
    );
    expect(calls.at(-1)?.url.pathname).toBe('/api/audit');
    expect(new URLSearchParams(router.state.location.search).get('action')).toBe('role-changed');
  });

  it('asks the server for the export of the searched events in the format of the button', async () => {
    setToken('token');
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/exports'
        ? jsonResponse({ url: '/api/downloads/t1', expiresAt: '2026-11-23T08:20:00.000Z' })
        : jsonResponse({ events: [event()], total: 1 }),
    );
    renderRoutes(routes, `${AUDIT_PATHS.list}?action=role-changed`, { operator: ADMIN });
    await screen.findByRole('table', { name: 'Audit log' });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/exports')).toBe(true));
    const asked = calls.find((c) => c.url.pathname === '/api/exports');
    expect(JSON.parse(String(asked?.init?.body))).toEqual({
      list: 'audit',
      format: 'csv',
      query: { action: 'role-changed' },
    });
  });

  it('sorts by a header (not by the operator) and the export follows the sort', async () => {
    setToken('token');
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/exports'
        ? jsonResponse({ url: '/api/downloads/t2', expiresAt: '2026-11-23T08:20:00.000Z' })
        : jsonResponse({ events: [event(), failed], total: 2 }),
    );
    const { router } = renderRoutes(routes, `${AUDIT_PATHS.list}?action=role-changed`, { operator: ADMIN });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).queryByRole('button', { name: /^Operator/ })).toBeNull();
    fireEvent.click(within(table).getByRole('button', { name: /^Target/ }));
    await waitFor(() => expect(router.state.location.search).toContain('order=asc'));
    // The answer of the sorted search renders a new table: click its header.
    const target = () =>
      within(screen.getByRole('table', { name: 'Audit log' })).getByRole('columnheader', { name: /^Target/ });
    await waitFor(() => expect(target().getAttribute('aria-sort')).toBe('ascending'));
    fireEvent.click(within(target()).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toContain('order=desc'));
    await waitFor(() =>
      expect(calls.at(-1)?.params).toMatchObject({ action: 'role-changed', sort: 'target', order: 'desc' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/exports')).toBe(true));
    const asked = calls.find((c) => c.url.pathname === '/api/exports');
    expect(JSON.parse(String(asked?.init?.body)).query).toEqual({
      action: 'role-changed',
      sort: 'target',
      order: 'desc',
    });
  });

  it("opens an event's details: who, what, where, and every detail", async () => {
    setToken('token');
    const exportEvent = event({
      id: 12,
      action: 'export',
      target: 'scans',
      details: { list: 'scans', format: 'xlsx', filters: { make: 'Honda' }, rows: 120, outcome: 'completed' },
    });
    const calls = installFakeFetch(() => jsonResponse(exportEvent));
    renderRoutes(routes, `${AUDIT_PATHS.details}?id=12`, { operator: ADMIN });

    expect(await screen.findByRole('heading', { name: 'Audit event', level: 2 })).toBeTruthy();
    expect(await screen.findByText('Export')).toBeTruthy();
    expect(calls[0]?.url.pathname).toBe('/api/audit/12');
    expect(screen.getByText('Chrome 142 on Linux')).toBeTruthy();
    const details = screen.getByRole('table', { name: 'Details' });
    const rows = within(details)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['list', 'scans'],
      ['format', 'xlsx'],
      ['filters', JSON.stringify({ make: 'Honda' }, null, 2)],
      ['rows', '120'],
      ['outcome', 'completed'],
    ]);
  });

  it('says so when the event does not exist', async () => {
    setToken('token');
    installFakeFetch(() =>
      jsonResponse({ error: 'There is no audit event with id 99.', code: 'NOT_FOUND' }, 404),
    );
    renderRoutes(routes, `${AUDIT_PATHS.details}?id=99`, { operator: ADMIN });
    expect(await screen.findByText('The audit event was not found.')).toBeTruthy();
  });
});
