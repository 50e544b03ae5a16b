import { z } from 'zod';

/** Every error body: a sentence a person can act on, and a code a program can branch on. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
