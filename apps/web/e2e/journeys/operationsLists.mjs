import assert from 'node:assert/strict';
import { pathOf, readList, sidebarLink, signIn, waitForPath, waitUntil } from '../lib.mjs';
import { summaryValue } from './operationsScans.mjs';

export const operationsLists = {
  name: 'Users Table by plan, Special Function hard-coded runs and details, Actuations Detail and details',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    // Users: the plans come from the server; only allowed fields are shown.
    await sidebarLink(page, 'Users Table').click();
    await waitForPath(page, '/UsersTable');
    await page.getByRole('heading', { name: 'User List', level: 2 }).waitFor();
    let list = await readList(page);
    assert.equal(list.rows.length, 20);
    for (const header of ['ID', 'Email', 'Plan', 'Status', 'App Version', 'Created At'])
      assert.ok(list.headers.includes(header), `a ${header} column among ${list.headers.join(', ')}`);
    assert.ok(!list.headers.some((header) => /token|password/i.test(header)), 'no secrets');
    await page.getByLabel('Plan').selectOption('fleet');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/UsersTable?plan=fleet');
    list = await readList(
      page,
      (shown) => shown.rows.length > 0 && shown.column('Plan').every((plan) => plan === 'fleet'),
      'only fleet users',
    );
    await screenshot(page, 'users-table-fleet');

    // Special Function: hard-coded runs, then one run's details.
    await sidebarLink(page, 'Special Function').click();
    await waitForPath(page, '/SpecilaFunction');
    await page.getByRole('heading', { name: 'Special Function', level: 2 }).waitFor();
    await readList(page);
    await page.getByLabel('Hard Coded').selectOption('true');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/SpecilaFunction?hard_coded=true');
    list = await readList(
      page,
      (shown) => shown.rows.length > 0 && shown.column('Hard Coded').every((flag) => flag === 'Yes'),
      'only hard-coded runs',
    );
    await screenshot(page, 'special-function-hard-coded');
    await page.locator('table tbody').getByRole('link', { name: 'View Details' }).first().click();
    await waitUntil(
      () => pathOf(page),
      (address) => /^\/SpecialFunctions\/details\?id=\d+$/.test(address),
      'the address of a special-function run',
    );
    await page.getByRole('heading', { name: 'Special Function Details', level: 2 }).waitFor();
    const results = page.getByRole('table', { name: 'Results' });
    await results.waitFor();
    assert.deepEqual(await results.locator('thead th').allTextContents(), ['Data', 'PID', 'Input']);
    assert.equal(await summaryValue(page, 'Hard Coded'), 'Yes');
    await screenshot(page, 'special-function-details');
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await waitForPath(page, '/SpecilaFunction?hard_coded=true');
    assert.equal(await page.getByLabel('Hard Coded').inputValue(), 'true');

    // Actuations Detail: a make, then one run's details.
    await sidebarLink(page, 'Actuations Detail').click();
    await waitForPath(page, '/ActuationsDetail');
    await page.getByRole('heading', { name: 'Actuations Detail', level: 2 }).waitFor();
    list = await readList(page);
    assert.equal(list.rows.length, 30);
    await page.getByRole('combobox', { name: 'Make', exact: true }).fill('ford');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/ActuationsDetail?make=ford');
    list = await readList(
      page,
      (shown) => shown.rows.length > 0 && shown.column('Make').every((make) => make === 'Ford'),
      'only Ford actuations',
    );
    await screenshot(page, 'actuations-detail');
    await page.locator('table tbody').getByRole('link', { name: 'View Details' }).first().click();
    await waitUntil(
      () => pathOf(page),
      (address) => /^\/ActuationsDetail\/details\?id=\d+$/.test(address),
      'the address of an actuation run',
    );
    await page.getByRole('heading', { name: 'Actuation Details', level: 2 }).waitFor();
    const actuationResults = page.getByRole('table', { name: 'Results' });
    await actuationResults.waitFor();
    assert.deepEqual(await actuationResults.locator('thead th').allTextContents(), ['PID', 'Data', 'Input']);
    assert.equal(await summaryValue(page, 'Make'), 'Ford');
    await screenshot(page, 'actuation-details');
    await page.reload();
    await actuationResults.waitFor();
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await waitForPath(page, '/ActuationsDetail?make=ford');

    // Unknown records.
    await page.goto(`${baseUrl}/SpecialFunctions/details?id=987654321`);
    await page.getByText('The special function record was not found.').waitFor();
    await page.goto(`${baseUrl}/ActuationsDetail/details?id=nope`);
    await page.getByText('The actuation record was not found.').waitFor();
  },
};
