import { z } from 'zod';
import { textFilter } from '../common/list.ts';

/** A model year filter: four digits; the command's [from_year, to_year] must contain it. */
export const yearFilter = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    if (!/^\d{4}$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'year must be a four-digit year such as 2019' });
      return z.NEVER;
    }
    return Number(v);
  });

/** Make, model, year: the filters of every command catalogue (decisions §2: exact, case-insensitive). */
export const vehicleFilters = { make: textFilter, model: textFilter, year: yearFilter };
