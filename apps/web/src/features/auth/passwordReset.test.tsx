import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loginHandler, ROUTES } from '../../app/router.tsx';
import { setUnauthorizedHandler } from '../../lib/api.ts';
import { installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';

describe('/reset-password', { timeout: 30_000 }, () => {
  it("sends e-mail, code and new password; shows the server's sentence; on success the login page says so", async () => {
    const bad =
      'This reset code does not work for this email: it is unknown, used or expired. Ask an admin for a new one.';
    let answer = jsonResponse({ error: bad, code: 'FORBIDDEN' }, 403);
    const calls = installFakeFetch(() => answer);
    const { router } = renderRoutes(ROUTES, '/login');

    fireEvent.click(await screen.findByRole('link', { name: 'Have a reset code? Reset your password' }));
    await screen.findByRole('heading', { name: 'Reset password' });
    expect(router.state.location.pathname).toBe('/reset-password');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' eddie@example.com ' } });
    fireEvent.change(screen.getByLabelText('Reset code'), { target: { value: 'WRONG' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new-secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(bad);

    answer = new Response(null, { status: 204 });
    fireEvent.change(screen.getByLabelText('Reset code'), { target: { value: ' C110B-A3019 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Your password is changed. Sign in with the new one.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    const sent = calls.at(-1);
    expect(sent?.url.pathname).toBe('/api/password-reset');
    expect(sent?.init?.headers).not.toHaveProperty('Authorization');
    expect(JSON.parse(String(sent?.init?.body))).toEqual({
      email: 'eddie@example.com',
      code: 'C110B-A3019',
      password: 'new-secret-1',
    });
  });
});

describe('/signup?code=', { timeout: 30_000 }, () => {
  it('fills the invitation code in from the link and sends it', async () => {
    const calls = installFakeFetch((call) =>
      call.init?.method === 'POST'
        ? jsonResponse({ token: 'tok', operator: { id: 5, email: 'new@example.com', role: 'editor' } }, 201)
        : jsonResponse({ invitationRequired: true }),
    );
    const { router } = renderRoutes(ROUTES, '/signup?code=abc%20DEF%2F123');
    const code = (await screen.findByLabelText('Invitation code')) as HTMLInputElement;
    expect(code.value).toBe('abc DEF/123');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Signup' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/UsersTable'));
    const post = calls.find((c) => c.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      email: 'new@example.com',
      password: 'secret-123',
      invitationCode: 'abc DEF/123',
    });
  });
});

describe('a 401 mid-session', { timeout: 30_000 }, () => {
  it('sends the open tab to the login page, which says the session has ended', async () => {
    localStorage.setItem('token', 'revoked');
    installFakeFetch((call) =>
      call.url.pathname === '/api/me'
        ? jsonResponse({ id: 2, email: 'eddie@example.com', role: 'editor' })
        : jsonResponse({ error: 'Your session has ended. Sign in again.', code: 'UNAUTHORIZED' }, 401),
    );
    const { router } = renderRoutes(ROUTES, '/FaultCodeList');
    setUnauthorizedHandler(loginHandler(router));
    expect(await screen.findByText('Your session has ended. Sign in again.')).toBeTruthy();
    // (The address to come back to is read from the window's location, which a memory router leaves alone.)
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    setUnauthorizedHandler((loginUrl) => window.location.assign(loginUrl));
  });
});
