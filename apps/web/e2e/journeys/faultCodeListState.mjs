import assert from 'node:assert/strict';
import {
  ADMIN,
  pagerButton,
  pathOf,
  readList,
  sidebarLink,
  signIn,
  submitLogin,
  waitForPath,
} from '../lib.mjs';

export const faultCodeListState = {
  name: 'Fault Code List: filter, page, reload, Back, sidebar memory, expired session',
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await signIn(page, baseUrl);

    await sidebarLink(page, 'Fault Code List').click();
    await waitForPath(page, '/FaultCodeList');
    // The address changes a moment before the screen does: wait for this screen's own heading.
    await page.getByRole('heading', { name: 'Fault Code List', level: 2 }).waitFor();
    let list = await readList(page);
    assert.equal(list.page, 1);
    assert.ok(list.pages > 1, 'the demo data spans several pages');
    assert.equal(list.rows.length, 30);
    assert.equal(await sidebarLink(page, 'Fault Code List').getAttribute('aria-current'), 'page');
    await screenshot(page, 'fault-code-list-from-sidebar');

    // A DTC fragment among the generic codes.
    const dtc = page.getByLabel('DTC Code');
    const generic = page.getByLabel('Generic', { exact: true });
    await dtc.fill('P03');
    await generic.selectOption('true');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/FaultCodeList?dtc=P03&generic=true');
    const showsP03 = (shown) => shown.column('DTC').every((code) => code.includes('P03'));
    list = await readList(page, showsP03, 'every DTC to contain P03');
    assert.equal(list.page, 1);
    assert.ok(list.pages >= 2, `P03 generic codes span several pages (got ${list.pages})`);
    assert.ok(
      list.column('Generic').every((flag) => flag === 'Yes'),
      'only generic codes',
    );
    assert.ok(
      list.column('Company ID').every((id) => id === '0'),
      'generic codes show company id 0',
    );
    const pages = list.pages;

    await pagerButton(page, 'Next').click();
    await waitForPath(page, '/FaultCodeList?dtc=P03&generic=true&page=2');
    list = await readList(page);
    assert.equal(list.page, 2);
    assert.equal(await pagerButton(page, 'Page 2').getAttribute('aria-current'), 'page');
    await screenshot(page, 'fault-code-list-p03-page-2');

    await page.reload();
    list = await readList(page);
    assert.equal(pathOf(page), '/FaultCodeList?dtc=P03&generic=true&page=2');
    assert.equal(list.page, 2);
    assert.equal(list.pages, pages);
    await page.getByText(`Page 2 of ${pages}`, { exact: true }).waitFor();
    assert.equal(await dtc.inputValue(), 'P03');
    assert.equal(await generic.inputValue(), 'true');

    await page.goBack();
    await waitForPath(page, '/FaultCodeList?dtc=P03&generic=true');
    list = await readList(page);
    assert.equal(list.page, 1);
    assert.equal(await dtc.inputValue(), 'P03');

    // A make among the manufacturer codes: Honda.
    await dtc.fill('');
    await generic.selectOption('');
    await page.getByRole('combobox', { name: 'Make', exact: true }).fill('honda');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForPath(page, '/FaultCodeList?make=honda');
    const showsHonda = (shown) => shown.column('Make').every((make) => make === 'Honda');
    list = await readList(page, showsHonda, 'only Honda codes');
    assert.ok(list.total > 30, `Honda has more than one page of codes (got ${list.total})`);
    assert.ok(
      list.column('Generic').every((flag) => flag === 'No'),
      'manufacturer codes are not generic',
    );
    await screenshot(page, 'fault-code-list-honda');

    // Typed but not searched: paging keeps the search, and the form shows it again.
    await dtc.fill('P99');
    await pagerButton(page, 'Page 2').click();
    await waitForPath(page, '/FaultCodeList?make=honda&page=2');
    list = await readList(page);
    assert.ok(list.column('Make').every((make) => make === 'Honda'));
    assert.equal(await dtc.inputValue(), '');

    // The sidebar brings the operator back to where they left the list.
    await sidebarLink(page, 'Fault Code Causes').click();
    await waitForPath(page, '/FaultCodeCauses');
    await page.getByRole('heading', { name: 'Fault Code Causes', level: 2 }).waitFor();
    assert.ok((await readList(page)).headers.includes('Causes'));
    await sidebarLink(page, 'Fault Code List').click();
    await waitForPath(page, '/FaultCodeList?make=honda&page=2');
    await page.getByRole('heading', { name: 'Fault Code List', level: 2 }).waitFor();
    list = await readList(page);
    assert.equal(list.page, 2);
    assert.ok(list.column('Make').every((make) => make === 'Honda'));
    assert.equal(await page.getByRole('combobox', { name: 'Make', exact: true }).inputValue(), 'honda');

    // An expired or revoked token: back to login, and after sign-in back to this very page.
    await page.evaluate(() => localStorage.setItem('token', 'revoked-token'));
    await page.reload();
    await waitForPath(page, '/login?next=/FaultCodeList%3Fmake%3Dhonda%26page%3D2');
    await submitLogin(page, ADMIN);
    await waitForPath(page, '/FaultCodeList?make=honda&page=2');
    assert.equal((await readList(page)).page, 2);
  },
};
