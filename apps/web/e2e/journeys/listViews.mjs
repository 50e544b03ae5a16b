import assert from 'node:assert/strict';
import { pathOf, signIn, waitForPath, waitUntil } from '../lib.mjs';

const VIEWER = { email: 'e2e-list-views@example.com', password: 'list-views-password' };

/** The column headers of the list's table, as shown. */
async function headers(page) {
  const table = page.getByRole('table').first();
  await table.waitFor();
  return (await table.locator('thead th').allTextContents()).map((text) => text.replace(/[↑↓↕]/g, '').trim());
}

async function openColumnsMenu(page) {
  const group = page.getByRole('group', { name: 'Columns' });
  if (!(await group.isVisible())) await page.getByRole('button', { name: 'Columns', exact: true }).click();
  await group.waitFor();
  return group;
}

export const listViews = {
  name: 'List views: choose columns (kept on the server, another browser sees them), save and share a view, open it from a link as another operator, keyboard, dates said in words',
  async run({ baseUrl, newPage, screenshot }) {
    const admin = await newPage();
    await signIn(admin, baseUrl);

    // --- Choose columns: hide VIN; a reload and another browser of the same operator still hide it.
    await admin.goto(`${baseUrl}/ObdScanReport`);
    await admin.getByRole('heading', { name: 'Scan Details', level: 2 }).waitFor();
    assert.ok((await headers(admin)).includes('VIN'));
    const menu = await openColumnsMenu(admin);
    await menu.getByRole('checkbox', { name: 'VIN' }).click();
    await waitUntil(
      () => headers(admin),
      (shown) => !shown.includes('VIN'),
      'VIN hidden',
    );
    await screenshot(admin, 'list-views-columns-menu');
    await admin.keyboard.press('Escape');
    // Written behind the screen: wait for the answer before reloading.
    await admin.waitForTimeout(500);
    await admin.reload();
    await admin.getByRole('heading', { name: 'Scan Details', level: 2 }).waitFor();
    await waitUntil(
      () => headers(admin),
      (shown) => shown.length > 0 && !shown.includes('VIN'),
      'VIN still hidden',
    );

    const otherBrowser = await newPage();
    await signIn(otherBrowser, baseUrl);
    await otherBrowser.goto(`${baseUrl}/ObdScanReport`);
    await waitUntil(
      () => headers(otherBrowser),
      (shown) => shown.length > 0 && !shown.includes('VIN'),
      'VIN hidden in another browser',
    );
    await screenshot(otherBrowser, 'list-views-columns-other-browser');

    // --- Save a filtered list as a shared view, and take its link.
    await admin.goto(`${baseUrl}/ObdScanReport?make=Honda`);
    await admin.getByRole('table').first().waitFor();
    await admin.getByRole('button', { name: 'Views', exact: true }).click();
    await admin.getByRole('menuitem', { name: 'Save as new view…' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Save view' });
    await dialog.getByLabel('Name').fill('Honda scans');
    await dialog.getByLabel('Share with everyone').check();
    await screenshot(admin, 'list-views-save-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('button', { name: 'View: Honda scans' }).waitFor();
    await admin.getByRole('button', { name: 'View: Honda scans' }).click();
    await admin.getByRole('menuitem', { name: 'Link to this view…' }).click();
    const link = await admin.getByRole('dialog', { name: 'Link to view' }).getByLabel('Link').inputValue();
    assert.match(link, /\/ObdScanReport\?view=\d+$/);
    await screenshot(admin, 'list-views-link');

    // --- Another operator opens the link: the view's filters and columns.
    const token = await admin.evaluate(() => localStorage.getItem('token'));
    const invitation = await admin.evaluate(async (bearer) => {
      const res = await fetch('/api/invitations', {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'viewer' }),
      });
      return res.json();
    }, token);
    const signedUp = await admin.evaluate(
      async ({ email, password, code }) =>
        (
          await fetch('/api/signup', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password, invitationCode: code }),
          })
        ).status,
      { ...VIEWER, code: invitation.code },
    );
    assert.ok(signedUp < 300, `sign-up answered ${signedUp}`);
    const viewer = await newPage();
    await signIn(viewer, baseUrl, VIEWER);
    await viewer.goto(link);
    await waitForPath(viewer, '/ObdScanReport?make=Honda');
    await viewer.getByRole('button', { name: 'View: Honda scans' }).waitFor();
    await waitUntil(
      () => headers(viewer),
      (shown) => shown.length > 0 && !shown.includes('VIN'),
      'the view’s columns',
    );
    await screenshot(viewer, 'list-views-opened-from-link');

    // --- Keyboard: j j moves the highlight to the second row, Enter opens its details; / goes to the filters.
    await viewer.evaluate(() =>
      document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
    );
    await viewer.keyboard.press('j');
    await viewer.keyboard.press('j');
    await viewer.locator('tr[data-highlighted][data-row-index="1"]').waitFor();
    await screenshot(viewer, 'list-views-keyboard-highlight');
    await viewer.keyboard.press('Enter');
    await waitUntil(
      async () => pathOf(viewer),
      (path) => path.startsWith('/ObdScanReport/details?id='),
      'details',
    );
    await viewer.goBack();
    // The details screen has a table too: wait for the list's own filters, as a person would.
    await viewer.locator('input[name="email"]').waitFor();
    await viewer.evaluate(() =>
      document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
    );
    await viewer.keyboard.press('/');
    assert.equal(await viewer.evaluate(() => document.activeElement?.getAttribute('name')), 'email');

    // --- Dates as people say them: the last 7 days stays "last 7 days" in the address.
    await viewer.getByLabel('Scan period: period').selectOption('@last7d');
    await viewer.getByRole('button', { name: 'Search', exact: true }).click();
    await waitUntil(
      async () => pathOf(viewer),
      (path) => path.includes('scan_start_time=%40last7d'),
      'a period in words',
    );
    // Loaded (the button says Search again): the demo's scans are older, so likely none in the last 7 days.
    await viewer.getByRole('button', { name: 'Search', exact: true }).waitFor();
    assert.equal(await viewer.getByLabel('Started on or after').isDisabled(), true);
    await screenshot(viewer, 'list-views-last-7-days');

    // --- A long list in a cell: an unfiltered custom-command group's makes fold after five.
    await viewer.goto(`${baseUrl}/Customcommands1`);
    await viewer.getByRole('table').first().waitFor();
    const more = viewer.getByRole('button', { name: /^and \d+ more$/ }).first();
    await more.waitFor();
    await more.click();
    await viewer.getByRole('button', { name: 'show fewer' }).first().waitFor();
    await screenshot(viewer, 'list-views-long-cell-list');

    // --- Reset to default: VIN is back for the admin, here and for every journey after this one.
    await admin.goto(`${baseUrl}/ObdScanReport`);
    await admin.getByRole('heading', { name: 'Scan Details', level: 2 }).waitFor();
    const adminMenu = await openColumnsMenu(admin);
    await adminMenu.getByRole('button', { name: 'Reset to default' }).click();
    await waitUntil(
      () => headers(admin),
      (shown) => shown.includes('VIN'),
      'VIN shown again',
    );
    // Written behind the screen: a reload shows what the server kept.
    await admin.waitForTimeout(500);
    await admin.reload();
    await admin.getByRole('heading', { name: 'Scan Details', level: 2 }).waitFor();
    await waitUntil(
      () => headers(admin),
      (shown) => shown.length > 0 && shown.includes('VIN'),
      'VIN still shown after a reload',
    );
  },
};
