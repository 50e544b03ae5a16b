import type { OperatorRow, PendingInvitation } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/session.ts';
import { type FetchCall, installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { OperatorsScreen } from './OperatorsScreen.tsx';

const ADMIN = { id: 1, email: 'admin@example.com', role: 'admin' as const };
const routes = [{ path: '/Operators', element: <OperatorsScreen /> }];

function operator(overrides: Partial<OperatorRow> = {}): OperatorRow {
  return {
    id: 2,
    email: 'eddie@example.com',
    role: 'editor',
    status: 'active',
    created_at: '2026-11-20T10:00:00.000Z',
    last_seen_at: '2026-11-23T08:00:05.000Z',
    disabled_at: null,
    open_sessions: 2,
    ...overrides,
  };
}

const pending: PendingInvitation = {
  id: 4,
  role: 'viewer',
  created_at: '2026-11-22T09:00:00.000Z',
  expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  created_by: 'admin@example.com',
};

/** The operators list, the invitations, and whatever `override` answers first. */
function fakeServer(override: (call: FetchCall) => Response | undefined = () => undefined) {
  return installFakeFetch((call) => {
    const answer = override(call);
    if (answer) return answer;
    if (call.url.pathname === '/api/operators')
      return jsonResponse({
        operators: [operator(), operator({ id: 1, email: 'admin@example.com', role: 'admin' })],
        total: 2,
      });
    if (call.url.pathname === '/api/invitations') return jsonResponse({ invitations: [pending] });
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

async function openAction(email: string, item: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${email}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: item }));
  return screen.findByRole('dialog');
}

describe('Operators', { timeout: 30_000 }, () => {
  it('downloads the visible columns by the export headers, without the actions', async () => {
    setToken('token');
    const calls = installFakeFetch(
      (call) => {
        const path = call.url.pathname;
        if (path === '/api/preferences/lists/operators')
          return jsonResponse({
            list: 'operators',
            columns: { order: [], hidden: ['Role'] },
            density: 'comfortable',
            updated_at: null,
          });
        if (path === '/api/exports')
          return jsonResponse({ url: '/api/downloads/t3', expiresAt: '2026-11-23T08:20:00.000Z' });
        if (path === '/api/views') return jsonResponse({ views: [] });
        if (path === '/api/operators') return jsonResponse({ operators: [operator()], total: 1 });
        if (path === '/api/invitations') return jsonResponse({ invitations: [] });
        return jsonResponse({ error: 'unexpected' }, 500);
      },
      { engine: 'passed' },
    );
    renderRoutes(routes, '/Operators', { operator: ADMIN });
    await screen.findByRole('table', { name: 'Operators' });
    // The operator's layout (Role hidden) has arrived: the download offers the visible columns.
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Operators' })).queryByRole('columnheader', {
          name: /^Role/,
        }),
      ).toBeNull(),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Visible columns' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/exports')).toBe(true));
    const asked = calls.find((c) => c.url.pathname === '/api/exports');
    expect(JSON.parse(String(asked?.init?.body)).columns).toEqual([
      'Email',
      'Status',
      'Created',
      'Last Seen',
      'Open Sessions',
    ]);
  });

  // First in the file to use a row's actions: the menu's code is fetched by this click (issue 14).
  it('opens the Actions menu on the first click, its code fetched then, and gives focus back on Escape', async () => {
    setToken('token');
    fakeServer();
    renderRoutes(routes, '/Operators', { operator: ADMIN });

    const standIn = await screen.findByRole('button', { name: 'Actions for eddie@example.com' });
    expect(standIn.getAttribute('aria-haspopup')).toBe('menu');
    expect(standIn.getAttribute('aria-expanded')).toBe('false');
    standIn.focus();
    fireEvent.click(standIn);
    const menu = (await screen.findByRole('menuitem', { name: 'Change role' })).closest('[role="menu"]');
    const actions = screen.getByRole('button', { name: 'Actions for eddie@example.com' });
    expect(actions.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(menu?.contains(document.activeElement)).toBe(true));

    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(actions));
    // The invite form under the list came with its own download.
    expect(await screen.findByRole('form', { name: 'Invite an operator' })).toBeTruthy();
  });

  it('lists e-mail, role, status, created, last seen and open sessions, filters by role, and exports', async () => {
    setToken('token');
    const calls = fakeServer();
    const { router } = renderRoutes(routes, '/Operators', { operator: ADMIN });

    const table = await screen.findByRole('table', { name: 'Operators' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Email', 'Role', 'Status', 'Created', 'Last seen', 'Open sessions', 'Actions']);
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(cells(first)).toEqual([
      'eddie@example.com',
      'Editor',
      'Active',
      '2026-11-20 10:00:00',
      '2026-11-23 08:00:05',
      '2',
      'Actions',
    ]);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download Excel' })).toBeTruthy();

    const filters = screen.getByRole('form', { name: 'Filters' });
    fireEvent.change(within(filters).getByLabelText('Role'), { target: { value: 'editor' } });
    fireEvent.change(within(filters).getByLabelText('Status'), { target: { value: 'disabled' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?role=editor&status=disabled'));
    await waitFor(() =>
      expect(calls.filter((c) => c.url.pathname === '/api/operators').at(-1)?.params).toEqual({
        page: '1',
        limit: '50',
        role: 'editor',
        status: 'disabled',
      }),
    );
  });

  it("changes a role, and shows the server's sentence when it refuses (the last admin)", async () => {
    setToken('token');
    const lastAdmin =
      'You are the last active admin: make another operator an admin first, or nobody could manage operators.';
    const calls = fakeServer((call) =>
      call.init?.method === 'PATCH'
        ? call.url.pathname === '/api/operators/1'
          ? jsonResponse({ error: lastAdmin, code: 'CONFLICT' }, 409)
          : jsonResponse(operator({ role: 'viewer' }))
        : undefined,
    );
    renderRoutes(routes, '/Operators', { operator: ADMIN });

    let dialog = await openAction('eddie@example.com', 'Change role');
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'viewer' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const patch = calls.find((c) => c.init?.method === 'PATCH');
    expect(patch?.url.pathname).toBe('/api/operators/2');
    expect(JSON.parse(String(patch?.init?.body))).toEqual({ role: 'viewer' });
    // The list is asked again after the change.
    await waitFor(() =>
      expect(calls.filter((c) => c.url.pathname === '/api/operators').length).toBeGreaterThan(1),
    );

    dialog = await openAction('admin@example.com', 'Disable');
    // The admin's own row: they are told what it does to them.
    expect(within(dialog).getByText('You are signed out at once, in this browser too.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(lastAdmin);
    expect(JSON.parse(String(calls.at(-1)?.init?.body))).toEqual({ disabled: true });
  });

  it('issues a password reset code and shows it once with its expiry and a copy button', async () => {
    setToken('token');
    const expiresAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const calls = fakeServer((call) =>
      call.url.pathname === '/api/operators/2/password-reset'
        ? jsonResponse({ code: 'RESET-1234-ABCD', expiresAt }, 201)
        : undefined,
    );
    renderRoutes(routes, '/Operators', { operator: ADMIN });

    const dialog = await openAction('eddie@example.com', 'Issue password reset code');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue code' }));
    const code = (await within(dialog).findByLabelText('Code')) as HTMLInputElement;
    expect(code.value).toBe('RESET-1234-ABCD');
    expect(within(dialog).getByText(/^Expires .* \(in 24 hours\)\.$/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy code' })).toBeTruthy();
    expect(calls.find((c) => c.url.pathname === '/api/operators/2/password-reset')?.init?.method).toBe(
      'POST',
    );
  });

  it('ends all sessions of an operator', async () => {
    setToken('token');
    const calls = fakeServer((call) =>
      call.url.pathname === '/api/operators/2/sessions' ? jsonResponse({ ended: 2 }) : undefined,
    );
    renderRoutes(routes, '/Operators', { operator: ADMIN });
    const dialog = await openAction('eddie@example.com', 'End all sessions');
    expect(within(dialog).getByText(/Ends all 2 open sessions of eddie@example.com/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'End sessions' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.url.pathname === '/api/operators/2/sessions')?.init?.method).toBe('DELETE');
  });

  // The dialog was opened from a menu item, gone once the menu closed: Mantine's Modal gave focus
  // back to it, and so to the page body (issue 14 item 4).
  it("gives focus back to the row's Actions button when an action's dialog closes by Escape or after its action", async () => {
    setToken('token');
    const admin = operator({ id: 1, email: 'admin@example.com', role: 'admin' });
    const vera = operator({ id: 3, email: 'vera@example.com', role: 'viewer' });
    let veraDisabled = false;
    fakeServer((call) => {
      if (call.url.pathname === '/api/operators/2/sessions') return jsonResponse({ ended: 2 });
      if (call.url.pathname === '/api/operators/3' && call.init?.method === 'PATCH') {
        veraDisabled = true;
        return jsonResponse({ ...vera, status: 'disabled' });
      }
      // As under an "Active" filter: a disabled operator leaves the list.
      if (call.url.pathname === '/api/operators') {
        const operators = veraDisabled ? [operator(), admin] : [operator(), admin, vera];
        return jsonResponse({ operators, total: operators.length });
      }
      return undefined;
    });
    renderRoutes(routes, '/Operators', { operator: ADMIN });
    const actionsOf = (email: string) => screen.getByRole('button', { name: `Actions for ${email}` });

    const dialog = await openAction('admin@example.com', 'Change role');
    fireEvent.keyDown(within(dialog).getByRole('combobox', { name: 'Role' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(actionsOf('admin@example.com')));

    // After the action the list is asked again and its rows are drawn anew: the new row's button.
    const ending = await openAction('eddie@example.com', 'End all sessions');
    fireEvent.click(within(ending).getByRole('button', { name: 'End sessions' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(actionsOf('eddie@example.com')));

    // The row is gone from the list asked again: the list's table (its scrolling box) takes the focus.
    const disabling = await openAction('vera@example.com', 'Disable');
    fireEvent.click(within(disabling).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const table = await screen.findByRole('table', { name: 'Operators' });
    expect(screen.queryByRole('button', { name: 'Actions for vera@example.com' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(table.closest('[tabindex]')));
  });
});

describe('Invitations', { timeout: 30_000 }, () => {
  it('invites with a role and an expiry, shows the code and its sign-up link, and revokes a pending one', async () => {
    setToken('token');
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const calls = fakeServer((call) => {
      if (call.url.pathname === '/api/invitations' && call.init?.method === 'POST')
        return jsonResponse({ id: 9, code: 'abc DEF/123', role: 'editor', expiresAt }, 201);
      if (call.url.pathname === '/api/invitations/4') return new Response(null, { status: 204 });
      return undefined;
    });
    renderRoutes(routes, '/Operators', { operator: ADMIN });

    const pendingTable = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(cells(within(pendingTable).getAllByRole('row')[1] as HTMLElement).slice(0, 4)).toEqual([
      '#4',
      'Viewer',
      '2026-11-22 09:00:00',
      'admin@example.com',
    ]);

    const form = screen.getByRole('form', { name: 'Invite an operator' });
    expect((within(form).getByLabelText('Expires in (days)') as HTMLInputElement).value).toBe('7');
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'editor' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create invitation' }));

    const link = (await within(form).findByLabelText('Link')) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/signup?code=abc%20DEF%2F123`);
    expect((within(form).getByLabelText('Code') as HTMLInputElement).value).toBe('abc DEF/123');
    expect(within(form).getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(within(form).getByText(/\(in 7 days\)/)).toBeTruthy();
    const post = calls.find((c) => c.url.pathname === '/api/invitations' && c.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({ role: 'editor', expiresInDays: 7 });

    fireEvent.click(screen.getByRole('button', { name: 'Revoke invitation #4' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === '/api/invitations/4')?.init?.method).toBe('DELETE'),
    );
  });

  it('refuses an expiry outside 1–30 days before asking the server', async () => {
    setToken('token');
    const calls = fakeServer();
    renderRoutes(routes, '/Operators', { operator: ADMIN });
    const form = await screen.findByRole('form', { name: 'Invite an operator' });
    fireEvent.change(within(form).getByLabelText('Expires in (days)'), { target: { value: '31' } });
    expect(await within(form).findByText('Choose 1 to 30 days.')).toBeTruthy();
    expect(
      (within(form).getByRole('button', { name: 'Create invitation' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(calls.some((c) => c.init?.method === 'POST')).toBe(false);
  });
});
