import assert from 'node:assert/strict';
import { ADMIN, submitLogin, waitForPath, waitForText } from '../lib.mjs';

export const signupLogoutLogin = {
  name: 'first sign-up becomes admin, logout, login',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();

    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    assert.equal(await page.getByLabel('Email', { exact: true }).getAttribute('type'), 'email');
    assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('type'), 'password');
    await screenshot(page, 'login');

    await page.getByRole('link', { name: "Don't have an account? Signup" }).click();
    await waitForPath(page, '/signup');
    await page.getByRole('heading', { name: 'Signup' }).waitFor();
    // The first operator needs no invitation, so the field is not offered.
    assert.equal(await page.getByLabel('Invitation code').count(), 0);
    await screenshot(page, 'signup');

    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Signup', exact: true }).click();
    await waitForPath(page, '/UsersTable');
    await waitForText(page, ADMIN.email);
    await page.getByRole('heading', { name: 'User List', level: 2 }).waitFor();
    assert.ok(await page.evaluate(() => localStorage.getItem('token')), 'the token is kept in localStorage');
    await screenshot(page, 'users-table');

    await page.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(page, '/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);

    // A guarded page now sends the visitor to the login page.
    await page.goto(`${baseUrl}/FaultCodeList`);
    await waitForPath(page, '/login?next=/FaultCodeList');

    await submitLogin(page, ADMIN);
    await waitForPath(page, '/FaultCodeList');
    await waitForText(page, ADMIN.email);
  },
};
