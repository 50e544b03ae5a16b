/** The zod-free values of views.ts (kept apart so the web app's first download takes them without zod). */
export const LIST_PREFERENCES_PATH = '/api/preferences/lists';

/** `GET` / `PUT /api/preferences/lists/:list`. */
export const listPreferencesPath = (list: string) => `${LIST_PREFERENCES_PATH}/${encodeURIComponent(list)}`;

export const SAVED_VIEWS_PATH = '/api/views';

/** `GET` / `PATCH` / `DELETE /api/views/:id`. */
export const savedViewPath = (id: number) => `${SAVED_VIEWS_PATH}/${id}`;

export const LIST_VIEW_LIMITS = {
  listKeyLength: 80,
  /** Columns of one list a layout may name (the widest list has about 20). */
  columns: 80,
  columnLength: 100,
  nameLength: 80,
  /** The view's address query (filters and sort): a long address is still far below this. */
  queryLength: 4000,
  /** Views an operator may own per list. */
  viewsPerList: 100,
} as const;

export const DENSITIES = ['comfortable', 'compact'] as const;
