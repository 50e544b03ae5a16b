import { z } from 'zod';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Bounds of an export request's `query` (the list's filters, stored with the download link). */
export const EXPORT_QUERY_LIMITS = { filters: 40, nameLength: 60, valueLength: 1000 } as const;

/**
 * Asks for a download of a list with its current filters. The answer is a short-lived,
 * single-use link the browser opens natively (decisions §6): the bearer token never goes in a URL.
 */
export const exportRequestSchema = z.object({
  list: z.string().min(1).max(60),
  format: z.enum(EXPORT_FORMATS, { error: 'format must be csv, xlsx or pdf' }),
  // Stored with the link until it is used: bounded like a list's own query string.
  query: z
    .record(
      z.string(),
      z.string().max(EXPORT_QUERY_LIMITS.valueLength, {
        error: `a filter value may be at most ${EXPORT_QUERY_LIMITS.valueLength} characters long; shorten it`,
      }),
    )
    .refine((query) => Object.keys(query).length <= EXPORT_QUERY_LIMITS.filters, {
      error: `an export takes at most ${EXPORT_QUERY_LIMITS.filters} filters`,
    })
    .refine((query) => Object.keys(query).every((name) => name.length <= EXPORT_QUERY_LIMITS.nameLength), {
      error: `a filter name may be at most ${EXPORT_QUERY_LIMITS.nameLength} characters long`,
    })
    .default({}),
  /**
   * Only these columns, in this order (the list's visible columns, issue 12); every column of the
   * export when absent. Each must be one of the export's declared column headers.
   */
  columns: z
    .array(
      z.string().min(1, 'a column name may not be empty').max(100, 'a column name is at most 100 characters'),
    )
    .min(1, 'columns names at least one column; leave it out for every column')
    .max(80, 'columns names at most 80 columns')
    .optional(),
});
export type ExportRequest = z.infer<typeof exportRequestSchema>;

export const exportTicketSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type ExportTicket = z.infer<typeof exportTicketSchema>;

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

/** A filter value as part of a file name; characters unsafe in file names become `-`. */
const safePart = (s: string | undefined) => (s?.trim() ? s.trim().replace(/[^\w.@+-]+/g, '-') : undefined);
