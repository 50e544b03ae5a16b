import { useLayoutEffect } from 'react';
import { useLocation } from './navigation.tsx';
import { screenAt } from './screens.tsx';

export const PRODUCT_NAME = 'OBD Admin';

/**
 * The titles of the public pages (router.tsx's first routes); `/reset-password` is spelt out, not
 * imported, so that this module does not pull that page's code along (documentTitle.test.ts checks it).
 */
export const PUBLIC_PAGE_TITLES: Readonly<Record<string, string>> = {
  '/': 'Login',
  '/login': 'Login',
  '/signup': 'Signup',
  '/reset-password': 'Reset password',
};

/**
 * The browser tab's title at `pathname`: the screen's (the screens table's `title`, else its
 * sidebar label) and the product, e.g. 'Cars Scans · OBD Admin'. Matched without regard to case, as
 * the router matches.
 */
export function documentTitleAt(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const screen = screenAt(path);
  const page = screen ? screen.label : (PUBLIC_PAGE_TITLES[path.toLowerCase()] ?? 'Page not found');
  return `${page} · ${PRODUCT_NAME}`;
}

/**
 * Keeps `document.title` on the current page, for every page in one place (no screen sets its own):
 * on the first draw and after every navigation.
 */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.title = documentTitleAt(pathname);
  }, [pathname]);
}
