import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pagerButton, readList, sidebarLink, signIn, waitForPath, waitForText, waitUntil } from '../lib.mjs';

/** Clicks `button`, waits for the browser's own download, saves it and returns its name and bytes. */
async function download(page, button) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'obd-dl-')), file.suggestedFilename());
  await file.saveAs(target);
  const bytes = fs.readFileSync(target);
  fs.rmSync(path.dirname(target), { recursive: true, force: true });
  return { name: file.suggestedFilename(), bytes };
}

/** A CSV export: UTF-8 with a BOM, the expected header row; returns the data lines. */
function checkCsv({ name, bytes }, namePattern, header) {
  assert.match(name, namePattern);
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], `${name} starts with a UTF-8 BOM`);
  const lines = bytes.subarray(3).toString('utf8').split(/\r?\n/).filter(Boolean);
  assert.equal(lines[0], header, `${name} header row`);
  return lines.slice(1);
}

/**
 * The table of a screen without the 'Page X of Y' footer (its own summary line instead): waits until
 * nothing loads and `until` accepts what the table shows.
 */
async function readTable(page, until = (shown) => shown.rows.length > 0, what = 'the rows') {
  const shown = await waitUntil(
    () =>
      page.evaluate(() => ({
        loading: document.body.textContent.includes('Loading...'),
        headers: [...document.querySelectorAll('table thead th')].map((th) => th.textContent.trim()),
        rows: [...document.querySelectorAll('table tbody tr')].map((tr) =>
          [...tr.cells].map((cell) => cell.textContent.trim()),
        ),
      })),
    (snapshot) => !snapshot.loading && until(withColumn(snapshot)),
    what,
  );
  return withColumn(shown);
}

function withColumn(shown) {
  return { ...shown, column: (header) => shown.rows.map((row) => row[shown.headers.indexOf(header)]) };
}

/** Opens a screen from the sidebar and waits for its own heading (not the previous screen's rows). */
async function openScreen(page, label, path, title = label) {
  // A suggestion dropdown still open would take the click: close it first.
  await page.keyboard.press('Escape');
  await sidebarLink(page, label).click();
  await waitForPath(page, path);
  await page.getByRole('heading', { name: title, level: 2, exact: true }).waitFor();
}

const today = () => new Date().toISOString().slice(0, 10);

/** The text of every element matching `selector`. */
const texts = (page, selector) => page.locator(selector).allInnerTexts();

/** Waits for a line of text matching `pattern` and returns it. */
async function lineMatching(page, pattern) {
  const locator = page.getByText(pattern).first();
  await locator.waitFor();
  return (await locator.innerText()).trim();
}

