/** The zod-free values of search.ts (kept apart so the web app's first download takes them without zod). */
/**
 * The search of the command palette (issue 13): one text, the best hits grouped by kind. Screens
 * are matched by the web app itself; the server answers fault codes, scans, app users and makes.
 */
export const SEARCH_PATH = '/api/search';

export const SEARCH_MAX_LENGTH = 100;

export const SEARCH_DEFAULT_LIMIT = 5;

export const SEARCH_MAX_LIMIT = 20;

/**
 * What the server took `q` for, from its shape: a fault code (`P0300`, `U0100`, also with a
 * manufacturer suffix such as `P0300-01`), a 17-character VIN, an e-mail (contains `@`), a licence
 * plate (letters and digits, with at least one of each), or free text (makes, titles…).
 */
export const SEARCH_KINDS = ['dtc', 'vin', 'email', 'plate', 'text'] as const;

export type SearchKind = (typeof SEARCH_KINDS)[number];
