import { z } from 'zod';
import {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_KINDS,
  SEARCH_MAX_LENGTH,
  SEARCH_MAX_LIMIT,
} from './search.constants.ts';

/** `q`: trimmed, 1 to 100 characters (longer, or empty → 400); `limit`: hits per group, 1–20, default 5. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'q is required: the text to search for' })
    .trim()
    .min(1, 'q is required: the text to search for')
    .max(SEARCH_MAX_LENGTH, `q is at most ${SEARCH_MAX_LENGTH} characters`),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}` })
    .int(`limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}`)
    .min(1, `limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}`)
    .max(SEARCH_MAX_LIMIT, `limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}`)
    .default(SEARCH_DEFAULT_LIMIT),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/**
 * A group of hits: at most `limit`, `more` when there are others, and `seeAll`: the query of the
 * list that shows all of them (its parameters as the list's URL takes them), or null when no list
 * filter matches what was searched.
 */
function group<T extends z.ZodType>(hit: T) {
  return z.object({
    hits: z.array(hit),
    more: z.boolean(),
    seeAll: z.record(z.string(), z.string()).nullable(),
  });
}

/** A fault code of the reference (Fault Code List), with its title. */
export const searchFaultCodeHitSchema = z.object({
  id: z.number(),
  dtc: z.string(),
  make: z.string().nullable(),
  generic: z.boolean(),
  title: z.string().nullable(),
});
/** A scan and its vehicle; opens the scan's detail. */
export const searchScanHitSchema = z.object({
  id: z.number(),
  scan_start_time: z.string(),
  email: z.string(),
  make: z.string(),
  model: z.string().nullable(),
  vin: z.string().nullable(),
  license_plate: z.string().nullable(),
});
/** An app user (only the allow-listed fields). */
export const searchUserHitSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string().nullable(),
  plan: z.string(),
  status: z.string(),
});
/** A make of the vehicle reference. */
export const searchMakeHitSchema = z.object({ id: z.number(), name: z.string(), segment: z.string() });

export const searchResultSchema = z.object({
  /** `q` as searched (trimmed). */
  q: z.string(),
  kind: z.enum(SEARCH_KINDS),
  faultCodes: group(searchFaultCodeHitSchema),
  scans: group(searchScanHitSchema),
  users: group(searchUserHitSchema),
  makes: group(searchMakeHitSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
export type SearchFaultCodeHit = z.infer<typeof searchFaultCodeHitSchema>;
export type SearchScanHit = z.infer<typeof searchScanHitSchema>;
export type SearchUserHit = z.infer<typeof searchUserHitSchema>;
export type SearchMakeHit = z.infer<typeof searchMakeHitSchema>;