export const catalogueCoverageAndCommands = {
  name: 'Catalogue: Coverage Data (search, pages, Excel download) and Mechanic Commands',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    // Coverage Data: every make, 30 a page.
    await openScreen(page, 'Coverage Data', '/Api1');
    const allLine = await lineMatching(page, /^Showing 30 out of \d+ results$/);
    const allTotal = Number(/out of (\d+)/.exec(allLine)[1]);
    let list = await readTable(page);
    assert.deepEqual(list.headers, ['Function Name', 'Function Type']);
    assert.equal(list.rows.length, 30);
    await waitForText(page, `Showing page 1 of ${Math.ceil(allTotal / 30)} (${allTotal} total items)`);
    await screenshot(page, 'catalogue-coverage-all');

    // The make input suggests makes from the make list.
    const make = page.getByRole('combobox', { name: 'Car Make' });
    assert.equal(await make.getAttribute('placeholder'), 'Enter car make (e.g. Hyundai)');
    await make.fill('Hyun');
    await page.getByRole('option', { name: 'Hyundai', exact: true }).click();
    assert.equal(await make.inputValue(), 'Hyundai');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/Api1?make=Hyundai');
    const line = await waitUntil(
      async () => (await texts(page, 'p')).find((text) => /^Showing \d+ out of \d+ results$/.test(text)),
      (text) => text !== undefined && text !== allLine,
      'the Hyundai result line',
    );
    const total = Number(/out of (\d+)/.exec(line)[1]);
    assert.ok(total > 0 && total < allTotal, `Hyundai has some of the coverage (${total} of ${allTotal})`);
    if (total > 30) {
      await pagerButton(page, 'Next').click();
      await waitForPath(page, '/Api1?make=Hyundai&page=2');
      await waitForText(page, `Showing page 2 of ${Math.ceil(total / 30)} (${total} total items)`);
      list = await readTable(page);
      assert.ok(list.rows.length > 0);
    } else {
      assert.equal(
        await page.getByRole('navigation', { name: 'Pagination' }).count(),
        0,
        'no pager for one page',
      );
    }
    await screenshot(page, 'catalogue-coverage-hyundai');

    // A real download: the browser fetches the single-use link; the file is an XLSX (a zip).
    const xlsx = await download(page, page.getByRole('button', { name: 'Download Excel' }));
    assert.equal(xlsx.name, `Coverage_Data_Hyundai_${today()}.xlsx`);
    assert.equal(xlsx.bytes.subarray(0, 2).toString('latin1'), 'PK', 'the workbook is a zip');
    assert.ok(xlsx.bytes.length > 1000);

    // Mechanic Commands: fetched once on opening with the defaults.
    await openScreen(page, 'Mechanic Commands', '/Api2', 'Automotive Diagnostic Commands');
    const found = await lineMatching(page, /^\d+ commands found for Honda$/);
    const count = Number(found.split(' ')[0]);
    assert.ok(count > 0, 'Honda has scan commands for Engine and ABS');
    list = await readTable(page);
    assert.deepEqual(list.headers, ['Command', 'Module', 'Type']);
    for (const [command, , type] of list.rows) {
      assert.equal(
        type,
        command.toUpperCase().startsWith('AT') ? 'Setup' : 'Diagnostic',
        `Type of ${command}`,
      );
    }
    assert.equal(await page.getByRole('checkbox', { name: 'Full Scan' }).isChecked(), true);
    assert.equal(await page.getByLabel('Select Modules').inputValue(), 'Engine, ABS');
    assert.equal(await page.getByLabel('Function Type').inputValue(), 'scan');
    await screenshot(page, 'catalogue-mechanic-commands');

    // Ten a page: First / Previous / pages / Next / Last, all in the address.
    await page.getByLabel('Items per page').selectOption('10');
    await waitForPath(page, '/Api2?perPage=10');
    if (count > 10) {
      await pagerButton(page, 'Last').click();
      const pages = Math.ceil(count / 10);
      await waitForPath(page, `/Api2?page=${pages}&perPage=10`);
      list = await readTable(
        page,
        (shown) => shown.rows.length === count - (pages - 1) * 10,
        'the last page',
      );
      await pagerButton(page, 'First').click();
      await waitForPath(page, '/Api2?perPage=10');
      list = await readTable(page, (shown) => shown.rows.length === 10, 'ten rows');
    }

    // The browser-side search narrows the fetched rows.
    await page.getByLabel('Search Commands').fill('abs');
    await waitForPath(page, '/Api2?q=abs&perPage=10');
    list = await readTable(
      page,
      (shown) => shown.column('Module').every((m) => m === 'ABS'),
      'only ABS rows',
    );
    await page.getByLabel('Search Commands').fill('no-such-command');
    await waitForText(page, 'No Commands Found');
    await page.getByLabel('Search Commands').fill('');

    // No module: nothing to fetch, the button is disabled.
    await page.getByLabel('Select Modules').fill(' , ');
    assert.equal(await page.getByRole('button', { name: 'Fetch Commands' }).isDisabled(), true);
    await page.getByLabel('Select Modules').fill('Engine');
    await page.getByRole('checkbox', { name: 'Full Scan' }).uncheck();
    await page.getByRole('button', { name: 'Fetch Commands' }).click();
    await waitForPath(page, '/Api2?full_scan=false&module=Engine&perPage=10');
    list = await readTable(
      page,
      (shown) => shown.column('Module').every((m) => m === 'Engine'),
      'Engine rows',
    );
    await page.reload();
    assert.equal(await page.getByRole('checkbox', { name: 'Full Scan' }).isChecked(), false);
    assert.equal(await page.getByLabel('Select Modules').inputValue(), 'Engine');
    await readTable(page, (shown) => shown.rows.length > 0, 'the rows after a reload');
  },
};

