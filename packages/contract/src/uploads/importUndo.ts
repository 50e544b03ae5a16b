import { z } from 'zod';

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
