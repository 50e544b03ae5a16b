/** The zod-free values of list.ts (kept apart so the web app's first download takes them without zod). */
/** Largest page a client may ask for (decisions §1). */
export const MAX_LIMIT = 1000;
