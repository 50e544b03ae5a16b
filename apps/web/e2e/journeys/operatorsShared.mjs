// What the operator journeys share: the editor they invite, the admin account, the Operators table,
// row actions and downloads.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, waitUntil } from '../lib.mjs';

export const EDITOR = { email: 'e2e-editor@example.com', password: 'e2e-editor-password' };

/** The admin account exists (the first journey signs it up; alone, this journey does). */
export async function ensureAdmin(baseUrl) {
  const status = await (await fetch(`${baseUrl}/api/signup`)).json();
  if (status.invitationRequired) return;
  const answer = await fetch(`${baseUrl}/api/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  assert.equal(answer.status, 201, 'the first sign-up makes the admin');
}

/** The Operators table's row for `email` as header → cell text, or undefined while it is not shown. */
export const operatorRow = (page, email) =>
  page.evaluate((wanted) => {
    const table = document.querySelector('table[aria-label="Operators"]');
    if (!table || document.body.textContent.includes('Loading...')) return undefined;
    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    for (const tr of table.querySelectorAll('tbody tr')) {
      const cells = [...tr.cells].map((cell) => cell.textContent.trim());
      if (cells[headers.indexOf('Email')] === wanted)
        return Object.fromEntries(headers.map((header, i) => [header, cells[i]]));
    }
    return undefined;
  }, email);

/** Waits until the Operators row of `email` satisfies `check` (the list is asked again after each change). */
export function waitForOperator(page, email, check, what) {
  return waitUntil(
    () => operatorRow(page, email),
    (row) => row !== undefined && check(row),
    what,
  );
}

/** Clicks `button`, waits for the browser's own download, saves it and returns its name and bytes. */
export async function download(page, button) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'obd-dl-')), file.suggestedFilename());
  await file.saveAs(target);
  const bytes = fs.readFileSync(target);
  fs.rmSync(path.dirname(target), { recursive: true, force: true });
  return { name: file.suggestedFilename(), bytes };
}

/** The lines of a downloaded CSV (UTF-8, an optional BOM), without the last empty one. */
export function csvLines({ bytes }) {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  return text.split(/\r?\n/).filter((line, i, all) => line !== '' || i < all.length - 1);
}

/** Opens the Actions menu of `email`'s row and picks `item`; returns the dialog, once it has faded in. */
export async function rowAction(page, email, item) {
  await page.getByRole('button', { name: `Actions for ${email}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await settled(dialog, 'the dialog to finish fading in');
  return dialog;
}

/** Waits until nothing in `locator` is animating (a fade, a button's loader), for a screenshot. */
export function settled(locator, what) {
  return waitUntil(
    () => locator.evaluate((element) => element.getAnimations({ subtree: true }).length),
    (running) => running === 0,
    what,
  );
}
