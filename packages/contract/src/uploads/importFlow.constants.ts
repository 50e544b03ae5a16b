/** The zod-free values of importFlow.ts (kept apart so the web app's first download takes them without zod). */
/** `POST /api/imports/:id/commit`: imports a preview's stored file. */
export const importCommitPath = (id: number) => `/api/imports/${id}/commit`;

/** `DELETE /api/imports/:id`: cancels a preview. */
export const importPath = (id: number) => `/api/imports/${id}`;

/** `POST` → a single-use link; `GET ?ticket=` → the .xlsx of every problem row. */
export const importProblemsPath = (id: number) => `/api/imports/${id}/problems`;

/** How long a preview's file is kept for its "Import". */
export const PREVIEW_TTL_MINUTES = 30;

/** Previews an operator may have waiting; a newer one cancels the oldest. */
export const MAX_WAITING_PREVIEWS = 5;

/** Problem rows an import keeps for its problems file (each with its cells as the file had them). */
export const MAX_STORED_PROBLEMS = 100_000;

/** The multipart field `mapping`: JSON of field key → the file's header to read it from. */
export const MAPPING_LIMITS = { fields: 40, keyLength: 60, headerLength: 200 } as const;