export const catalogueMakesAndModels = {
  name: 'Catalogue: Bike Make List and Model List Page (type-ahead fetch, CSV downloads)',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    await openScreen(page, 'Bike Make List', '/BikeMakeList');
    const makes = page.getByRole('list', { name: 'Makes' }).getByRole('listitem');
    await makes.first().waitFor();
    const bikes = await makes.allInnerTexts();
    assert.ok(bikes.includes('Ducati Bikes'), `bike makes listed (${bikes.join(', ')})`);
    assert.ok(!bikes.includes('Honda'), 'no car makes among the bikes');
    await screenshot(page, 'catalogue-bike-makes');
    const makesCsv = await download(page, page.getByRole('button', { name: 'Download Excel' }));
    const makeLines = checkCsv(
      makesCsv,
      new RegExp(`^Bike_Makes_bike_${today()}\\.csv$`),
      'S.No,Segment,Make Name',
    );
    assert.equal(makeLines.length, bikes.length);

    // Typing fetches by itself: no Search button.
    assert.equal(await page.getByRole('button', { name: 'Search', exact: true }).count(), 0);
    await page.getByRole('combobox', { name: 'Segment' }).fill('car');
    await waitForPath(page, '/BikeMakeList?segement=car');
    await waitUntil(
      () => makes.allInnerTexts(),
      (names) => names.includes('Honda'),
      'the car makes',
    );
    await page.getByRole('combobox', { name: 'Segment' }).fill('');
    await waitForPath(page, '/BikeMakeList?segement=');
    await page.getByRole('combobox', { name: 'Segment' }).fill('rocket');
    await waitForPath(page, '/BikeMakeList?segement=rocket');
    await waitForText(page, 'Failed to fetch bike makes. Please try again.');

    await openScreen(page, 'Model List Page', '/ModelListPage');
    const models = page.getByRole('list', { name: 'Models' }).getByRole('listitem');
    await models.first().waitFor();
    const mahindra = await models.count();
    await waitForText(page, `Total Models: ${mahindra} (Mahindra)`);
    await screenshot(page, 'catalogue-model-list');
    const modelsCsv = await download(page, page.getByRole('button', { name: 'Download CSV' }));
    const modelLines = checkCsv(
      modelsCsv,
      new RegExp(`^Model_List_Mahindra_${today()}\\.csv$`),
      'S.No,Make,Model Name',
    );
    assert.equal(modelLines.length, mahindra);
    assert.match(modelLines[0], /^1,Mahindra,/);

    await page.getByRole('combobox', { name: 'Make' }).fill('Honda');
    await waitForPath(page, '/ModelListPage?make=Honda');
    await page.getByText(/^Total Models: \d+ \(Honda\)$/).waitFor();
    await page.getByRole('combobox', { name: 'Make' }).fill('No Such Make');
    await waitForText(page, 'No models found for the entered make.');
    // Typing replaced the history entry: a reload shows the same search, Back leaves the screen.
    await page.reload();
    await waitForText(page, 'No models found for the entered make.');
    assert.equal(await page.getByRole('combobox', { name: 'Make' }).inputValue(), 'No Such Make');
    await page.goBack();
    await waitForPath(page, '/BikeMakeList?segement=rocket');
  },
};

