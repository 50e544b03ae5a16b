import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pagerButton, pathOf, readList, sidebarLink, signIn, waitForPath, waitUntil } from '../lib.mjs';

const MAKE = 'honda';
const FROM = '2025-03-01';
const TO = '2025-06-30';
const SEARCHED = `/ObdScanReport?make=${MAKE}&scan_start_time=${FROM}&scan_end_time=${TO}`;

export const operationsScans = {
  name: 'Cars Scans: make and date range, page 2, export, PDF report, details, reload, Back, fault-code link',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    await sidebarLink(page, 'Cars Scans').click();
    await waitForPath(page, '/ObdScanReport');
    await page.getByRole('heading', { name: 'Scan Details', level: 2 }).waitFor();
    let list = await readList(page);
    assert.equal(list.rows.length, 30);
    assert.deepEqual(list.headers, [
      'Email',
      'Start Time',
      'End Time',
      'Model',
      'License Plate',
      'VIN',
      'Scan Ended',
      'Make',
      'Country',
      'Function',
      'Type',
      'App Version',
      'PDF Report',
      'View Details',
    ]);
    await screenshot(page, 'cars-scans');

    // A make and a period.
    await page.getByRole('combobox', { name: 'Make', exact: true }).fill(MAKE);
    await page.getByLabel('Started on or after').fill(FROM);
    await page.getByLabel('Ended on or before').fill(TO);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, SEARCHED);
    const inPeriod = (shown) =>
      shown.rows.length > 0 &&
      // Contains, case-insensitive (decisions §2): Honda and Honda Bikes.
      shown.column('Make').every((make) => make.toLowerCase().includes(MAKE)) &&
      shown.column('Start Time').every((start) => start.slice(0, 10) >= FROM) &&
      shown.column('End Time').every((end) => end === '-' || end.slice(0, 10) <= TO);
    list = await readList(page, inPeriod, 'Honda scans of the period');
    assert.ok(list.pages >= 2, `the period spans several pages (got ${list.total} scans)`);
    const total = list.total;

    await pagerButton(page, 'Next').click();
    await waitForPath(page, `${SEARCHED}&page=2`);
    list = await readList(page, inPeriod, 'page 2 of the Honda scans');
    assert.equal(list.page, 2);
    await screenshot(page, 'cars-scans-honda-page-2');

    // The export: every scan of the search, as a workbook.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('button', { name: 'Download Excel' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^Scan_Details_honda_All_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'obd-e2e-export-')), 'scans.xlsx');
    await download.saveAs(file);
    const workbook = fs.readFileSync(file);
    assert.equal(workbook.subarray(0, 2).toString('latin1'), 'PK', 'the export is a zip (xlsx)');
    const entries = readZip(workbook);
    assert.match(entries.get('xl/workbook.xml') ?? '', /name="Scan Details"/);
    const sheet = entries.get('xl/worksheets/sheet1.xml') ?? '';
    assert.equal((sheet.match(/<row[ >]/g) ?? []).length, total + 1, 'a header row and every matching scan');
    fs.rmSync(path.dirname(file), { recursive: true, force: true });

    // The server-rendered PDF of a scan without an external report, in a new tab.
    const reportButton = page.locator('table tbody').getByRole('button', { name: 'View PDF' }).first();
    const pdf = waitForPdf(page);
    await reportButton.click();
    const report = await pdf;
    assert.equal(report.status, 200);
    assert.equal(report.contentType, 'application/pdf');
    // The bytes themselves are checked by the server suite (operations.test.ts): the tab's PDF
    // viewer takes the body over, so the browser does not hand it to the test.
    assert.match(report.disposition ?? '', /^inline; filename="Scan_Report_\d+_/);

    // A scan's details: pick one whose function reads fault codes.
    list = await readList(page);
    const readsCodes = list
      .column('Function')
      .findIndex((fn) => /Full Scan|Quick Scan|Single System/.test(fn));
    assert.ok(readsCodes >= 0, 'page 2 has a scan that read fault codes');
    await page.locator('table tbody tr').nth(readsCodes).getByRole('link', { name: 'View Details' }).click();
    await waitUntil(
      () => pathOf(page),
      (address) => /^\/ObdScanReport\/details\?id=\d+$/.test(address),
      'the address of a scan',
    );
    const detailPath = pathOf(page);
    await page.getByRole('heading', { name: 'Scan Details', level: 2 }).waitFor();
    await page.getByRole('table', { name: 'Raw Scan Results' }).waitFor();
    await page.getByRole('table', { name: 'Decoded Fault Codes' }).waitFor();
    assert.equal(await sidebarLink(page, 'Cars Scans').getAttribute('aria-current'), 'page');
    const email = await summaryValue(page, 'Email');
    assert.match(email, /@/);
    assert.match(await summaryValue(page, 'Duration'), /\d+ (s|min|h)/);
    await screenshot(page, 'scan-details');

    // Opened again from its address: the same scan.
    await page.reload();
    await page.getByRole('table', { name: 'Raw Scan Results' }).waitFor();
    assert.equal(pathOf(page), detailPath);
    assert.equal(await summaryValue(page, 'Email'), email);

    // Back: the list with its filters and page.
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await waitForPath(page, `${SEARCHED}&page=2`);
    list = await readList(page, inPeriod, 'page 2 of the Honda scans again');
    assert.equal(list.page, 2);
    assert.equal(await page.getByRole('combobox', { name: 'Make', exact: true }).inputValue(), MAKE);
    assert.equal(await page.getByLabel('Started on or after').inputValue(), FROM);
    assert.equal(await page.getByLabel('Ended on or before').inputValue(), TO);

    // A decoded fault code leads to the Fault Code List, searched for it.
    await page.goto(baseUrl + detailPath);
    const decoded = page.getByRole('table', { name: 'Decoded Fault Codes' });
    const codeLink = decoded.getByRole('link').first();
    await codeLink.waitFor();
    const code = (await codeLink.textContent())?.trim() ?? '';
    assert.match(code, /^[PCBU][0-9A-F]{4}$/);
    await codeLink.click();
    await waitForPath(page, `/FaultCodeList?dtc=${code}`);
    await page.getByRole('heading', { name: 'Fault Code List', level: 2 }).waitFor();
    list = await readList(
      page,
      (shown) => shown.rows.length > 0 && shown.column('DTC').every((dtc) => dtc.includes(code)),
      `fault codes containing ${code}`,
    );
    assert.equal(await page.getByLabel('DTC Code').inputValue(), code);
    await screenshot(page, 'fault-code-list-from-scan');

    // An unknown scan.
    await page.goto(`${baseUrl}/ObdScanReport/details?id=987654321`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /The scan record was not found\./);
    await screenshot(page, 'scan-details-not-found');
  },
};

