import assert from 'node:assert/strict';
import { pathOf, readList, sidebarLink, signIn, waitForPath, waitUntil } from '../lib.mjs';

/** A column's cells, by its header (a sortable header carries an arrow after its name). */
const column = (shown, name) => {
  const index = shown.headers.findIndex((header) => header.replace(/[↕↑↓]/g, '').trim() === name);
  assert.ok(index >= 0, `a ${name} column in ${shown.headers.join(', ')}`);
  return shown.rows.map((row) => row[index]);
};

/** The Overview's card (a labelled section) named `name`. */
const card = (page, name) => page.getByRole('region', { name, exact: true });

export const overviewSearch = {
  name: "Overview and search: demo data in charts, a make bar opens its scans of the period, a day's segment its scans, Ctrl+K finds a VIN",
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    await sidebarLink(page, 'Overview').click();
    await waitForPath(page, '/Overview');
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    // The demo scans end before today: the default 30 days are empty and the screen says where they are.
    await page.getByText('No scans in this period', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show the 30 days up to it' }).click();
    await waitUntil(
      () => pathOf(page),
      (path) => /^\/Overview\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/.test(path),
      'a custom period in the address',
    );
    const address = new URL(page.url()).searchParams;
    const from = address.get('from');
    const to = address.get('to');

    // Real figures and a drawn chart (bars in the make chart).
    const makes = card(page, 'Scans by make');
    await makes.locator('.recharts-bar-rectangle path').first().waitFor();
    const scans = await card(page, 'Scans').locator('a').first().textContent();
    assert.ok(Number(scans.replace(/,/g, '')) > 0, `scans in the period (got ${scans})`);
    await page.waitForTimeout(600); // recharts' entry animation
    await screenshot(page, 'overview');

    // The table view names the bars; the first bar is the make with most scans.
    await makes.getByText('Table', { exact: true }).click();
    const firstMake = (await makes.locator('tbody tr').first().locator('td').first().textContent()).trim();
    await makes.getByText('Chart', { exact: true }).click();
    await makes.locator('.recharts-bar-rectangle path').first().click();
    const expected = `/ObdScanReport?${new URLSearchParams({ make: firstMake, scan_start_time: from, scan_end_time: to })}`;
    await waitForPath(page, expected);
    const list = await readList(
      page,
      (shown) =>
        shown.rows.length > 0 &&
        column(shown, 'Make').every((make) => make.toLowerCase().includes(firstMake.toLowerCase())) &&
        column(shown, 'Start Time').every((start) => start.slice(0, 10) >= from),
      `${firstMake} scans of the period`,
    );
    await screenshot(page, 'overview-make-scans');
    const vin = column(list, 'VIN').find((value) => /^[A-HJ-NPR-Z0-9]{17}$/.test(value));
    assert.ok(vin, 'a scan with a VIN in the list');

    // Every mark is a door: the car segment of a day's bar opens that day's car scans.
    await page.goto(`${baseUrl}/Overview?from=${from}&to=${to}`);
    const perDay = card(page, 'Scans per day');
    const carBars = perDay.locator('.recharts-bar').first().locator('.recharts-bar-rectangle path');
    await carBars.last().waitFor();
    await page.waitForTimeout(600); // recharts' entry animation
    await carBars.last().click();
    await waitUntil(
      () => pathOf(page),
      (path) =>
        /^\/ObdScanReport\?scan_start_time=(\d{4}-\d{2}-\d{2})&scan_end_time=\1&segment=car$/.test(path),
      "a day's car scans",
    );
    const day = new URL(page.url()).searchParams.get('scan_start_time');
    await readList(
      page,
      (shown) =>
        shown.rows.length > 0 && column(shown, 'Start Time').every((start) => start.slice(0, 10) === day),
      `car scans of ${day}`,
    );
    await screenshot(page, 'overview-day-segment-scans');

    // Ctrl+K, a VIN: its scan, opened.
    await page.keyboard.press('Control+K');
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.waitFor();
    await search.fill(vin);
    const hit = page.locator('.mantine-Spotlight-action', { hasText: vin }).first();
    await hit.waitFor();
    await screenshot(page, 'search-vin');
    await hit.click();
    await waitUntil(
      () => pathOf(page),
      (path) => /^\/ObdScanReport\/details\?id=\d+$/.test(path),
      'the scan details of the VIN',
    );
    await page.getByText(vin, { exact: true }).first().waitFor();
    await screenshot(page, 'search-vin-scan');

    // The header's field opens the palette too; a screen name jumps to it.
    await page.getByRole('button', { name: 'Search (Ctrl+K)' }).click();
    await search.fill('audit');
    await page.locator('.mantine-Spotlight-action', { hasText: 'Audit log' }).first().click();
    await waitForPath(page, '/AuditLog');

    // In the dark scheme (the system's, when the operator has not chosen) the charts take the theme's colours.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${baseUrl}/Overview?from=${from}&to=${to}`);
    await card(page, 'Scans by make').locator('.recharts-bar-rectangle path').first().waitFor();
    await page.waitForTimeout(600);
    await screenshot(page, 'overview-dark');
  },
};
