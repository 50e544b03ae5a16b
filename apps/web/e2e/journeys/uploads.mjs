import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { sidebarLink, signIn, waitForPath, waitForText, waitUntil } from '../lib.mjs';
import { importAfterPreview } from './importPreview.mjs';

// Fixture files written here, with other libraries than the server reads them with (ExcelJS, text).
const fixtureDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'obd-upload-'));

async function writeWorkbook(file, sheets) {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  await workbook.xlsx.writeFile(file);
  return file;
}

/** Opens an upload page from the sidebar and waits for its heading. */
async function openUploadPage(page, label, route, title) {
  await sidebarLink(page, label).click();
  await waitForPath(page, route);
  await page.getByRole('heading', { name: title, level: 2, exact: true }).waitFor();
}

/**
 * Records every text the progress panel shows while an upload runs (it can be brief), so the
 * journey can check that real progress was on screen.
 */
async function watchProgress(page) {
  await page.evaluate(() => {
    window.__progressSeen = [];
    const seen = window.__progressSeen;
    const record = () => {
      const panel = document.querySelector('[data-testid="upload-progress"]');
      if (!panel) return;
      const text = panel.textContent ?? '';
      if (seen[seen.length - 1] !== text) seen.push(text);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}
const progressSeen = (page) => page.evaluate(() => window.__progressSeen ?? []);

/** Chooses `file` through the page's hidden file input (the picker). */
const pick = (page, file) => page.locator('[data-testid="file-input"]').setInputFiles(file);

/** Drops `file` on the drop area, as a drag from the desktop would. */
async function drop(page, file) {
  const bytes = fs.readFileSync(file).toString('base64');
  await page.evaluate(
    ({ name, bytes }) => {
      const data = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name));
      const target = document.querySelector('[data-testid="file-drop"]');
      target.dispatchEvent(
        new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }),
      );
      target.dispatchEvent(
        new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }),
      );
    },
    { name: path.basename(file), bytes },
  );
}

/** The label → value of every statistics tile. */
const stats = (page) =>
  page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-stat]')].map((tile) => [
        tile.getAttribute('data-stat'),
        tile.lastElementChild?.textContent?.trim(),
      ]),
    ),
  );

/** The rows of the table named `label` as cell texts. */
const tableRows = (page, label) =>
  page.evaluate(
    (name) =>
      [...(document.querySelector(`table[aria-label="${name}"]`)?.querySelectorAll('tbody tr') ?? [])].map(
        (tr) => [...tr.cells].map((cell) => cell.textContent.trim()),
      ),
    label,
  );

/** Slows the browser's uploads so the byte progress stays on screen long enough to see. */
async function throttleUploads(page, bytesPerSecond) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  };
}

