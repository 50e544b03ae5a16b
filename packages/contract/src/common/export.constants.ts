/** The zod-free values of export.ts (kept apart so the web app's first download takes them without zod). */
const safePart = (s: string | undefined) => (s?.trim() ? s.trim().replace(/[^\w.@+-]+/g, '-') : undefined);

export const EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Bounds of an export request's `query` (the list's filters, stored with the download link). */
export const EXPORT_QUERY_LIMITS = { filters: 40, nameLength: 60, valueLength: 1000 } as const;

export const EXPORTS_PATH = '/api/exports';

export const DOWNLOADS_PATH = '/api/downloads';

/** `YYYY-MM-DD` of a date in UTC: the date part of every export file name (spec §9). */
export const fileDate = (date = new Date()) => date.toISOString().slice(0, 10);

/**
 * An export file name from its parts, e.g. `Coverage_Data_Honda_2026-11-22.xlsx`: empty
 * filters become `All`, and characters that are unsafe in a file name become `-`.
 */
export function exportFileName(
  prefix: string,
  parts: (string | undefined)[],
  ext: ExportFormat,
  date = new Date(),
) {
  return `${[prefix, ...parts.map((p) => safePart(p) ?? 'All'), fileDate(date)].join('_')}.${ext}`;
}

/**
 * The other naming of spec §9: date first, then only the filters in use, e.g.
 * `Odometer_Details_2026-11-22_Honda_2019.csv` (or `Odometer_Details_2026-11-22.csv` unfiltered).
 */
export function exportFileNameDateFirst(
  prefix: string,
  filters: (string | number | undefined)[],
  ext: ExportFormat,
  date = new Date(),
) {
  const used = filters.map((f) => safePart(f === undefined ? undefined : String(f))).filter(Boolean);
  return `${[prefix, fileDate(date), ...used].join('_')}.${ext}`;
}
