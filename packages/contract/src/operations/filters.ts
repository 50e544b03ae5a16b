import { z } from 'zod';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A time bound as an ISO date (`2025-03-01`) or date-time. Stored times are ISO-8601 UTC text,
 * so the bound is normalised to the same form; a date-only upper bound means the end of that day.
 */
function timeBound(edge: 'from' | 'to') {
  return z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const text = DATE_ONLY.test(v) ? `${v}T${edge === 'from' ? '00:00:00.000' : '23:59:59.999'}Z` : v;
      const time = Date.parse(text);
      if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}/.test(v)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a date such as 2025-03-01 or a date-time such as 2025-03-01T14:30:00Z',
        });
        return z.NEVER;
      }
      return new Date(time).toISOString();
    });
}

/** Start ≥ this (decisions §2). */
export const fromTime = timeBound('from');
/** End ≤ this; a date alone includes the whole day. */
export const toTime = timeBound('to');

/** A whole number compared exactly (country_id, item_number, user_car_model_id). */
export const wholeNumberFilter = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    if (!/^-?\d{1,15}$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
      return z.NEVER;
    }
    return Number(v);
  });
