import assert from 'node:assert/strict';
import { ADMIN, readList, submitLogin, waitForPath, waitForText } from '../lib.mjs';

/**
 * The app opened from another machine: by host name over plain HTTP (Chromium resolves
 * obd-admin.test to 127.0.0.1, so the browser sees a non-loopback origin). The CSP must not ask
 * the browser to upgrade the app's own scripts to https (a blank page), nor the server send HSTS.
 */
export const servedByHostName = {
  name: 'opened by host name over plain HTTP, the app loads and signs in',
  async run({ hostUrl, newPage, screenshot }) {
    assert.match(hostUrl, /^http:\/\/obd-admin\.test:\d+$/);
    const page = await newPage();
    const failures = [];
    page.on('requestfailed', (request) => failures.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });

    const response = await page.goto(`${hostUrl}/`);
    const headers = response?.headers() ?? {};
    assert.equal(headers['strict-transport-security'], undefined, 'no HSTS over plain HTTP');
    assert.doesNotMatch(headers['content-security-policy'] ?? '', /upgrade-insecure-requests/);
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    assert.equal(new URL(page.url()).protocol, 'http:');

    // Run alone (E2E_ONLY), the database has no operator yet: the first sign-up makes the admin.
    const status = await page.evaluate(async () => (await fetch('/api/signup')).json());
    if (!status.invitationRequired) {
      await page.goto(`${hostUrl}/signup`);
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Signup', exact: true }).click();
    } else {
      await submitLogin(page, ADMIN);
    }
    await waitForPath(page, '/UsersTable');
    await waitForText(page, ADMIN.email);
    const list = await readList(page);
    assert.ok(list.rows.length > 0, 'the signed-in list shows rows');
    assert.deepEqual(failures, [], 'no request failed and nothing was logged as an error');
    await screenshot(page, 'served-by-host-name');
  },
};
