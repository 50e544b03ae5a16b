import { z } from 'zod';

/** The closed set of machine-readable error codes; each maps to one HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** A preview whose file is gone (expired, cancelled). */
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every error body: a sentence a person can act on, and a code a program can branch on. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
