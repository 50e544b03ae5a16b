import assert from 'node:assert/strict';
import { ADMIN, readList, sidebarLink, signIn, submitLogin, waitForPath, waitUntil } from '../lib.mjs';

export const wrongPasswordAndNarrowScreen = {
  name: "wrong password shows the server's sentence; on a phone the sidebar hides behind the menu",
  async run({ baseUrl, newPage, screenshot }) {
    const page = await newPage();
    await page.goto(`${baseUrl}/login`);
    await submitLogin(page, { email: ADMIN.email, password: 'not-the-password' });
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal((await alert.textContent())?.trim(), 'Invalid email or password');
    await waitForPath(page, '/login');
    await screenshot(page, 'login-wrong-password');

    await submitLogin(page, ADMIN);
    await waitForPath(page, '/UsersTable');

    const phone = await newPage({ viewport: { width: 390, height: 800 } });
    await signIn(phone, baseUrl);
    await phone.goto(`${baseUrl}/FaultCodeList`);
    await phone.getByRole('heading', { name: 'Fault Code List', level: 2 }).waitFor();
    const link = sidebarLink(phone, 'Fault Code Symptoms');
    assert.equal(await link.isVisible(), false, 'the sidebar is hidden on a phone');
    await screenshot(phone, 'phone-sidebar-closed');

    const menu = phone.getByRole('button', { name: 'Toggle navigation' });
    await menu.click();
    await link.waitFor({ state: 'visible' });
    // Let the sidebar finish sliding in before the screenshot.
    const sidebar = phone.getByRole('navigation', { name: 'Main navigation' });
    await waitUntil(
      async () => (await sidebar.boundingBox())?.x,
      (x) => x === 0,
      'the sidebar to slide in',
    );
    await screenshot(phone, 'phone-sidebar-open');

    await link.click();
    await waitForPath(phone, '/FaultCodeSymptoms');
    await phone.getByRole('heading', { name: 'Fault Code Symptoms', level: 2 }).waitFor();
    // Picking a screen puts the sidebar away again.
    await link.waitFor({ state: 'hidden' });
    await readList(phone);
    await screenshot(phone, 'phone-fault-code-symptoms');
  },
};
