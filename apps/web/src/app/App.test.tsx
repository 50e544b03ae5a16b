import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToken, setToken } from '../lib/session.ts';
import { type FetchCall, installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { ROUTES } from './router.tsx';

const operator = { id: 1, email: 'admin@example.com', role: 'admin' as const };

/** A small stand-in for the API: the calls the shell makes, and an empty fault-code list. */
function fakeServer(overrides: (call: FetchCall) => Response | undefined = () => undefined) {
  return installFakeFetch((call) => {
    const override = overrides(call);
    if (override) return override;
    switch (call.url.pathname) {
      case '/api/login':
        return jsonResponse({ token: 'new-token', operator });
      case '/api/me':
        return jsonResponse(operator);
      case '/api/logout':
        return new Response(null, { status: 204 });
      default:
        return jsonResponse({ data: [], total: 0 });
    }
  });
}

function signIn(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('sign-in', { timeout: 20_000 }, () => {
  it('sends a visitor without a token to the login page and back to their page after sign-in', async () => {
    const calls = fakeServer();
    const { router } = renderRoutes(ROUTES, '/FaultCodeList?page=2');

    await screen.findByRole('button', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?next=/FaultCodeList%3Fpage%3D2');
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: "Don't have an account? Signup" }).getAttribute('href')).toBe(
      '/signup',
    );

    signIn('admin@example.com', 'correct horse');

    await screen.findByRole('heading', { name: 'Fault Code List' });
    expect(router.state.location.pathname + router.state.location.search).toBe('/FaultCodeList?page=2');
    expect(getToken()).toBe('new-token');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      email: 'admin@example.com',
      password: 'correct horse',
    });
    // The header knows the operator from the login answer.
    expect(await screen.findByText('admin@example.com')).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/api/me')).toBe(false);
  });

  it("shows the server's sentence, or 'Login failed' when there is none", async () => {
    let answer = jsonResponse({ error: 'Invalid email or password', code: 'UNAUTHORIZED' }, 401);
    fakeServer((call) => (call.url.pathname === '/api/login' ? answer : undefined));
    const { router } = renderRoutes(ROUTES, '/login');

    signIn('admin@example.com', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');

    answer = new Response('', { status: 500 });
    signIn('admin@example.com', 'wrong');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Login failed'));
    expect(router.state.location.pathname).toBe('/login');
    expect(getToken()).toBeNull();
  });

  it("says 'Login failed' when the server cannot be reached", async () => {
    installFakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderRoutes(ROUTES, '/');
    signIn('admin@example.com', 'secret');
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed');
  });
});

