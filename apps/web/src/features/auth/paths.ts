/** The password reset page's address (here, not in the page's module: the login page links to it). */
export const RESET_PASSWORD_PATH = '/reset-password';
