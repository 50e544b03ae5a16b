import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN,
  checkA11y,
  pathOf,
  sidebarLink,
  signIn,
  submitLogin,
  waitForPath,
  waitUntil,
} from '../lib.mjs';
import { importAfterPreview } from './importPreview.mjs';

const PRODUCT = 'OBD Admin';
const SCHEMES = ['light', 'dark'];
/** Screens photographed in both schemes (their sidebar labels), looked at by a person. */
const LISTS_WITH_DETAILS = new Set([
  'Cars Scans',
  'Special Function',
  'Actuations Detail',
  'Import History',
  'Audit log',
]);
const PHOTOGRAPHED = new Set(['Users Table', 'Cars Scans', 'Fault Code List', 'Activation Codes Uploader']);

/**
 * axe-core on every screen, in the light and the dark colour scheme as the operating system asks for
 * them (a browser profile each): the public pages, every screen of the sidebar (so a new screen is
 * checked without being listed here), the first record of every list that opens one (a detail screen
 * of each kind), My account, an upload's result and an unknown address. Each page's title is checked
 * on the way, and the favicon; then the colour toggle (remembered, back to following the system),
 * and the keyboard: every control reached by Tab shows where the focus is.
 */
export const accessibility = {
  name: 'accessibility: axe on every screen in light and dark, page titles, favicon, colour toggle, keyboard focus',
  async run({ baseUrl, newPage, screenshot }) {
    await ensureAdmin(baseUrl);
    const favicon = await fetch(`${baseUrl}/favicon.svg`);
    assert.equal(favicon.status, 200, 'the favicon is served');
    assert.match(favicon.headers.get('content-type') ?? '', /^image\/svg\+xml/);

    for (const scheme of SCHEMES) {
      const page = await newPage({ colorScheme: scheme });
      await checkPublicPages(page, baseUrl, scheme, screenshot);
      await signIn(page, baseUrl);
      assert.equal(await shownScheme(page), scheme, `the app follows the system's ${scheme} scheme`);
      if (scheme === 'light') await uploadActivationCodes(page, screenshot);
      await checkEveryScreen(page, baseUrl, scheme, screenshot);
    }

    await checkToggle(await newPage({ colorScheme: 'light' }), baseUrl);
    await checkKeyboardFocus(await newPage({ colorScheme: 'light' }), baseUrl);
  },
};

