import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, readList, sidebarLink, signIn, waitForPath, waitForText, waitUntil } from '../lib.mjs';
import { importAfterPreview } from './importPreview.mjs';
import { csvLines, download, EDITOR, ensureAdmin, rowAction, waitForOperator } from './operatorsShared.mjs';

export const operatorsAndAudit = {
  name: 'Operators: an admin invites an editor, who signs up through the link and uploads; demoted to viewer the upload page says why; disabled, their tab goes to login; all of it in the audit log',
  async run({ baseUrl, newPage, screenshot }) {
    await ensureAdmin(baseUrl);
    const admin = await newPage();
    await signIn(admin, baseUrl);

    // --- The admin sees their role and the admin screens.
    await admin.getByLabel('Role: Admin').waitFor();
    await sidebarLink(admin, 'Operators').click();
    await waitForPath(admin, '/Operators');
    await admin.getByRole('heading', { name: 'Operators', level: 2 }).waitFor();
    const me = await waitForOperator(admin, ADMIN.email, () => true, 'the admin listed');
    assert.equal(me.Role, 'Admin');
    assert.equal(me.Status, 'Active');
    assert.ok(Number(me['Open sessions']) >= 1, `open sessions: ${me['Open sessions']}`);
    await admin.getByRole('button', { name: 'Download CSV' }).waitFor();
    await admin.getByRole('button', { name: 'Download Excel' }).waitFor();
    await screenshot(admin, 'operators-list');
    const operatorsXlsx = await download(admin, admin.getByRole('button', { name: 'Download Excel' }));
    assert.match(operatorsXlsx.name, /^Operators_\d{4}-\d{2}-\d{2}\.xlsx$/);
    assert.equal(operatorsXlsx.bytes.subarray(0, 2).toString(), 'PK', 'an XLSX is a zip');

    // --- Invite an editor for 7 days (the default).
    const inviteForm = admin.getByRole('form', { name: 'Invite an operator' });
    assert.equal(await inviteForm.getByLabel('Expires in (days)').inputValue(), '7');
    await inviteForm.getByLabel('Role').selectOption('editor');
    await inviteForm.getByRole('button', { name: 'Create invitation' }).click();
    const linkField = inviteForm.getByLabel('Link', { exact: true });
    await linkField.waitFor();
    const link = await linkField.inputValue();
    const code = await inviteForm.getByLabel('Code', { exact: true }).inputValue();
    assert.ok(code.length >= 8, `a code: ${code}`);
    assert.equal(new URL(link).pathname, '/signup');
    assert.equal(new URL(link).searchParams.get('code'), code);
    await waitForText(admin, 'Invitation created (role: Editor)');
    await admin.getByRole('button', { name: 'Copy link' }).waitFor();
    const pending = admin.getByRole('table', { name: 'Pending invitations' });
    await pending.getByRole('cell', { name: 'Editor', exact: true }).first().waitFor();
    await screenshot(admin, 'operators-invitation');

    // --- The editor opens the link: the code is filled in; they sign up.
    const editor = await newPage();
    await editor.goto(link.replace(new URL(link).origin, baseUrl));
    await editor.getByRole('heading', { name: 'Signup' }).waitFor();
    const codeField = editor.getByLabel('Invitation code');
    await codeField.waitFor();
    assert.equal(await codeField.inputValue(), code, 'the link fills the invitation code in');
    await editor.getByLabel('Email', { exact: true }).fill(EDITOR.email);
    await editor.getByLabel('Password', { exact: true }).fill(EDITOR.password);
    await screenshot(editor, 'editor-signup-from-link');
    await editor.getByRole('button', { name: 'Signup', exact: true }).click();
    await waitForPath(editor, '/UsersTable');
    await editor.getByLabel('Role: Editor').waitFor();
    assert.equal(await sidebarLink(editor, 'Operators').count(), 0, 'no Operators link for an editor');
    assert.equal(await sidebarLink(editor, 'Audit log').count(), 0, 'no Audit log link for an editor');

    // --- The editor uploads a file.
    await sidebarLink(editor, 'Activation Codes Uploader').click();
    await waitForPath(editor, '/ActivationCodesUploader');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-operators-'));
    const csv = path.join(dir, 'editor-codes.csv');
    fs.writeFileSync(
      csv,
      'Activation Code,Plan,Duration,Vehicle\r\nE2E-EDITOR-1,Pro,12 months,Car\r\nE2E-EDITOR-2,Basic,1 month,Bike\r\n',
    );
    await editor.locator('[data-testid="file-input"]').setInputFiles(csv);
    await editor.getByRole('button', { name: 'Upload', exact: true }).click();
    await importAfterPreview(editor, 30_000);
    await screenshot(editor, 'editor-uploaded');

    // --- The admin (reloading the screen) sees the new editor and the invitation used, and makes them a viewer.
    await admin.reload();
    await waitForText(admin, 'No pending invitations.');
    const fresh = await waitForOperator(
      admin,
      EDITOR.email,
      (row) => row.Role === 'Editor',
      'the editor listed',
    );
    assert.equal(fresh.Status, 'Active');
    assert.equal(fresh['Open sessions'], '1');
    let dialog = await rowAction(admin, EDITOR.email, 'Change role');
    await dialog.getByLabel('Role').selectOption('viewer');
    await screenshot(admin, 'operators-change-role');
    await dialog.getByRole('button', { name: 'Save role' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitForOperator(admin, EDITOR.email, (row) => row.Role === 'Viewer', 'the role shown as Viewer');

    // --- The last admin cannot be demoted: the server's sentence is shown.
    dialog = await rowAction(admin, ADMIN.email, 'Change role');
    await dialog.getByLabel('Role').selectOption('editor');
    await dialog.getByRole('button', { name: 'Save role' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/last active admin/)
      .waitFor();
    await screenshot(admin, 'operators-last-admin-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // --- The (former) editor's open tab: the upload page now says why it cannot upload.
    await editor.getByRole('button', { name: 'Upload Another File' }).click();
    await sidebarLink(editor, 'Fault Codes Uploader 2').click();
    await waitForPath(editor, '/FaultCodesUploader2');
    await waitForText(editor, 'Uploading needs the editor role');
    assert.equal(
      await editor.getByRole('button', { name: 'Upload', exact: true }).count(),
      0,
      'no upload form',
    );
    await editor.getByLabel('Role: Viewer').waitFor();
    await screenshot(editor, 'viewer-upload-page-says-why');
    // An admin's screen opened by its address says why too (and is not in the sidebar).
    await editor.goto(`${baseUrl}/AuditLog`);
    await waitForText(editor, 'The audit log needs the admin role');
    assert.equal(await editor.locator('table').count(), 0, 'no audit rows for a viewer');
    await screenshot(editor, 'viewer-audit-log-says-why');

    // --- The admin disables them: their sessions end at once.
    dialog = await rowAction(admin, EDITOR.email, 'Disable');
    await dialog.getByRole('button', { name: 'Disable', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const disabled = await waitForOperator(
      admin,
      EDITOR.email,
      (row) => row.Status === 'Disabled',
      'the operator shown as Disabled',
    );
    assert.equal(disabled['Open sessions'], '0');
    await screenshot(admin, 'operators-disabled');

    // --- Their open tab's next request is refused: it is sent to the login screen.
    await sidebarLink(editor, 'Fault Code List').click();
    await waitForPath(editor, '/login?next=/FaultCodeList');
    await editor.getByRole('heading', { name: 'Login' }).waitFor();
    await waitForText(editor, 'Your session has ended. Sign in again.');
    assert.equal(await editor.evaluate(() => localStorage.getItem('token')), null, 'the token is forgotten');
    await screenshot(editor, 'disabled-tab-at-login');
    // And signing in again is refused with the generic sentence.
    await editor.getByLabel('Email', { exact: true }).fill(EDITOR.email);
    await editor.getByLabel('Password', { exact: true }).fill(EDITOR.password);
    await editor.getByRole('button', { name: 'Login', exact: true }).click();
    await waitForText(editor, 'Invalid email or password');

    // --- The audit log has all of it.
    await sidebarLink(admin, 'Audit log').click();
    await waitForPath(admin, '/AuditLog');
    await admin.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor();
    await admin.getByRole('button', { name: 'Download CSV' }).waitFor();
    await admin.getByRole('button', { name: 'Download Excel' }).waitFor();
    const all = await readList(admin, (shown) => shown.rows.length > 0, 'events');
    assert.ok(all.total >= 8, `events in all: ${all.total}`);
    await screenshot(admin, 'audit-log');

    const filters = admin.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Target').fill(EDITOR.email);
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    const aboutEditor = await readList(
      admin,
      (shown) =>
        shown.column('Action').includes('Operator disabled') &&
        shown.column('Target').every((target) => target === EDITOR.email),
      'the events whose target is the editor',
    );
    const actions = aboutEditor.column('Action');
    for (const action of ['Signed up', 'Role changed', 'Operator disabled', 'Failed sign-in']) {
      assert.ok(actions.includes(action), `"${action}" among ${actions.join(', ')}`);
    }
    assert.ok(aboutEditor.column('Target').every((target) => target === EDITOR.email));
    assert.equal(aboutEditor.total, aboutEditor.rows.length, 'an exact total');
    const roleChange = aboutEditor.rows[actions.indexOf('Role changed')];
    assert.equal(roleChange[aboutEditor.headers.indexOf('Operator')], ADMIN.email);
    assert.equal(roleChange[aboutEditor.headers.indexOf('Details')], 'editor → viewer');
    await screenshot(admin, 'audit-log-target-editor');

    // What the editor did: their e-mail in the Operator column links to the log searched for it.
    await admin
      .locator('table tbody tr')
      .filter({ hasText: 'Signed up' })
      .getByRole('link', { name: EDITOR.email, exact: true })
      .first()
      .click();
    await waitForPath(admin, `/AuditLog?operator=${encodeURIComponent(EDITOR.email)}`);
    const byEditor = await readList(
      admin,
      (shown) =>
        shown.column('Action').includes('Invitation used') &&
        shown.column('Operator').every((operator) => operator === EDITOR.email),
      'the events done by the editor',
    );
    assert.ok(byEditor.column('Operator').every((operator) => operator === EDITOR.email));
    assert.ok(byEditor.column('Action').includes('Signed up'));
    // Their upload is there too, with its file.
    const imports = byEditor.rows.filter((row) => row[byEditor.headers.indexOf('Action')] === 'Import');
    assert.equal(imports.length, 1, `one import by the editor: ${JSON.stringify(byEditor.rows)}`);
    assert.match(imports[0][byEditor.headers.indexOf('Details')], /^editor-codes\.csv/);
    await screenshot(admin, 'audit-log-by-editor');

    // The search downloads as CSV: every event of the editor, with its details as JSON.
    const auditCsv = await download(admin, admin.getByRole('button', { name: 'Download CSV' }));
    assert.match(auditCsv.name, /^Audit_Log_\d{4}-\d{2}-\d{2}_e2e-editor@example\.com\.csv$/);
    const auditLines = csvLines(auditCsv);
    assert.equal(auditLines[0], 'ID,Time,Operator,Action,Target,Details,Address,User Agent');
    assert.equal(auditLines.length - 1, byEditor.total, 'every event of the search, no more');
    assert.ok(auditLines.some((line) => line.includes(',import,') && line.includes('editor-codes.csv')));

    // The invitation the admin created.
    await filters.getByLabel('Operator').fill('');
    await filters.getByLabel('Action').selectOption('invitation-created');
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    const invitations = await readList(
      admin,
      (shown) => shown.rows.length > 0 && shown.column('Action').every((a) => a === 'Invitation created'),
      'the invitations created',
    );
    assert.ok(invitations.column('Operator').includes(ADMIN.email));

    // An event opens its details.
    await filters.getByLabel('Action').selectOption('role-changed');
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await readList(
      admin,
      (shown) => shown.rows.length > 0 && shown.column('Action').every((a) => a === 'Role changed'),
      'the role changes',
    );
    await admin.getByRole('link', { name: 'View Details' }).first().click();
    await admin.getByRole('heading', { name: 'Audit event', level: 2 }).waitFor();
    const detailsTable = admin.getByRole('table', { name: 'Details' });
    await detailsTable.getByRole('cell', { name: 'from', exact: true }).waitFor();
    await detailsTable.getByRole('cell', { name: 'viewer', exact: true }).waitFor();
    await waitForText(admin, EDITOR.email);
    await screenshot(admin, 'audit-event-details');
    await admin.getByRole('link', { name: 'Back', exact: true }).click();
    await waitUntil(
      () => new URL(admin.url()).searchParams.get('action'),
      (action) => action === 'role-changed',
      'Back to the filtered audit log',
    );
  },
};
