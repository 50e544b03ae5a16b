/** The zod-free values of importUndo.ts (kept apart so the web app's first download takes them without zod). */
/** `POST /api/imports/:id/undo` (editor): removes exactly the rows an import inserted (issue 15). */
export const importUndoPath = (id: number) => `/api/imports/${id}/undo`;