export const catalogueCommandLists = {
  name: 'Catalogue: custom, actuation, SPF, odometer and live-data commands',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);
    const search = () => page.getByRole('button', { name: 'Search', exact: true }).click();

    // Custom commands: one row per function with its variants' command lists.
    await openScreen(page, 'Custom commands', '/Customcommands1');
    let list = await readList(page, (shown) => shown.rows.length > 0, 'custom commands');
    assert.deepEqual(list.headers, ['Function Name', 'Make', 'Model', 'Variants', 'Commands']);
    await screenshot(page, 'catalogue-custom-commands');
    await page.getByRole('combobox', { name: 'Make' }).fill('No Such Make');
    await search();
    await waitForPath(page, '/Customcommands1?make=No+Such+Make');
    await waitForText(page, 'No custom commands found for the given car details.');

    // Actuation commands: a card per actuation type, CSV with one row per detail.
    await openScreen(page, 'Actuation commands', '/ActuationFetcher');
    const cards = page.locator('section');
    await cards.first().waitFor();
    assert.ok((await cards.count()) > 0);
    await page.getByRole('table').first().waitFor();
    const actuationCsv = await download(page, page.getByRole('button', { name: 'Download CSV' }));
    const actuationLines = checkCsv(
      actuationCsv,
      new RegExp(`^Actuation_Commands_${today()}\\.csv$`),
      'Actuation Type,Message,PID,Actuation Subtype,Last Subtype,Seed Key Variant,Detail Message,Message Item,Success Check',
    );
    assert.ok(actuationLines.length >= (await cards.count()));
    // 200 cards make a very tall page: the screenshot shows one make's cards.
    await page.getByRole('combobox', { name: 'Make' }).fill('Honda');
    await search();
    await waitForPath(page, '/ActuationFetcher?make=Honda');
    await page.getByText(/^Total Items: \d+$/).waitFor();
    await screenshot(page, 'catalogue-actuation-commands');
    await page.getByRole('combobox', { name: 'Make' }).fill('No Such Make');
    await search();
    await waitForText(page, 'No actuation data found for the specified criteria.');
    await page.getByLabel('Year').fill('20x0');
    await search();
    await waitForText(page, 'Failed to fetch actuation commands.');

    // SPF commands: a card per function with Hard Coded True/False.
    await openScreen(page, 'SPF Commands', '/CommandFetcher');
    await page
      .getByText(/^Hard Coded: (True|False)$/)
      .first()
      .waitFor();
    const spf = await readList(page);
    assert.ok(spf.total > 0);
    assert.deepEqual(spf.headers.slice(0, 3), ['PID', 'Message', 'Command Type']);
    // 200 cards make a very tall page: the screenshot shows one make's cards.
    await page.getByRole('combobox', { name: 'Make' }).fill('Honda');
    await search();
    await waitForPath(page, '/CommandFetcher?make=Honda');
    await readList(page, (shown) => shown.rows.length > 0, 'the Honda SPF commands');
    await screenshot(page, 'catalogue-spf-commands');

    // Odometer: the 12 columns, CSV under the searched filters.
    await openScreen(page, 'Odometer commands', '/OdometerDetails');
    list = await readList(page, (shown) => shown.rows.length > 0, 'odometer rows');
    const odometerHeaders = [
      'Header',
      'Sub Header',
      'PID',
      'Protocol',
      'System',
      'Init',
      'Formula Based',
      'Generic',
      'Formula (Metric)',
      'Formula (Imperial)',
      'Unit (Metric)',
      'Unit (Imperial)',
    ];
    assert.deepEqual(list.headers, odometerHeaders);
    await screenshot(page, 'catalogue-odometer');
    const odometerCsv = await download(page, page.getByRole('button', { name: 'Download CSV' }));
    const odometerLines = checkCsv(
      odometerCsv,
      new RegExp(`^Odometer_Details_${today()}\\.csv$`),
      odometerHeaders.join(','),
    );
    assert.equal(odometerLines.length, list.total);

    // Live Commands: the 13 columns, and the reference data per row.
    await openScreen(page, 'Live Commands', '/LiveDataCommands');
    list = await readList(page, (shown) => shown.rows.length > 0, 'live-data rows');
    assert.equal(list.headers.length, 14);
    assert.deepEqual(list.headers.slice(0, 4), ['ID', 'Name', 'Model', 'Make']);
    assert.equal(list.headers[13], 'Reference');
    await screenshot(page, 'catalogue-live-commands');
    await page
      .getByRole('button', { name: /^View reference data of / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Reference data: /);
    await screenshot(page, 'catalogue-live-commands-reference');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    if (list.pages > 1) {
      await pagerButton(page, 'Next').click();
      await waitForPath(page, '/LiveDataCommands?page=2');
      assert.equal((await readList(page)).page, 2);
    }
    await page.getByLabel('Module').fill('Engine');
    await search();
    await waitForPath(page, '/LiveDataCommands?module=Engine');
    await readList(page, (shown) => shown.rows.length > 0, 'Engine live data');
    await page.getByLabel('Module').fill('No Such Module');
    await search();
    await waitForText(page, 'No live data found for the specified criteria.');
  },
};
