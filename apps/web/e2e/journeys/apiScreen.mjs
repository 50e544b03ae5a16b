import assert from 'node:assert/strict';
import { sidebarLink, signIn, waitForPath } from '../lib.mjs';

/** The API screen renders the server's OpenAPI document: areas, a search, an operation's parameters. */
export const apiScreen = {
  name: 'API screen: the OpenAPI document by area, searched, an operation opened',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);
    await sidebarLink(page, 'API').click();
    await waitForPath(page, '/API');
    await page.getByRole('heading', { name: 'Operations', exact: true }).waitFor();
    for (const area of ['Catalogue', 'Fault codes', 'Uploads', 'Exports', 'Sign-in and operators']) {
      assert.equal(await page.getByRole('heading', { name: area, exact: true }).count(), 1, area);
    }
    await screenshot(page, 'api-screen');

    await page.getByLabel('Find an endpoint').fill('ScanDetail');
    assert.equal(await page.getByRole('heading', { name: 'Catalogue', exact: true }).count(), 0);
    await page.getByText('/api/ScanDetail', { exact: true }).click();
    const parameters = page.getByRole('table', { name: 'Parameters' });
    await parameters.waitFor();
    for (const name of ['page', 'limit', 'email', 'make', 'scan_start_time']) {
      assert.equal(await parameters.getByRole('cell', { name, exact: true }).count(), 1, name);
    }
    await page.getByRole('table', { name: 'Answer 200' }).waitFor();
    await screenshot(page, 'api-screen-operation');
  },
};