/** The value shown under a label of a detail screen's summary. */
export async function summaryValue(page, label) {
  const value = page.getByText(label, { exact: true }).first().locator('xpath=following-sibling::*[1]');
  return ((await value.textContent()) ?? '').trim();
}

/**
 * Resolves with the status, type and disposition of the single-use report link's answer as the
 * new tab received it. Call before the click that opens the tab.
 */
async function waitForPdf(page) {
  const response = await page.context().waitForEvent('response', {
    predicate: (r) => new URL(r.url()).pathname.startsWith('/api/downloads/'),
    timeout: 60_000,
  });
  return {
    status: response.status(),
    contentType: (response.headers()['content-type'] ?? '').split(';')[0],
    disposition: response.headers()['content-disposition'],
  };
}

/** The text entries of a zip (enough of the format for the exports: stored or deflated entries). */
function readZip(buffer) {
  const entries = new Map();
  let end = buffer.length - 22;
  while (end >= 0 && buffer.readUInt32LE(end) !== 0x06054b50) end -= 1;
  assert.ok(end >= 0, 'the zip has a central directory');
  const count = buffer.readUInt16LE(end + 10);
  let offset = buffer.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    assert.equal(buffer.readUInt32LE(offset), 0x02014b50);
    const method = buffer.readUInt16LE(offset + 10);
    const compressedSize = buffer.readUInt32LE(offset + 20);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    const local = buffer.readUInt32LE(offset + 42);
    const name = buffer.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
