import type { MySession } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/session.ts';
import { type FetchCall, installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { AccountScreen } from './AccountScreen.tsx';
import { browserText } from './browser.ts';

const ME = { id: 2, email: 'eddie@example.com', role: 'editor' as const };
const routes = [
  { path: '/account', element: <AccountScreen /> },
  { path: '/login', element: <p>login page</p> },
];

function session(overrides: Partial<MySession> = {}): MySession {
  return {
    id: 11,
    created_at: '2026-11-23T08:00:00.000Z',
    last_seen_at: '2026-11-23T08:30:00.000Z',
    expires_at: '2026-11-30T08:00:00.000Z',
    address: '10.0.0.7',
    user_agent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
    current: true,
    ...overrides,
  };
}

function fakeServer(
  sessions: MySession[],
  override: (call: FetchCall) => Response | undefined = () => undefined,
) {
  return installFakeFetch((call) => {
    const answer = override(call);
    if (answer) return answer;
    if (call.url.pathname === '/api/me/sessions') return jsonResponse({ sessions });
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

describe('My account', { timeout: 30_000 }, () => {
  it('lists own sessions (the current one marked) and ends another', async () => {
    setToken('token');
    const other = session({
      id: 9,
      current: false,
      address: '203.0.113.5',
      user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    });
    const calls = fakeServer([session(), other], (call) =>
      call.url.pathname === '/api/me/sessions/9' ? jsonResponse({ ended: 1 }) : undefined,
    );
    renderRoutes(routes, '/account', { operator: ME });

    expect(await screen.findByText('Signed in as eddie@example.com')).toBeTruthy();
    expect(screen.getByLabelText('Role: Editor')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'My sessions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '2026-11-23 08:00:00',
      '2026-11-23 08:30:00',
      '10.0.0.7',
      'Chrome 142 on Linux',
      'This sessionSign out',
    ]);
    expect(within(rows[1] as HTMLElement).getByText('Firefox 133 on Windows')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'End the session started 2026-11-23 08:00:00' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === '/api/me/sessions/9')?.init?.method).toBe('DELETE'),
    );
    // The list is asked again.
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/me/sessions')).toHaveLength(2));
  });

  it("changes the password with the current one, and shows the server's sentence when it is wrong", async () => {
    setToken('token');
    const wrong =
      'Your current password is not right. Type it again, or sign out and ask an admin for a reset code.';
    let answer = jsonResponse({ error: wrong, code: 'FORBIDDEN' }, 403);
    const calls = fakeServer([session()], (call) =>
      call.url.pathname === '/api/me/password' ? answer : undefined,
    );
    const { router } = renderRoutes(routes, '/account', { operator: ME });

    const form = await screen.findByRole('form', { name: 'Change password' });
    const button = within(form).getByRole('button', { name: 'Change password' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'old-secret' } });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'short' } });
    expect(within(form).getByText('Choose a password of at least 8 characters.')).toBeTruthy();
    expect(button.disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'new-secret-1' } });
    fireEvent.click(button);
    expect((await within(form).findByRole('alert')).textContent).toBe(wrong);
    // A 403 is not a lost session: the operator stays on the page.
    expect(router.state.location.pathname).toBe('/account');

    answer = new Response(null, { status: 204 });
    fireEvent.click(button);
    expect(await within(form).findByText(/Your password is changed\. Every other session/)).toBeTruthy();
    const post = calls.filter((c) => c.url.pathname === '/api/me/password').at(-1);
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      currentPassword: 'old-secret',
      password: 'new-secret-1',
    });
    expect((within(form).getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });
});

describe('browserText', () => {
  it('names the browser and system of common user agents', () => {
    expect(browserText(null)).toBe('-');
    expect(
      browserText(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
    ).toBe('Safari 17 on macOS');
    expect(
      browserText(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge 131 on Windows');
    expect(
      browserText(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome 131 on Android');
    expect(browserText('curl/8.5.0')).toBe('curl/8.5.0');
  });
});