export const uploadsActivationAndUpdateCommands = {
  name: 'Uploads: validation messages, Activation Codes (progress, duplicates, row problems, re-upload warning), Update commands',
  async run({ baseUrl, newPage, screenshot }) {
    const dir = fixtureDir();
    const page = await newPage();
    await signIn(page, baseUrl);

    // --- Update commands: the client-side checks of spec §5, then a CSV for Honda.
    await openUploadPage(page, 'Update commands', '/Updatecommand', 'Update commands');
    await waitForText(page, 'Sheet Name (Make) *');
    assert.match(await page.locator('main').innerText(), /10MB/);
    assert.equal(await page.locator('select[name="sheetName"] option').count(), 64, 'placeholder + 63 makes');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await waitForText(page, 'Please select a file first');
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'not a spreadsheet');
    await pick(page, notes);
    await waitForText(page, 'Please select a valid Excel (.xlsx, .xls) or CSV file');
    await screenshot(page, 'uploads-update-commands-validation');

    const commandsCsv = path.join(dir, 'honda-commands.csv');
    fs.writeFileSync(
      commandsCsv,
      [
        'command,module,function_type,full_scan',
        '0100,Engine,scan,true',
        '0101,Engine,live_data,false',
        '0902,Engine,vin,true',
        '0100,Engine,scan,true',
        ',ABS,scan,true',
      ].join('\n'),
    );
    await pick(page, commandsCsv);
    await waitForText(page, `Selected: honda-commands.csv (${fs.statSync(commandsCsv).size} B)`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await waitForText(page, 'Sheet name is required');
    await page.locator('select[name="sheetName"]').selectOption('Honda');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await importAfterPreview(page, 30_000);
    const commandStats = await stats(page);
    assert.equal(commandStats.Sheet, 'honda-commands', 'a CSV is one sheet, named after the file');
    assert.equal(commandStats.Inserted, '3');
    assert.equal(commandStats['Rows processed'], '5');
    const commandProblems = await tableRows(page, 'Row problems');
    assert.ok(commandProblems.length >= 2, `row problems: ${JSON.stringify(commandProblems)}`);
    assert.ok(
      commandProblems.some((row) => row[1] === '6'),
      'the row without a command is reported as row 6',
    );
    await screenshot(page, 'uploads-update-commands-result');
    await page.getByRole('button', { name: 'Upload Another File' }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
    assert.equal(await page.locator('[data-testid="chosen-file"]').count(), 0, 'the file is cleared');

    // --- Activation codes: a CSV large enough for the progress to be seen, with repeats and a bad row.
    await openUploadPage(
      page,
      'Activation Codes Uploader',
      '/ActivationCodesUploader',
      'Activation Codes Uploader',
    );
    await pick(page, notes);
    await waitForText(page, 'Please select a valid file (.xlsx, .xls, or .csv)');
    const codes = ['Activation Code,Plan,Duration,Vehicle'];
    for (let i = 0; i < 20_000; i += 1) codes.push(`E2E-${String(i).padStart(8, '0')},Pro,12 months,Car`);
    codes.push('E2E-00000007,Pro,12 months,Car', 'E2E-00000008,Basic,1 month,Bike', ',Pro,12 months,Car');
    const codesCsv = path.join(dir, 'activation-codes.csv');
    fs.writeFileSync(codesCsv, `${codes.join('\r\n')}\r\n`);
    await pick(page, codesCsv);
    await watchProgress(page);
    const unthrottle = await throttleUploads(page, 250_000);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(/^Uploading… \d+%$/).waitFor();
    await page.getByText(/^Uploading… ([1-9]\d?)%$/).waitFor();
    await screenshot(page, 'uploads-activation-progress');
    await importAfterPreview(page, 60_000);
    await unthrottle();
    const seen = await progressSeen(page);
    assert.ok(
      seen.some((text) => /Uploading… [1-9]\d?%/.test(text)),
      `byte progress shown: ${seen.join(' | ')}`,
    );
    assert.ok(
      seen.some((text) => /Processing|Reading|Saving/.test(text)),
      `processing shown: ${seen.join(' | ')}`,
    );
    const codeStats = await stats(page);
    assert.equal(codeStats['Total rows'], '20,003');
    assert.equal(codeStats.Imported, '20,000');
    assert.equal(codeStats['Duplicates in file'], '2');
    assert.equal(codeStats['Invalid rows'], '1');
    const fileDuplicates = await tableRows(page, 'Duplicates in the file');
    assert.deepEqual(fileDuplicates[0], ['E2E-00000007', '9, 20002']);
    const codeProblems = await tableRows(page, 'Row problems');
    assert.ok(
      codeProblems.some((row) => row[1] === '20004'),
      `row problems: ${JSON.stringify(codeProblems)}`,
    );
    await screenshot(page, 'uploads-activation-result');

    // The same file again: every code is already stored, and the page warns it was imported before.
    await page.getByRole('button', { name: 'Upload Another File' }).click();
    await drop(page, codesCsv);
    await waitForText(
      page,
      `Selected: activation-codes.csv (${(fs.statSync(codesCsv).size / 1024).toFixed(0)} KB)`,
    );
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await importAfterPreview(page, 60_000);
    await waitForText(page, 'This file was imported before');
    const againStats = await stats(page);
    assert.equal(againStats.Imported, '0');
    assert.equal(againStats['Already in database'], '20,000');
    await page.getByTestId('db-duplicates').waitFor();
    await screenshot(page, 'uploads-activation-reupload');

    fs.rmSync(dir, { recursive: true, force: true });
  },
};

export const uploadsFaultCodesAndHistory = {
  name: 'Uploads: Fault Codes Bulk Uploader, Excel Importer (drag and drop), a failed upload, Import History',
  async run({ baseUrl, newPage, screenshot }) {
    const dir = fixtureDir();
    const page = await newPage();
    await signIn(page, baseUrl);

    // --- Bulk Uploader: a workbook of the four sheets, odd header spellings, a bad and a repeated row.
    await openUploadPage(page, 'Fault Codes Uploader', '/FaultCodesUploader', 'Fault Codes Bulk Uploader');
    const csv = path.join(dir, 'faults.csv');
    fs.writeFileSync(csv, 'DTC,Title\nP0001,x\n');
    await pick(page, csv);
    await waitForText(page, 'Please select an Excel file (.xlsx or .xls)');
    const workbookFile = await writeWorkbook(path.join(dir, 'fault-workbook.xlsx'), {
      fault_descriptions: [
        ['dtc code', 'TITLE', 'severity', 'repair_difficulty', 'Make', 'Company ID', 'Generic'],
        ['E2E01', 'E2E test fault one', 2, 3, 'Honda', 901, 'false'],
        ['E2E02', 'E2E test fault two', 1, 1, 'Honda', 901, 'false'],
        ['E2E01', 'E2E test fault one again', 2, 3, 'Honda', 901, 'false'],
        ['E2E03', 'Severity out of range', 9, 1, 'Honda', 901, 'false'],
      ],
      causes: [
        ['DTC', 'Causes', 'Language', 'Make', 'Company ID', 'Generic'],
        ['E2E01', 'A loose wire', 'en', 'Honda', 901, 'false'],
      ],
      symptoms: [
        ['DTC', 'Symptom', 'Language', 'Make', 'Company ID', 'Generic'],
        ['E2E01', 'Engine light on', 'en', 'Honda', 901, 'false'],
      ],
      solutions: [
        ['DTC', 'Solution', 'Language', 'Make', 'Company ID', 'Generic'],
        ['E2E01', 'Fix the wire', 'en', 'Honda', 901, 'false'],
        ['', 'No code', 'en', 'Honda', 901, 'false'],
      ],
    });
    await pick(page, workbookFile);
    await watchProgress(page);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await importAfterPreview(page, 30_000);
    assert.ok((await progressSeen(page)).length > 0, 'the progress panel was shown');
    assert.equal((await stats(page))['Rows inserted'], '5');
    const perTable = await tableRows(page, 'Per table');
    assert.equal(perTable.length, 4);
    assert.deepEqual(perTable[0].slice(1, 7), ['4', '2', '1', '1', '0', '1']);
    const workbookProblems = await tableRows(page, 'Row problems');
    assert.ok(workbookProblems.some((row) => row[0] === 'fault_descriptions' && row[1] === '5'));
    assert.ok(workbookProblems.some((row) => row[0] === 'solutions' && row[1] === '3'));
    await screenshot(page, 'uploads-fault-workbook-result');

    // --- Excel Importer: one sheet, dropped on the page.
    await openUploadPage(
      page,
      'Fault Codes Uploader 2',
      '/FaultCodesUploader2',
      'Fault Codes Excel Importer',
    );
    assert.match(await page.locator('main').innerText(), /50MB/);
    await pick(page, csv);
    await waitForText(page, 'Please select a valid Excel file (.xlsx or .xls)');
    const rows = [['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic']];
    for (let i = 0; i < 5_000; i += 1)
      rows.push([
        `E2F${String(i).padStart(5, '0')}`,
        `Imported fault ${i}`,
        1 + (i % 3),
        2,
        'Toyota',
        902,
        'false',
      ]);
    rows.push(['E2E01', 'Already there under company 901', 2, 3, 'Honda', 901, 'false']);
    const codesFile = await writeWorkbook(path.join(dir, 'fault-codes.xlsx'), { Codes: rows });
    await drop(page, codesFile);
    await waitForText(
      page,
      `Selected: fault-codes.xlsx (${(fs.statSync(codesFile).size / 1024).toFixed(0)} KB)`,
    );
    await watchProgress(page);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await importAfterPreview(page, 30_000);
    const codeStats = await stats(page);
    assert.equal(codeStats.Inserted, '5,000');
    assert.equal(codeStats['Already in database'], '1');
    assert.equal(codeStats.Worksheet, 'Codes');
    await screenshot(page, 'uploads-fault-codes-result');

    // --- A file the server refuses: a .xlsx that is not a workbook. 'Try Again' goes back to the form.
    await page.getByRole('button', { name: 'Upload Another File' }).click();
    const broken = path.join(dir, 'broken.xlsx');
    fs.writeFileSync(broken, 'this is not a zip file at all');
    await pick(page, broken);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Upload failed', { exact: true }).waitFor({ timeout: 30_000 });
    const failure = (await page.getByRole('alert').first().innerText()).trim();
    assert.ok(failure.length > 'Upload failed'.length, `the server's sentence is shown: ${failure}`);
    await screenshot(page, 'uploads-fault-codes-failed');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();

    // --- Import History: every upload newest first, filters, one upload's row problems.
    await sidebarLink(page, 'Import History').click();
    await waitForPath(page, '/ImportHistory');
    await page.getByRole('heading', { name: 'Import History', level: 2 }).waitFor();
    const history = await waitUntil(
      () => tableRows(page, 'Import History'),
      (shown) => shown.length >= 3,
      'the import history rows',
    );
    assert.equal(history[0][4], 'broken.xlsx', 'newest first');
    assert.equal(history[0][6], 'Failed');
    assert.equal(history[1][4], 'fault-codes.xlsx');
    assert.equal(history[1][6], 'Succeeded');
    await screenshot(page, 'uploads-import-history');

    await page.locator('select[name="kind"]').selectOption('fault_workbook');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/ImportHistory?kind=fault_workbook');
    const workbookRows = await waitUntil(
      () => tableRows(page, 'Import History'),
      (shown) => shown.length === 1 && shown[0][4] === 'fault-workbook.xlsx',
      'only the workbook upload',
    );
    assert.equal(workbookRows[0][3], 'Fault Codes Bulk Uploader');
    await page.locator('select[name="kind"]').selectOption('');
    await page.locator('select[name="status"]').selectOption('failed');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitUntil(
      () => tableRows(page, 'Import History'),
      (shown) => shown.length === 1 && shown[0][6] === 'Failed',
      'only the failed upload',
    );
    await screenshot(page, 'uploads-import-history-failed-filter');

    await page.locator('select[name="status"]').selectOption('');
    await page.locator('select[name="kind"]').selectOption('fault_workbook');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitUntil(
      () => tableRows(page, 'Import History'),
      (shown) => shown.length === 1 && shown[0][4] === 'fault-workbook.xlsx',
      'the workbook upload again',
    );
    await page.getByRole('link', { name: 'View Details' }).first().click();
    await page.getByRole('heading', { name: 'Import Details', level: 2 }).waitFor();
    assert.match(pathOfPage(page), /^\/ImportHistory\/details\?id=\d+$/);
    const detailProblems = await waitUntil(
      () => tableRows(page, 'Row problems'),
      (shown) => shown.length >= 2,
      'the row problems of the import',
    );
    assert.ok(detailProblems.some((row) => row[0] === 'fault_descriptions' && row[1] === '5'));
    await screenshot(page, 'uploads-import-details');

    fs.rmSync(dir, { recursive: true, force: true });
  },
};

function pathOfPage(page) {
  const url = new URL(page.url());
  return url.pathname + url.search;
}
