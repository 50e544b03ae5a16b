import { z } from 'zod';
import type { SortFields, SortOrder } from './sort.constants.ts';

/**
 * `sort=<field>&order=asc|desc` of a list that sorts by `fields` (decisions §9). Absent or empty
 * `sort` means the list's own order; `order` defaults to ascending. A field the list does not
 * sort by is a 400 naming it and listing the ones it does.
 */
export function sortSchema<const F extends SortFields>(fields: F) {
  return z.object({
    sort: z
      .string()
      .trim()
      .optional()
      .transform((v, ctx) => {
        if (!v) return undefined;
        if (!(fields as readonly string[]).includes(v)) {
          ctx.addIssue({
            code: 'custom',
            message: `this list cannot be sorted by "${v.slice(0, 60)}"; sort by one of ${fields.join(', ')}`,
          });
          return z.NEVER;
        }
        return v as F[number];
      }),
    order: z
      .enum(['asc', 'desc', ''], { error: 'order must be asc or desc' })
      .optional()
      .transform((v): SortOrder | undefined => (v ? v : undefined)),
  });
}

/** The sort of a query: a field of the list and a direction, or none (the list's own order). */
export interface SortQuery<F extends string = string> {
  sort?: F | undefined;
  order?: SortOrder | undefined;
}
