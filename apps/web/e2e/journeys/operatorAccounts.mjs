import assert from 'node:assert/strict';
import { ADMIN, readList, sidebarLink, signIn, waitForPath, waitForText, waitUntil } from '../lib.mjs';
import { EDITOR, ensureAdmin, rowAction, settled, waitForOperator } from './operatorsShared.mjs';

export const operatorAccounts = {
  name: 'Operators and their accounts (after the operators journey): the admin enables the disabled editor and issues a password reset code, which the editor uses from the login page; my account: own sessions and a password change; the admin ends one of their sessions; all of it, and the exports, in the audit log; the Operators screen on a phone',
  async run({ baseUrl, newPage, screenshot }) {
    await ensureAdmin(baseUrl);
    const admin = await newPage();
    await signIn(admin, baseUrl);
    // The editor's tab, on the login page where the operators journey left it (disabled).
    const editor = await newPage();
    await editor.goto(`${baseUrl}/login`);
    const filters = admin.getByRole('form', { name: 'Filters' });
    let dialog;

    // --- The admin enables the operator again and issues a password reset code.
    await sidebarLink(admin, 'Operators').click();
    await waitForPath(admin, '/Operators');
    dialog = await rowAction(admin, EDITOR.email, 'Enable');
    await dialog.getByRole('button', { name: 'Enable', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitForOperator(admin, EDITOR.email, (row) => row.Status === 'Active', 'the operator active again');
    dialog = await rowAction(admin, EDITOR.email, 'Issue password reset code');
    await dialog.getByRole('button', { name: 'Issue code', exact: true }).click();
    const resetField = dialog.getByLabel('Code', { exact: true });
    await resetField.waitFor();
    const resetCode = await resetField.inputValue();
    await dialog.getByText(/^Expires .* \(in 24 hours\)\.$/).waitFor();
    await dialog.getByRole('button', { name: 'Copy code' }).waitFor();
    await screenshot(admin, 'operators-reset-code');
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();

    // --- The operator resets their password with it, from the login page.
    await editor.getByRole('link', { name: 'Have a reset code? Reset your password' }).click();
    await waitForPath(editor, '/reset-password');
    await editor.getByRole('heading', { name: 'Reset password' }).waitFor();
    const newPassword = 'e2e-new-password-1';
    await editor.getByLabel('Email', { exact: true }).fill(EDITOR.email);
    await editor.getByLabel('Reset code', { exact: true }).fill('WRONG-CODE');
    await editor.getByLabel('New password', { exact: true }).fill(newPassword);
    await editor.getByRole('button', { name: 'Reset password', exact: true }).click();
    await editor
      .getByRole('alert')
      .getByText(/reset code does not work/)
      .waitFor();
    await editor.getByLabel('Reset code', { exact: true }).fill(resetCode);
    await screenshot(editor, 'reset-password');
    await editor.getByRole('button', { name: 'Reset password', exact: true }).click();
    await waitForPath(editor, '/login');
    await waitForText(editor, 'Your password is changed. Sign in with the new one.');
    await screenshot(editor, 'reset-password-done');
    await editor.getByLabel('Email', { exact: true }).fill(EDITOR.email);
    await editor.getByLabel('Password', { exact: true }).fill(newPassword);
    await editor.getByRole('button', { name: 'Login', exact: true }).click();
    await editor.getByLabel('Role: Viewer').waitFor();

    // --- My account: own sessions (this one marked), and a password change.
    await editor.getByRole('link', { name: 'My account' }).click();
    await waitForPath(editor, '/account');
    await editor.getByRole('heading', { name: 'My account', level: 2 }).waitFor();
    const sessions = editor.getByRole('table', { name: 'My sessions' });
    await sessions.getByText('This session').waitFor();
    assert.equal(await sessions.locator('tbody tr').count(), 1, 'the reset ended every other session');
    await sessions.getByText(/^Chrome \d+ on Linux$/).waitFor();
    const changeForm = editor.getByRole('form', { name: 'Change password' });
    await changeForm.getByLabel('Current password').fill('not my password');
    await changeForm.getByLabel('New password').fill('e2e-new-password-2');
    await changeForm.getByRole('button', { name: 'Change password' }).click();
    await changeForm
      .getByRole('alert')
      .getByText(/current password is not right/)
      .waitFor();
    await changeForm.getByLabel('Current password').fill(newPassword);
    await changeForm.getByLabel('New password').fill('e2e-new-password-2');
    await changeForm.getByRole('button', { name: 'Change password' }).click();
    await waitForText(
      editor,
      'Your password is changed. Every other session of yours has ended; this one goes on.',
    );
    await settled(changeForm, 'the form to settle');
    await screenshot(editor, 'my-account');

    // --- The admin's own sessions: this browser's and others (earlier sign-ins); one is ended.
    await admin.getByRole('link', { name: 'My account' }).click();
    await waitForPath(admin, '/account');
    const adminSessions = admin.getByRole('table', { name: 'My sessions' });
    await adminSessions.getByText('This session').waitFor();
    const before = await adminSessions.locator('tbody tr').count();
    assert.ok(before >= 2, `the admin has another session (${before})`);
    await screenshot(admin, 'my-account-sessions');
    await adminSessions
      .getByRole('button', { name: /^End the session started / })
      .first()
      .click();
    await waitUntil(
      () => adminSessions.locator('tbody tr').count(),
      (count) => count === before - 1,
      'one session fewer',
    );
    await adminSessions.getByText('This session').waitFor();

    // --- Both are in the audit log.
    await sidebarLink(admin, 'Audit log').click();
    await filters.getByLabel('Action').selectOption('');
    await filters.getByLabel('Target').fill(EDITOR.email);
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await readList(
      admin,
      (shown) =>
        ['Password reset code issued', 'Password reset', 'Password changed', 'Operator enabled'].every((a) =>
          shown.column('Action').includes(a),
        ),
      'the reset and the password change',
    );
    // The downloads are recorded too: the admin's two exports.
    await filters.getByLabel('Target').fill('');
    await filters.getByLabel('Action').selectOption('export');
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    const exports = await readList(
      admin,
      (shown) =>
        shown.column('Action').every((a) => a === 'Export') &&
        ['operators', 'audit'].every((list) => shown.column('Target').includes(list)),
      'the exports',
    );
    // (Run after the other journeys, the admin's earlier downloads are listed as well.)
    for (const list of ['operators', 'audit']) {
      assert.ok(exports.column('Target').includes(list), `an export of ${list}: ${exports.column('Target')}`);
    }
    assert.ok(exports.column('Operator').every((operator) => operator === ADMIN.email));
    await screenshot(admin, 'audit-log-exports');

    // --- On a phone: the Operators screen and the invite form fit the width (the table scrolls).
    const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone, baseUrl);
    await phone.goto(`${baseUrl}/Operators`);
    await phone.getByRole('table', { name: 'Operators' }).waitFor();
    await phone.getByRole('form', { name: 'Invite an operator' }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page does not scroll sideways (${overflow}px too wide)`);
    await screenshot(phone, 'phone-operators');
  },
};
