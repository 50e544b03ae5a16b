/** The zod-free values of sort.ts (kept apart so the web app's first download takes them without zod). */
/** The two directions of a sort (decisions §9). */
export const SORT_ORDERS = ['asc', 'desc'] as const;

export type SortOrder = (typeof SORT_ORDERS)[number];

/** The fields a list sorts by: declared once per list here, read by the server's shape and the web's columns. */
export type SortFields = readonly [string, ...string[]];
