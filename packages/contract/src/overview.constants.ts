/** The zod-free values of overview.ts (kept apart so the web app's first download takes them without zod). */
import { SEGMENTS } from './catalogue/makes.constants.ts';

const MS_PER_DAY = 86_400_000;

/**
 * The Overview screen's one document (issue 13): every figure of a period with its value in the
 * previous period of the same length, and every series of the screen's charts.
 */
export const OVERVIEW_PATH = '/api/overview';

/** The default period: the last 30 days, today included. */
export const OVERVIEW_DEFAULT_DAYS = 30;

/** The longest period one request may ask for (about ten years). */
export const OVERVIEW_MAX_DAYS = 3660;

/** The UTC day `days` after (or before, if negative) `day`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY) + 1;
}

/** Segments of the stacked series; `other` holds scans whose make is not in the makes table. */
export const OVERVIEW_SEGMENTS = [...SEGMENTS, 'other'] as const;

export type OverviewSegment = (typeof OVERVIEW_SEGMENTS)[number];