/** The journeys' admin: created here when this journey runs alone (the first sign-up needs no invitation). */
async function ensureAdmin(baseUrl) {
  const response = await fetch(`${baseUrl}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  // 201: created now; otherwise the first journey created it (and sign-up now needs an invitation).
  await response.body?.cancel();
}

async function checkPublicPages(page, baseUrl, scheme, screenshot) {
  for (const [address, heading, title] of [
    ['/login', 'Login', 'Login'],
    ['/signup', 'Signup', 'Signup'],
    ['/reset-password', 'Reset password', 'Reset password'],
  ]) {
    await page.goto(`${baseUrl}${address}`);
    await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    assert.equal(await shownScheme(page), scheme);
    await expectTitle(page, title);
    await checkA11y(page, `${address} (${scheme})`);
  }
  // A failed sign-in shows its alert: checked too.
  await page.goto(`${baseUrl}/login`);
  await submitLogin(page, { email: ADMIN.email, password: 'not-the-password' });
  await page.getByRole('alert').waitFor();
  await checkA11y(page, `/login with a failure (${scheme})`);
  await screenshot(page, `a11y-login-${scheme}`);
}

async function checkEveryScreen(page, baseUrl, scheme, screenshot) {
  const labels = await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.textContent?.trim() ?? ''));
  assert.ok(labels.length >= 25, `the admin's sidebar lists every screen: ${labels.join(', ')}`);
  const details = [];
  for (const label of labels) {
    const link = sidebarLink(page, label);
    const href = await link.getAttribute('href');
    await link.click();
    // The address first: the screen shown a moment longer may be the previous one (its code loading).
    await waitForPath(page, href ?? '');
    await expectTitle(page, label);
    await screenLoaded(page);
    await checkA11y(page, `${label} at ${pathOf(page)} (${scheme})`);
    if (PHOTOGRAPHED.has(label)) await screenshot(page, `a11y-${slug(label)}-${scheme}`);

    // The first record's detail screen, for every list that opens records.
    const detailLink = page.locator('table tbody').getByRole('link', { name: 'View Details' }).first();
    // The lists known to open records wait for their rows; any other list opens one if it has a link.
    if (LISTS_WITH_DETAILS.has(label)) await detailLink.waitFor();
    if ((await detailLink.count()) === 0) continue;
    const listPath = pathOf(page);
    await detailLink.click();
    await waitUntil(
      () => pathOf(page),
      (address) => address !== listPath,
      `a record of ${label}`,
    );
    const title = await waitUntil(
      () => page.title(),
      (shown) => shown !== `${label} · ${PRODUCT}`,
      `the title of a record of ${label}`,
    );
    const heading = title.replace(` · ${PRODUCT}`, '');
    // The screen named by the title is the one shown: its heading.
    await page.getByRole('main').getByRole('heading', { name: heading, level: 2, exact: true }).waitFor();
    await screenLoaded(page);
    await checkA11y(page, `${heading} at ${pathOf(page)} (${scheme})`);
    details.push(heading);
    if (label === 'Cars Scans') await screenshot(page, `a11y-scan-details-${scheme}`);
  }
  for (const kind of [
    'Scan Details',
    'Special Function Details',
    'Actuation Details',
    'Import Details',
    'Audit event',
  ]) {
    assert.ok(details.includes(kind), `a ${kind} screen was checked (checked: ${details.join(', ')})`);
  }

  await page.getByRole('link', { name: 'My account' }).click();
  await waitForPath(page, '/account');
  await screenLoaded(page);
  await expectTitle(page, 'My account');
  await checkA11y(page, `My account (${scheme})`);

  await page.goto(`${baseUrl}/NoSuchScreen`);
  await page.getByText('This page does not exist.').waitFor();
  await expectTitle(page, 'Page not found');
  await checkA11y(page, `an unknown address (${scheme})`);

  // The phone layout: burger, opened sidebar.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${baseUrl}/FaultCodeList`);
  await screenLoaded(page);
  await checkA11y(page, `Fault Code List on a phone (${scheme})`);
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await sidebarLink(page, 'Cars Scans').waitFor();
  await checkA11y(page, `the phone's opened sidebar (${scheme})`);
  await screenshot(page, `a11y-phone-sidebar-${scheme}`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** A small activation-codes file with a repeat and a bad row: the result views, and a record for the import history. */
async function uploadActivationCodes(page, screenshot) {
  await sidebarLink(page, 'Activation Codes Uploader').click();
  await waitForPath(page, '/ActivationCodesUploader');
  await screenLoaded(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-a11y-'));
  const file = path.join(dir, 'a11y-codes.csv');
  const rows = ['Activation Code,Plan,Duration,Vehicle'];
  for (let i = 0; i < 20; i += 1) rows.push(`A11Y-${String(i).padStart(6, '0')},Pro,12 months,Car`);
  rows.push('A11Y-000003,Pro,12 months,Car', ',Pro,12 months,Car');
  fs.writeFileSync(file, `${rows.join('\r\n')}\r\n`);
  await page.locator('[data-testid="file-input"]').setInputFiles(file);
  await checkA11y(page, 'an upload page with a file chosen');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await importAfterPreview(page, 60_000);
  await checkA11y(page, "an upload's result (light)");
  await screenshot(page, 'a11y-upload-result-light');
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The toggle: the other scheme at once, kept across a reload and in a new tab, back to the system's. */
async function checkToggle(page, baseUrl) {
  await signIn(page, baseUrl);
  const toggle = page.getByRole('button', { name: 'Dark colours' });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  await waitUntil(
    () => shownScheme(page),
    (shown) => shown === 'dark',
    'the dark scheme',
  );
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await page.reload();
  // Set by public/colorScheme.js before the app starts: dark from the first paint.
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  assert.equal(await shownScheme(page), 'dark', 'kept across a reload');
  const other = await page.context().newPage();
  await other.goto(`${baseUrl}/login`);
  assert.equal(await shownScheme(other), 'dark', 'kept for the whole browser (the login page too)');
  await other.getByRole('button', { name: 'Dark colours' }).click();
  await waitUntil(
    () => shownScheme(other),
    (shown) => shown === 'light',
    'the light scheme on the login page',
  );
  // Back to the system's scheme: nothing kept, the app follows the system again.
  assert.equal(await other.evaluate(() => localStorage.getItem('obd-admin-color-scheme')), null);
  await other.close();
}

/**
 * Tab from the top of the Cars Scans list through its controls: every element focused is one a
 * person can see (a visible focus ring: outline or box-shadow), and the sidebar, filters, table links
 * and pager are all reached.
 */
async function checkKeyboardFocus(page, baseUrl) {
  await signIn(page, baseUrl);
  await page.goto(`${baseUrl}/ObdScanReport`);
  await screenLoaded(page);
  const reached = new Set();
  const unseen = [];
  for (let i = 0; i < 120; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await focusShown(page);
    if (!focused) continue;
    reached.add(focused.name);
    if (!focused.ring) unseen.push(focused.what);
  }
  assert.deepEqual(unseen, [], 'every control reached by Tab shows a focus ring');
  for (const name of ['Cars Scans', 'Search', 'View Details', 'Logout', 'Dark colours']) {
    assert.ok(reached.has(name), `Tab reaches "${name}" (reached: ${[...reached].join(' | ')})`);
  }
}

/**
 * The focused element and whether it shows focus. Inputs' borders turn the primary colour with a
 * short transition, which a loaded machine stretches: a missing ring is read again for up to 2 s
 * before it counts as missing (a control that never shows one still fails).
 */
async function focusShown(page) {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return undefined;
      const style = getComputedStyle(element);
      // Mantine's inputs show focus by their border turning the primary colour; other controls by an outline.
      const probe = document.createElement('span');
      probe.style.color = 'var(--mantine-primary-color-filled)';
      document.body.append(probe);
      const primary = getComputedStyle(probe).color;
      probe.remove();
      const field = ['INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName);
      const ring =
        (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) ||
        style.boxShadow !== 'none' ||
        (field && style.borderTopColor === primary);
      const name = (
        element.getAttribute('aria-label') ||
        element.textContent ||
        element.getAttribute('name') ||
        ''
      )
        .trim()
        .slice(0, 40);
      return { what: `${element.tagName.toLowerCase()} "${name}"`, ring, name };
    });
    if (!focused || focused.ring || Date.now() > deadline) return focused;
    await page.waitForTimeout(50);
  }
}

/** Waits for a guarded screen's code and data: its heading shown, nothing loading. */
async function screenLoaded(page) {
  await waitUntil(
    () =>
      page.evaluate(() => ({
        heading: Boolean(document.querySelector('main h1, main h2')),
        loading: document.body.textContent?.includes('Loading...') ?? true,
      })),
    (state) => state.heading && !state.loading,
    'the screen to load',
  );
}

async function expectTitle(page, screen) {
  await waitUntil(
    () => page.title(),
    (title) => title === `${screen} · ${PRODUCT}`,
    `the title "${screen} · ${PRODUCT}"`,
  );
}

const shownScheme = (page) =>
  page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
