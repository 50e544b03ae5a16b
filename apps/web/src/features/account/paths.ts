/**
 * The address of My account, on its own: the layout's header links to it on every screen, and
 * importing it from AccountScreen.tsx would put that screen's code in every screen's download.
 */
export const ACCOUNT_PATH = '/account';