describe('layout', { timeout: 20_000 }, () => {
  it('lists every screen in the sidebar in spec order and highlights the current one', async () => {
    setToken('token');
    fakeServer();
    renderRoutes(ROUTES, '/FaultCodeList');

    const sidebar = await screen.findByRole('navigation', { name: 'Main navigation' });
    // The admin's screens join once the role is known.
    await within(sidebar).findByRole('link', { name: 'Audit log' });
    const links = within(sidebar).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Overview',
      'Users Table',
      'Coverage Data',
      'Mechanic Commands',
      'Cars Scans',
      'Special Function',
      'Actuations Detail',
      'Custom commands',
      'Actuation commands',
      'SPF Commands',
      'Model List Page',
      'Bike Make List',
      'Odometer commands',
      'Live Commands',
      'Fault Code Symptoms',
      'Fault Code Solutions',
      'Fault Code Causes',
      'Fault Code List',
      'Update commands',
      'Fault Codes Uploader',
      'Fault Codes Uploader 2',
      'Activation Codes Uploader',
      'Import History',
      'API',
      'Operators',
      'Audit log',
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toContain('/SpecilaFunction');
    const current = within(sidebar).getByRole('link', { current: 'page' });
    expect(current.textContent).toBe('Fault Code List');
    expect(await screen.findByText('admin@example.com')).toBeTruthy();
    expect(screen.getByLabelText('Role: Admin')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My account' }).getAttribute('href')).toBe('/account');
    expect(screen.getByRole('button', { name: 'Toggle navigation' })).toBeTruthy();
  });

  it("leaves an admin's screens out of a viewer's sidebar, and opening one says why", async () => {
    setToken('token');
    const viewer = { id: 3, email: 'viewer@example.com', role: 'viewer' as const };
    const calls = fakeServer((call) => (call.url.pathname === '/api/me' ? jsonResponse(viewer) : undefined));
    renderRoutes(ROUTES, '/Operators');

    expect(await screen.findByText('The Operators screen needs the admin role')).toBeTruthy();
    expect(screen.getByLabelText('Role: Viewer')).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Main navigation' });
    const labels = within(sidebar)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels).toContain('Import History');
    expect(labels).not.toContain('Operators');
    expect(labels).not.toContain('Audit log');
    // Nothing of the admin's screen was asked for.
    expect(calls.some((call) => call.url.pathname === '/api/operators')).toBe(false);
  });

  it('highlights the list of a detail route in the sidebar', async () => {
    setToken('token');
    fakeServer();
    renderRoutes(ROUTES, '/ObdScanReport/details?id=7');

    expect(await screen.findByRole('heading', { name: 'Scan Details', level: 2 })).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(sidebar).getByRole('link', { current: 'page' }).textContent).toBe('Cars Scans');
  });

  it("brings the operator back to a list's last page and filters from the sidebar", async () => {
    setToken('token');
    fakeServer(() => jsonResponse({ data: [], total: 95 }));
    const { router } = renderRoutes(ROUTES, '/FaultCodeList?make=Honda&page=2');
    await screen.findByText('Page 2 of 4');

    const sidebar = screen.getByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(sidebar).getByRole('link', { name: 'Users Table' }));
    await screen.findByRole('heading', { name: 'User List', level: 2 });

    fireEvent.click(within(sidebar).getByRole('link', { name: 'Fault Code List' }));
    await screen.findByText('Page 2 of 4');
    expect(router.state.location.search).toBe('?make=Honda&page=2');
    expect((screen.getByLabelText('Make', { selector: 'input' }) as HTMLInputElement).value).toBe('Honda');
  });

  it('logs out: revokes the token, forgets the session, returns to login', async () => {
    setToken('token');
    const calls = fakeServer();
    const { router } = renderRoutes(ROUTES, '/FaultCodeList?dtc=P0');
    await screen.findByText('admin@example.com');

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    await screen.findByRole('button', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
    const logout = calls.find((call) => call.url.pathname === '/api/logout');
    expect(logout?.init?.method).toBe('POST');
    expect((logout?.init?.headers as Record<string, string> | undefined)?.Authorization).toBe('Bearer token');
    expect(getToken()).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });
});

describe('a role lowered while the screen is open', { timeout: 20_000 }, () => {
  it("learns it from the server's 403 and says why instead of the failed list", async () => {
    setToken('token');
    let role: 'admin' | 'viewer' = 'admin';
    fakeServer((call) => {
      if (call.url.pathname === '/api/me') return jsonResponse({ ...operator, role });
      if (call.url.pathname === '/api/invitations') return jsonResponse({ invitations: [] });
      if (call.url.pathname === '/api/operators') {
        if (role === 'viewer')
          return jsonResponse(
            {
              error: 'This needs the admin role; your account is a viewer. Ask an admin.',
              code: 'FORBIDDEN',
            },
            403,
          );
        return jsonResponse({ operators: [], total: 0 });
      }
      return undefined;
    });
    renderRoutes(ROUTES, '/Operators');
    expect(await screen.findByText('No operators yet.')).toBeTruthy();

    role = 'viewer';
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('The Operators screen needs the admin role')).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(sidebar).queryByRole('link', { name: 'Operators' })).toBeNull();
    expect(screen.getByLabelText('Role: Viewer')).toBeTruthy();
  });
});
