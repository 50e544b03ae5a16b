// Small helpers for the journeys (playwright-core has no `expect`): they wait for what an operator
// would see, and fail with a message saying what was expected.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';

/** The account the journeys sign up first (it becomes the admin) and then sign in with. */
export const ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password' };

/** Polls `read` until `check` accepts its value; returns that value. */
export async function waitUntil(read, check, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await read();
    if (check(last)) return last;
    if (Date.now() > deadline) {
      assert.fail(`Timed out waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 600)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `text` is visible on the page, exactly. */
export async function waitForText(page, text) {
  await page.getByText(text, { exact: true }).first().waitFor({ state: 'visible' });
}

/** The path and query of the page, e.g. `/FaultCodeList?dtc=P0&page=2`. */
export function pathOf(page) {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Waits for the address bar to show `expected` (path and query). */
export async function waitForPath(page, expected) {
  await waitUntil(
    () => pathOf(page),
    (actual) => actual === expected,
    `the address ${expected}`,
  );
}

export function sidebarLink(page, label) {
  return page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: label, exact: true });
}

export function pagerButton(page, name) {
  return page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name, exact: true });
}

/** Fills the login form and submits it. */
export async function submitLogin(page, { email, password }) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** Opens the login page in `page` and signs in as `account`; resolves once a guarded page shows. */
export async function signIn(page, baseUrl, account = ADMIN) {
  await page.goto(`${baseUrl}/login`);
  await submitLogin(page, account);
  await page.getByRole('button', { name: 'Logout' }).waitFor();
}

/**
 * Waits until the list shows the page in the address bar, loaded, and returns what it shows: the
 * footer numbers, the column headers and the cell texts of every row. React Router renders a
 * navigation in a transition, so the address can change a moment before the screen does: after a
 * search that stays on page 1, pass `until` (what the new rows must show) to wait for them.
 */
export async function readList(page, until = () => true, what = 'the searched rows') {
  const list = await waitUntil(
    () => snapshotList(page),
    (shown) =>
      !shown.loading &&
      shown.page === Number(new URL(shown.url).searchParams.get('page') ?? '1') &&
      satisfies(until, withColumns(shown)),
    `the list to show the page of the address bar and ${what}`,
  );
  return withColumns(list);
}

// One read of the whole list in the page, so footer, headers and rows always belong together.
function snapshotList(page) {
  return page.evaluate(() => {
    const texts = [...document.querySelectorAll('p, span, div')]
      .filter((element) => element.children.length === 0)
      .map((element) => (element.textContent ?? '').trim());
    const footer = texts.map((text) => /^Page (\d+) of (\d+)$/.exec(text)).find(Boolean);
    const total = texts.map((text) => /^Total Items: (\d+)$/.exec(text)).find(Boolean);
    const cellTexts = (selector) =>
      [...document.querySelectorAll(selector)].map((cell) => (cell.textContent ?? '').trim());
    return {
      url: window.location.href,
      loading: document.body.textContent.includes('Loading...'),
      page: footer ? Number(footer[1]) : 0,
      pages: footer ? Number(footer[2]) : 0,
      total: total ? Number(total[1]) : 0,
      headers: cellTexts('table thead th'),
      rows: [...document.querySelectorAll('table tbody tr')].map((tr) =>
        [...tr.cells].map((cell) => (cell.textContent ?? '').trim()),
      ),
    };
  });
}

function withColumns(list) {
  return {
    ...list,
    /** The cells of one column, by header. */
    column(header) {
      const index = list.headers.indexOf(header);
      assert.ok(index >= 0, `no column "${header}" among ${list.headers.join(', ')}`);
      return list.rows.map((row) => row[index]);
    },
  };
}

// A screen still on its way may lack the column `until` looks at: that is "not yet", not a failure.
function satisfies(until, list) {
  try {
    return until(list);
  } catch {
    return false;
  }
}

// axe-core's browser build, read once. It is evaluated in the page through the DevTools protocol
// (page.evaluate), which the app's Content-Security-Policy does not apply to: a <script> tag would
// be refused, as the CSP refuses every inline script.
let axeSource;
const AXE_FAILS_ON = ['serious', 'critical'];

/**
 * Runs axe-core (WCAG 2.0–2.2 A and AA, and axe's best practices) on the page as it is now and fails
 * the journey on any serious or critical violation, with a list a person can act on: the rule, what
 * it asks, and each element (its selector and axe's summary). `what` names the screen in the message.
 * Returns the moderate and minor violations' rule ids, which do not fail.
 */
export async function checkA11y(page, what) {
  axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  // Mantine's transitions (menus, drawers, fades) would be caught half-way, in colours not shown.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
  const violations = await page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.join(' '),
        summary: node.failureSummary ?? '',
      })),
    }));
  });
  const failing = violations.filter((violation) => AXE_FAILS_ON.includes(violation.impact));
  // A11Y_REPORT_ONLY=1 prints the failures and goes on: one run lists every screen's (while fixing).
  if (failing.length > 0 && process.env.A11Y_REPORT_ONLY) {
    console.log(
      `A11Y ${what}: ${failing.map((v) => `${v.id} ${v.nodes.map((n) => n.target).join(', ')}`).join(' ; ')}`,
    );
  } else if (failing.length > 0) {
    const lines = failing.flatMap((violation) => [
      `- ${violation.id} (${violation.impact}): ${violation.help}`,
      ...violation.nodes
        .slice(0, 8)
        .map((node) => `    ${node.target}\n      ${node.summary.replace(/\n\s*/g, ' / ')}`),
      ...(violation.nodes.length > 8 ? [`    … and ${violation.nodes.length - 8} more`] : []),
    ]);
    assert.fail(
      `Accessibility: ${failing.length} serious or critical axe rule(s) fail on ${what}:\n${lines.join('\n')}`,
    );
  }
  return violations.map((violation) => `${violation.id} (${violation.impact})`);
}
