import { z } from 'zod';

/** `POST /api/imports/:id/undo` (editor): removes exactly the rows an import inserted (issue 15). */
export const importUndoPath = (id: number) => `/api/imports/${id}/undo`;

export const importUndoResponseSchema = z.object({
  importId: z.number().int(),
  /** Rows of the import removed. */
  removed: z.number().int(),
  /** Rows the import had replaced (Update commands), put back. */
  restored: z.number().int(),
  message: z.string(),
  undoneAt: z.string(),
});
export type ImportUndoResponse = z.infer<typeof importUndoResponseSchema>;
