import { z } from 'zod';
import { MAX_LIMIT } from './list.constants.ts';

/**
 * `page` and `limit` of every paged list. Query strings arrive as text, so both are coerced;
 * anything that is not a whole number in range is a 400 naming the parameter.
 */
export function pagingSchema(defaultLimit: number) {
  return z.object({
    page: z.coerce
      .number({ error: 'page must be a whole number of 1 or more' })
      .int('page must be a whole number of 1 or more')
      .min(1, 'page must be a whole number of 1 or more')
      .default(1),
    limit: z.coerce
      .number({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
      .int(`limit must be a whole number from 1 to ${MAX_LIMIT}`)
      .min(1, `limit must be a whole number from 1 to ${MAX_LIMIT}`)
      .max(MAX_LIMIT, `limit must be a whole number from 1 to ${MAX_LIMIT}`)
      .default(defaultLimit),
  });
}

/** An optional free-text filter: trimmed; empty means "no filter". */
export const textFilter = z
  .string()
  .trim()
  .max(200, 'filters are at most 200 characters')
  .optional()
  .transform((v) => (v ? v : undefined));

/** `true` / `false` as query text; absent or empty means "all". */
export const booleanFilter = z
  .enum(['true', 'false', ''], { error: 'must be true or false' })
  .optional()
  .transform((v) => (v === 'true' ? true : v === 'false' ? false : undefined));

export type Paging = z.infer<ReturnType<typeof pagingSchema>>;

/** Browse list response of the fault-code screens and catalogues: `{ data, total }`. */
export function dataListSchema<T extends z.ZodType>(row: T) {
  return z.object({ data: z.array(row), total: z.number().int() });
}
