import { z } from 'zod';
import { addDays, daysBetween, OVERVIEW_DEFAULT_DAYS, OVERVIEW_MAX_DAYS } from './overview.constants.ts';

/** Days are UTC calendar days written `YYYY-MM-DD`; a period is `from`…`to`, both included. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const isRealDay = (v: string) =>
  DAY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v && v >= '1970-01-01';

const dayParam = (name: 'from' | 'to') =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      if (!isRealDay(v)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a date such as 2026-03-01` });
        return z.NEVER;
      }
      return v;
    });

/**
 * `from` and `to` (both optional, ISO dates, UTC days, both included). Without `to`, the period
 * ends today; without `from`, it is the 30 days ending at `to`. `from` after `to`, or a period
 * longer than OVERVIEW_MAX_DAYS, is a 400 with a sentence.
 */
export const overviewQuerySchema = z
  .object({ from: dayParam('from'), to: dayParam('to') })
  .transform((q, ctx) => {
    const today = new Date().toISOString().slice(0, 10);
    const to = q.to ?? (q.from && q.from > today ? q.from : today);
    const from = q.from ?? addDays(to, -(OVERVIEW_DEFAULT_DAYS - 1));
    if (from > to) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: `from (${from}) must not be after to (${to})`,
      });
      return z.NEVER;
    }
    if (daysBetween(from, to) > OVERVIEW_MAX_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: `a period is at most ${OVERVIEW_MAX_DAYS} days; choose a later from or an earlier to`,
      });
      return z.NEVER;
    }
    return { from, to };
  });
export type OverviewQuery = z.infer<typeof overviewQuerySchema>;

const day = z.string().regex(DAY);
const count = z.number().int();

/** A figure of the period and the same figure over the previous period of the same length. */
export const overviewFigureSchema = z.object({ value: count, previous: count });
export type OverviewFigure = z.infer<typeof overviewFigureSchema>;

export const overviewSchema = z.object({
  /** The period answered (defaults resolved) and the one before it, of the same length. */
  period: z.object({ from: day, to: day, days: count }),
  previousPeriod: z.object({ from: day, to: day }),
  /** First and last day with any scan in the database (null without scans): lets the screen offer "all". */
  scanDays: z.object({ first: day.nullable(), last: day.nullable() }),
  figures: z.object({
    scans: overviewFigureSchema,
    specialFunctionRuns: overviewFigureSchema,
    actuationRuns: overviewFigureSchema,
    /** Distinct app users (by e-mail) with at least one scan in the period. */
    scanningUsers: overviewFigureSchema,
    /** App users created in the period. */
    newUsers: overviewFigureSchema,
    /** Imports started in the period, and those of them that failed. */
    imports: overviewFigureSchema,
    failedImports: overviewFigureSchema,
  }),
  /** One entry per day of the period (days without scans included, as zeros), oldest first. */
  scansPerDay: z.array(
    z.object({
      day,
      car: count,
      bike: count,
      three_wheeler: count,
      hcv: count,
      other: count,
    }),
  ),
  /** The 10 fault codes reported by most scans of the period; `title` from the fault-code reference (generic first). */
  topFaultCodes: z.array(z.object({ dtc: z.string(), title: z.string().nullable(), scans: count })),
  /** Scans of the period by make, the 15 with most scans, most first. `segment` null when the make is unknown. */
  scansByMake: z.array(z.object({ make: z.string(), segment: z.string().nullable(), scans: count })),
  /** Scans of the period by app version, most first (at most 20; `version` null = not recorded). */
  scansByAppVersion: z.array(z.object({ version: z.string().nullable(), scans: count })),
  /** App users now (not bound to the period), by plan and by status, most first. */
  usersByPlan: z.array(z.object({ plan: z.string(), users: count })),
  usersByStatus: z.array(z.object({ status: z.string(), users: count })),
  /**
   * Coverage functions (the coverage catalogue) per function type × make, for the 25 makes with
   * most functions. `counts[i]` belongs to `functionTypes[i]`.
   */
  coverage: z.object({
    functionTypes: z.array(z.string()),
    makes: z.array(z.object({ make: z.string(), total: count, counts: z.array(count) })),
  }),
  /** Imports started per day of the period by outcome; only days with imports, oldest first. */
  importsPerDay: z.array(
    z.object({
      day,
      succeeded: count,
      failed: count,
      /** Still running (or interrupted) imports. */
      running: count,
    }),
  ),
});
export type Overview = z.infer<typeof overviewSchema>;
