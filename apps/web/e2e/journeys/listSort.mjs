import assert from 'node:assert/strict';
import { pathOf, readList, sidebarLink, signIn, waitForPath, waitUntil } from '../lib.mjs';

/** The header of a column and its sort button. */
const header = (page, name) =>
  page.locator('table thead th').filter({ has: page.getByRole('button', { name }) });

/** The header's aria-sort reaches `expected` (the address changes a render before the header does). */
const sortShown = (page, name, expected) =>
  waitUntil(
    () => header(page, name).getAttribute('aria-sort'),
    (shown) => shown === expected,
    `aria-sort="${expected}" on ${name}`,
  );

export const listSort = {
  name: 'Sort by a column: Make ascending, descending, back to newest first; in the address, after a reload and a search',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);
    await sidebarLink(page, 'Cars Scans').click();
    await waitForPath(page, '/ObdScanReport');
    const newest = await readList(page, (shown) => shown.rows.length === 30, 'the newest scans');
    await sortShown(page, 'Make', 'none');

    // Ascending: the first row has the smallest make of all, and the address says so.
    await header(page, 'Make').getByRole('button', { name: 'Make' }).click();
    await waitForPath(page, '/ObdScanReport?sort=make&order=asc');
    const ascending = await readList(
      page,
      (shown) => {
        const makes = shown.column('Make');
        return makes.length === 30 && makes.every((m, i) => i === 0 || makes[i - 1] <= m);
      },
      'makes in ascending order',
    );
    await sortShown(page, 'Make', 'ascending');
    await screenshot(page, 'list-sort-make-ascending');

    // Descending from page 1, even when sorted from another page.
    await page.getByRole('button', { name: 'Next' }).first().click();
    await waitForPath(page, '/ObdScanReport?sort=make&order=asc&page=2');
    await readList(page, (shown) => shown.column('Make').length > 0, 'page 2 of the sorted scans');
    await header(page, 'Make').getByRole('button', { name: 'Make' }).click();
    await waitForPath(page, '/ObdScanReport?sort=make&order=desc');
    const descending = await readList(
      page,
      (shown) => {
        const makes = shown.column('Make');
        return makes.length === 30 && makes.every((m, i) => i === 0 || makes[i - 1] >= m);
      },
      'makes in descending order',
    );
    assert.ok(
      descending.column('Make')[0] > ascending.column('Make')[0],
      `the last make (${descending.column('Make')[0]}) comes after the first (${ascending.column('Make')[0]})`,
    );

    // A reload keeps the sort; a search keeps it too.
    await page.reload();
    await readList(
      page,
      (shown) => shown.column('Make')[0] === descending.column('Make')[0],
      'the same first row',
    );
    await sortShown(page, 'Make', 'descending');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('gmail');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/ObdScanReport?email=gmail&sort=make&order=desc');
    await readList(
      page,
      (shown) => shown.column('Email').every((e) => e.includes('gmail')),
      'gmail scans by make',
    );
    await screenshot(page, 'list-sort-make-descending-filtered');

    // The third click: back to the list's own order (newest first), the sort gone from the address.
    await header(page, 'Make').getByRole('button', { name: 'Make' }).click();
    await waitForPath(page, '/ObdScanReport?email=gmail');
    await sortShown(page, 'Make', 'none');
    assert.ok(pathOf(page).startsWith('/ObdScanReport'));
    assert.ok(newest.rows.length === 30);
  },
};

/** Each value at or after the one before it (code points, as both databases sort), or at or before. */
const ordered = (values, order) =>
  values.every((v, i) => i === 0 || (order === 'asc' ? values[i - 1] <= v : values[i - 1] >= v));

export const listSortCatalogueAndAudit = {
  name: 'Sort a catalogue list (live data by Name) and the audit log (by Target), both ways, in the address',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    await sidebarLink(page, 'Live Commands').click();
    await waitForPath(page, '/LiveDataCommands');
    await readList(page, (shown) => shown.rows.length > 1, 'live data commands');
    await header(page, 'Name').getByRole('button', { name: 'Name' }).click();
    await waitForPath(page, '/LiveDataCommands?sort=name&order=asc');
    const ascending = await readList(
      page,
      (shown) => shown.rows.length > 1 && ordered(shown.column('Name'), 'asc'),
      'names in ascending order',
    );
    await sortShown(page, 'Name', 'ascending');
    await header(page, 'Name').getByRole('button', { name: 'Name' }).click();
    await waitForPath(page, '/LiveDataCommands?sort=name&order=desc');
    const descending = await readList(
      page,
      (shown) =>
        shown.rows.length > 1 &&
        ordered(shown.column('Name'), 'desc') &&
        shown.column('Name')[0] !== ascending.column('Name')[0],
      'names in descending order',
    );
    assert.ok(
      descending.column('Name')[0] > ascending.column('Name')[0],
      `the last name (${descending.column('Name')[0]}) comes after the first (${ascending.column('Name')[0]})`,
    );
    await sortShown(page, 'Name', 'descending');
    await screenshot(page, 'list-sort-live-data-name-descending');

    // The audit log: events without a target ('-') first ascending, then the targets in order.
    await sidebarLink(page, 'Audit log').click();
    await waitForPath(page, '/AuditLog');
    await readList(page, (shown) => shown.rows.length > 1, 'the newest events');
    assert.equal(
      await header(page, 'Operator').count(),
      0,
      'the Operator column does not sort (its e-mail is joined)',
    );
    await header(page, 'Target').getByRole('button', { name: 'Target' }).click();
    await waitForPath(page, '/AuditLog?sort=target&order=asc');
    const targets = (shown) => shown.column('Target').filter((t) => t !== '-');
    await readList(
      page,
      (shown) => {
        const all = shown.column('Target');
        const firstSet = all.findIndex((t) => t !== '-');
        return (
          all.length > 1 && ordered(targets(shown), 'asc') && all.slice(firstSet).every((t) => t !== '-')
        );
      },
      'targets in ascending order',
    );
    await sortShown(page, 'Target', 'ascending');
    await screenshot(page, 'list-sort-audit-target-ascending');
    await header(page, 'Target').getByRole('button', { name: 'Target' }).click();
    await waitForPath(page, '/AuditLog?sort=target&order=desc');
    await readList(
      page,
      (shown) => targets(shown).length > 1 && ordered(targets(shown), 'desc'),
      'targets in descending order',
    );
    await sortShown(page, 'Target', 'descending');
    // The third click: newest first again.
    await header(page, 'Target').getByRole('button', { name: 'Target' }).click();
    await waitForPath(page, '/AuditLog');
    await sortShown(page, 'Target', 'none');
  },
};
