import assert from 'node:assert/strict';
import { readList, sidebarLink, signIn, waitForPath, waitForText } from '../lib.mjs';

const TEXT_COLUMNS = (text) => ['ID', 'DTC', text, 'Language', 'Make', 'Company ID', 'Generic'];

const BROWSERS = [
  { label: 'Fault Code Symptoms', path: '/FaultCodeSymptoms', headers: TEXT_COLUMNS('Symptom') },
  { label: 'Fault Code Solutions', path: '/FaultCodeSolutions', headers: TEXT_COLUMNS('Solution') },
  { label: 'Fault Code Causes', path: '/FaultCodeCauses', headers: TEXT_COLUMNS('Causes') },
  {
    label: 'Fault Code List',
    path: '/FaultCodeList',
    headers: ['ID', 'DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'],
  },
];

export const faultCodeBrowsers = {
  name: 'the four fault-code browsers: columns, first page, empty search',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    for (const browser of BROWSERS) {
      await sidebarLink(page, browser.label).click();
      await waitForPath(page, browser.path);
      await page.getByRole('heading', { name: browser.label, level: 2 }).waitFor();
      const list = await readList(page);
      assert.deepEqual(list.headers, browser.headers, `${browser.label} columns`);
      assert.equal(list.page, 1);
      assert.ok(list.rows.length > 0 && list.rows.length <= 30, `${browser.label} shows its first page`);
      await waitForText(page, `${list.rows.length} items`);
      await waitForText(page, `Current Page Items: ${list.rows.length}`);
      await screenshot(page, slug(browser.label));
    }

    const severities = new Set((await readList(page)).column('Severity'));
    assert.ok(
      [...severities].every((word) => ['Low', 'Medium', 'High', 'Unknown', '-'].includes(word)),
      [...severities].join(),
    );

    await sidebarLink(page, 'Fault Code Causes').click();
    await page.getByRole('heading', { name: 'Fault Code Causes', level: 2 }).waitFor();
    await readList(page);
    await page.getByLabel('DTC Code').fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/FaultCodeCauses?dtc=NO-SUCH-CODE');
    await waitForText(page, 'No causes found for the specified criteria.');
    await waitForText(page, 'Try searching with different criteria');
    await waitForText(page, '0 items');
    assert.equal(await page.getByRole('navigation', { name: 'Pagination' }).count(), 0);
    await screenshot(page, 'fault-code-causes-empty');
  },
};

function slug(label) {
  return label.toLowerCase().replaceAll(' ', '-');
}
