import { z } from 'zod';
import { EXPORT_FORMATS, EXPORT_QUERY_LIMITS } from './export.constants.ts';

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

/** A filter value as part of a file name; characters unsafe in file names become `-`. */
