import { describe, expect, it } from 'vitest';
import { RESET_PASSWORD_PATH } from '../features/auth/ResetPasswordPage.tsx';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { documentTitleAt, PUBLIC_PAGE_TITLES, useDocumentTitle } from './documentTitle.ts';
import { SCREENS } from './screens.tsx';

describe('document title', () => {
  it('names the public pages', () => {
    expect(documentTitleAt('/')).toBe('Login · OBD Admin');
    expect(documentTitleAt('/login')).toBe('Login · OBD Admin');
    expect(documentTitleAt('/signup')).toBe('Signup · OBD Admin');
    expect(documentTitleAt(RESET_PASSWORD_PATH)).toBe('Reset password · OBD Admin');
    expect(PUBLIC_PAGE_TITLES[RESET_PASSWORD_PATH]).toBe('Reset password');
  });

  it("takes every screen's title from the screens table: lists, details, uploads, admin screens", () => {
    for (const screen of SCREENS) expect(documentTitleAt(screen.path)).toBe(`${screen.label} · OBD Admin`);
    expect(documentTitleAt('/ObdScanReport')).toBe('Cars Scans · OBD Admin');
    expect(documentTitleAt('/ObdScanReport/details')).toBe('Scan Details · OBD Admin');
    expect(documentTitleAt('/ActivationCodesUploader')).toBe('Activation Codes Uploader · OBD Admin');
  });

  it('matches as the router does (any case, a trailing slash) and names an unknown address', () => {
    expect(documentTitleAt('/obdscanreport/')).toBe('Cars Scans · OBD Admin');
    expect(documentTitleAt('/LOGIN')).toBe('Login · OBD Admin');
    expect(documentTitleAt('/NoSuchScreen')).toBe('Page not found · OBD Admin');
  });

  it("follows the router's navigations", async () => {
    const { router } = renderRoutes([{ path: '*', element: <KeepTitle /> }], '/signup');
    expect(document.title).toBe('Signup · OBD Admin');
    await router.navigate('/FaultCodeList?page=2');
    expect(document.title).toBe('Fault Code List · OBD Admin');
    await router.navigate('/AuditLog/details?id=3');
    expect(document.title).toBe('Audit event · OBD Admin');
  });
});

function KeepTitle() {
  useDocumentTitle();
  return null;
}
