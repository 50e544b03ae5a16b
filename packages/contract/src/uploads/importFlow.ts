import { z } from 'zod';
import { MAPPING_LIMITS } from './importFlow.constants.ts';

/**
 * Issue 15, the flow around an import: a preview before anything is written, the problem rows
 * back as a file, and columns mapped by hand when a required one is not found by its name.
 */

/** The figures of one sheet of a preview: what the import would do with its rows. */
export const previewSheetSchema = z.object({
  sheet: z.string(),
  /** Data rows (blank rows not counted). */
  totalRows: z.number().int(),
  /** Rows that would be inserted. */
  newRows: z.number().int(),
  inFileDuplicates: z.number().int(),
  databaseDuplicates: z.number().int(),
  invalidRows: z.number().int(),
});
export type PreviewSheet = z.infer<typeof previewSheetSchema>;

/** What a preview answer adds to the upload's own answer (whose figures say "would"). */
export const importPreviewSchema = z.object({
  /** When the stored file goes: "Import" after this answers 410. */
  expiresAt: z.string(),
  sheets: z.array(previewSheetSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** A field the upload still needs a column for, or may take one for. */
export const mappingFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  required: z.boolean(),
});
export type MappingField = z.infer<typeof mappingFieldSchema>;

/**
 * The 400 of an upload whose sheet lacks a required column (besides `error` and `code`): the
 * headers of the file, the fields still needed, every field the sheet can take, and the mapping
 * remembered for this set of headers, if any, to offer.
 */
export const columnMappingNeededSchema = z.object({
  sheet: z.string(),
  /** The header row's non-empty cells, in file order. */
  headers: z.array(z.string()),
  /** The required fields no header matched. */
  missing: z.array(mappingFieldSchema),
  fields: z.array(mappingFieldSchema),
  /** field key → header, remembered from an earlier upload with the same headers. */
  remembered: z.record(z.string(), z.string()).nullable(),
});
export type ColumnMappingNeeded = z.infer<typeof columnMappingNeededSchema>;

export const columnMappingSchema = z
  .record(
    z.string().min(1).max(MAPPING_LIMITS.keyLength),
    z.string().trim().min(1, 'a mapped header may not be empty').max(MAPPING_LIMITS.headerLength),
  )
  .refine((m) => Object.keys(m).length <= MAPPING_LIMITS.fields, {
    error: `a mapping names at most ${MAPPING_LIMITS.fields} fields`,
  });
export type ColumnMapping = z.infer<typeof columnMappingSchema>;

/** `?preview=true` on an upload route. */
export const uploadQuerySchema = z.object({
  preview: z
    .enum(['true', 'false', '1', '0', ''], { error: 'preview must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const importCancelledSchema = z.object({ id: z.number().int(), message: z.string() });
