import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { sidebarLink, signIn, waitForPath } from '../lib.mjs';

/**
 * After "Upload", every upload page previews the file (issue 15): this clicks "Import" on the
 * preview and waits for the result. Journeys that only want a file imported use it.
 */
export async function importAfterPreview(page, timeout = 60_000) {
  const preview = page.getByText('Preview: nothing imported yet');
  const done = page.getByText('Upload complete');
  await preview.or(done).first().waitFor({ timeout });
  if (await preview.isVisible()) await page.getByRole('button', { name: 'Import', exact: true }).click();
  await done.waitFor({ timeout });
}

/** The rows of a downloaded .xlsx as ExcelJS reads them (not the server's reader). */
async function readXlsx(file) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const rows = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push(row.values.slice(1).map((v) => (v === undefined || v === null ? '' : String(v))));
  });
  return rows;
}

/** Clicks "Download problems" and returns the file's rows. */
async function downloadProblems(page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download problems' }).first().click(),
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-problems-'));
  const target = path.join(dir, download.suggestedFilename());
  await download.saveAs(target);
  const rows = await readXlsx(target);
  fs.rmSync(dir, { recursive: true, force: true });
  return { name: download.suggestedFilename(), rows };
}

const figures = async (page) =>
  page
    .getByRole('table', { name: 'Preview per sheet' })
    .locator('tbody tr')
    .first()
    .locator('td')
    .allInnerTexts();

/**
 * Undo (issue 15 item 3): in the Import History, the newest succeeded import of `kind` is undone
 * through its button and the confirmation dialog; its row then says "Undone".
 */
async function undoNewest(page, baseUrl, kind, screenshot, name) {
  await page.goto(`${baseUrl}/ImportHistory?kind=${kind}&status=succeeded`);
  const undo = page.getByRole('button', { name: /^Undo import #\d+$/ }).first();
  await undo.waitFor({ timeout: 30_000 });
  const label = (await undo.getAttribute('aria-label')) ?? '';
  const id = label.replace(/\D/g, '');
  await undo.click();
  const dialog = page.getByRole('dialog', { name: `Undo import #${id}?` });
  await dialog.getByRole('button', { name: 'Undo import', exact: true }).waitFor();
  await page.waitForTimeout(400); // the modal's fade-in, for the screenshot only
  await screenshot(page, `${name}-undo-dialog`);
  await dialog.getByRole('button', { name: 'Undo import', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.goto(`${baseUrl}/ImportHistory?kind=${kind}`);
  const row = page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: id, exact: true }) });
  await row.getByText('Undone', { exact: false }).first().waitFor({ timeout: 30_000 });
  await screenshot(page, `${name}-undone`);
}

/** Extra steps run once each import below has succeeded, on the result screen. */
export const afterImportSteps = [];

async function openPage(page, label, route, title) {
  await sidebarLink(page, label).click();
  await waitForPath(page, route);
  await page.getByRole('heading', { name: title, level: 2, exact: true }).waitFor();
}

export const importPreviewJourney = {
  name: 'Import preview: preview → import → download problems → undo, on the Fault Codes Excel Importer and the Activation Codes Uploader',
  async run({ baseUrl, newPage, screenshot }) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-preview-'));
    const page = await newPage();
    await signIn(page, baseUrl);

    // --- Fault codes: 3 rows, one invalid and one repeated.
    await openPage(page, 'Fault Codes Uploader 2', '/FaultCodesUploader2', 'Fault Codes Excel Importer');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('codes');
    for (const row of [
      ['DTC', 'Title', 'Severity', 'Company ID'],
      ['E2P0001', 'Preview one', 1, 77],
      ['E2P0002', 'Bad severity', 9, 77],
      ['E2P0001', 'Repeat', 1, 77],
      ['E2P0003', 'Preview three', 2, 77],
    ])
      sheet.addRow(row);
    const xlsx = path.join(dir, 'preview-codes.xlsx');
    await workbook.xlsx.writeFile(xlsx);
    await page.locator('[data-testid="file-input"]').setInputFiles(xlsx);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Preview: nothing imported yet').waitFor({ timeout: 60_000 });
    assert.deepEqual(await figures(page), ['codes', '4', '2', '1', '0', '1']);
    await screenshot(page, 'import-preview-fault-codes');
    const faultProblems = await downloadProblems(page);
    assert.match(faultProblems.name, /problems.*\.xlsx$/);
    assert.deepEqual(faultProblems.rows[0], [
      'DTC',
      'Title',
      'Severity',
      'Company ID',
      'Sheet',
      'Row',
      'Problem',
    ]);
    assert.equal(faultProblems.rows.length, 3, JSON.stringify(faultProblems.rows));
    assert.deepEqual(faultProblems.rows[1]?.slice(0, 6), [
      'E2P0002',
      'Bad severity',
      '9',
      '77',
      'codes',
      '3',
    ]);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Upload complete').waitFor({ timeout: 60_000 });
    await page.getByText('Imported 2 fault codes', { exact: false }).first().waitFor();
    await screenshot(page, 'import-preview-fault-codes-imported');
    for (const step of afterImportSteps) await step(page);
    await undoNewest(page, baseUrl, 'fault_codes', screenshot, 'import-preview-fault-codes');

    // --- Activation codes: the same file twice; the second preview finds them stored, and is cancelled.
    await openPage(
      page,
      'Activation Codes Uploader',
      '/ActivationCodesUploader',
      'Activation Codes Uploader',
    );
    const csv = path.join(dir, 'preview-codes.csv');
    fs.writeFileSync(
      csv,
      'Activation Code,Plan,Duration,Vehicle\r\nE2P-A1,Pro,12 months,Car\r\nE2P-A2,Basic,,Bike\r\nE2P-A1,Pro,12 months,Car\r\n',
    );
    await page.locator('[data-testid="file-input"]').setInputFiles(csv);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Preview: nothing imported yet').waitFor({ timeout: 60_000 });
    assert.deepEqual((await figures(page)).slice(1), ['3', '1', '1', '0', '1']);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Upload complete').waitFor({ timeout: 60_000 });
    const codeProblems = await downloadProblems(page);
    assert.equal(codeProblems.rows.length, 3, JSON.stringify(codeProblems.rows));
    assert.deepEqual(
      codeProblems.rows.slice(1).map((r) => r.at(-2)),
      ['3', '4'],
    );
    await screenshot(page, 'import-preview-activation-imported');
    for (const step of afterImportSteps) await step(page);

    await page.getByRole('button', { name: 'Upload Another File' }).click();
    await page.locator('[data-testid="file-input"]').setInputFiles(csv);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Preview: nothing imported yet').waitFor({ timeout: 60_000 });
    assert.deepEqual((await figures(page)).slice(1), ['3', '0', '1', '1', '1']);
    await screenshot(page, 'import-preview-activation-again');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
    // Undo of the activation codes import: its code is gone, so a new preview finds it new again.
    await undoNewest(page, baseUrl, 'activation_codes', screenshot, 'import-preview-activation');
    await openPage(
      page,
      'Activation Codes Uploader',
      '/ActivationCodesUploader',
      'Activation Codes Uploader',
    );
    await page.locator('[data-testid="file-input"]').setInputFiles(csv);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Preview: nothing imported yet').waitFor({ timeout: 60_000 });
    assert.deepEqual((await figures(page)).slice(1), ['3', '1', '1', '0', '1']);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
    fs.rmSync(dir, { recursive: true, force: true });
  },
};
