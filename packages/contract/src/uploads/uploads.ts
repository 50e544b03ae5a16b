import { z } from 'zod';
import { dataListSchema, pagingSchema } from '../common/list.ts';
import { columnMappingNeededSchema, importPreviewSchema } from './importFlow.ts';
import {
  IMPORT_HISTORY_PAGE_SIZE,
  IMPORT_KINDS,
  IMPORT_PHASES,
  IMPORT_STATUSES,
} from './uploads.constants.ts';

/** One row that was not imported: the sheet, its row number as the spreadsheet shows it, and why. */
export const rowProblemSchema = z.object({ sheet: z.string(), row: z.number().int(), reason: z.string() });
export type RowProblem = z.infer<typeof rowProblemSchema>;

/** What every upload answer carries besides its own shape (decisions §7). */
const uploadExtras = {
  importId: z.number().int(),
  /** The first 100 row problems: invalid rows and duplicates. */
  errors: z.array(rowProblemSchema),
  /** Set when a file with the same content was imported before. */
  duplicateOfImportId: z.number().int().nullable(),
  /** A sentence to show when the same file was imported before. */
  warning: z.string().optional(),
  /** Set on a preview (`?preview=true`): nothing was written; the figures are what "Import" would do. */
  preview: importPreviewSchema.optional(),
  /** On an import of a preview whose figures came out different (the database changed meanwhile): how. */
  previewChanged: z.string().optional(),
};

export const updateCommandsResponseSchema = z.object({
  message: z.string(),
  stats: z.object({
    totalRowsProcessed: z.number().int(),
    insertedCount: z.number().int(),
    /** Invalid rows plus repeats within the file. */
    skippedCount: z.number().int(),
    /** The make's commands replaced. */
    deletedCount: z.number().int(),
    processingTimeMs: z.number().int(),
    rowsPerSecond: z.number().int(),
    fileName: z.string(),
    fileSize: z.number().int(),
    sheetName: z.string(),
    invalidCount: z.number().int(),
    duplicateCount: z.number().int(),
  }),
  ...uploadExtras,
});
export type UpdateCommandsResponse = z.infer<typeof updateCommandsResponseSchema>;

export const faultTableSummarySchema = z.object({
  /** Data rows of the sheet (blank rows not counted). */
  totalRows: z.number().int(),
  inserted: z.number().int(),
  /** excelDuplicates + databaseDuplicates; the two never overlap. */
  duplicates: z.number().int(),
  /** Invalid rows. */
  skipped: z.number().int(),
  /** Milliseconds spent reading and writing this sheet. */
  processingTime: z.number().int(),
  duplicateBreakdown: z.object({ excelDuplicates: z.number().int(), databaseDuplicates: z.number().int() }),
});
export type FaultTableSummary = z.infer<typeof faultTableSummarySchema>;

export const faultWorkbookResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  stats: z.object({
    totalRowsInserted: z.number().int(),
    /** Milliseconds from the end of the upload to the answer. */
    totalProcessingTime: z.number().int(),
    fileSize: z.number().int(),
    performance: z.object({
      rowsPerSecond: z.number().int(),
      /** Speed beside the previous successful upload of this kind, e.g. '1.4× the previous upload'. */
      improvement: z.string(),
    }),
  }),
  summary: z.object({
    my_fault_codes: faultTableSummarySchema,
    my_fault_code_causes: faultTableSummarySchema,
    my_fault_code_symptoms: faultTableSummarySchema,
    my_fault_code_solutions: faultTableSummarySchema,
  }),
  ...uploadExtras,
});
export type FaultWorkbookResponse = z.infer<typeof faultWorkbookResponseSchema>;

export const faultCodesResponseSchema = z.object({
  message: z.string(),
  stats: z.object({
    insertedCount: z.number().int(),
    /** Every data row not inserted: invalid rows and both kinds of duplicate. */
    skippedCount: z.number().int(),
    totalRowsProcessed: z.number().int(),
    processingTimeMs: z.number().int(),
    rowsPerSecond: z.number().int(),
    worksheetName: z.string(),
    /** The `companyId` field sent with the file, else the one company id of every row, else null. */
    companyId: z.number().int().nullable(),
    invalidCount: z.number().int(),
    duplicates: z.object({ inFile: z.number().int(), inDatabase: z.number().int() }),
  }),
  ...uploadExtras,
});
export type FaultCodesResponse = z.infer<typeof faultCodesResponseSchema>;

export const activationCodesResponseSchema = z.object({
  message: z.string(),
  totalRows: z.number().int(),
  importedRows: z.number().int(),
  invalidRows: z.number().int(),
  duplicates: z.object({
    inFile: z.number().int(),
    inDatabase: z.number().int(),
    /** Each code repeated within the file and every row it is on, the imported one first. */
    fileDuplicateDetails: z.array(z.object({ code: z.string(), rows: z.array(z.number().int()) })),
    /** Codes already stored (at most MAX_LISTED_DUPLICATES of them). */
    dbDuplicateCodes: z.array(z.string()),
  }),
  ...uploadExtras,
});
export type ActivationCodesResponse = z.infer<typeof activationCodesResponseSchema>;

/** An upload that failed: the sentence in `error` and, for upload clients, in `message`. */
export const uploadErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  code: z.string(),
  success: z.literal(false).optional(),
  importId: z.number().int().optional(),
  errors: z.array(rowProblemSchema).optional(),
  /** A required column was not found: what the page needs to let the operator map it. */
  mapping: columnMappingNeededSchema.optional(),
});
export type UploadError = z.infer<typeof uploadErrorSchema>;

export const importRecordSchema = z.object({
  id: z.number().int(),
  kind: z.enum(IMPORT_KINDS),
  operator: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  fileName: z.string(),
  fileSize: z.number().int(),
  fileHash: z.string(),
  status: z.enum(IMPORT_STATUSES),
  phase: z.enum(IMPORT_PHASES).nullable(),
  /** 0–100 over reading and writing. */
  progress: z.number().int(),
  /** Data rows read so far (reading), or written so far (writing). */
  rowsProcessed: z.number().int(),
  /** Rows to write, known once the file has been read. */
  rowsTotal: z.number().int().nullable(),
  message: z.string().nullable(),
  /** The upload's answer statistics once finished. */
  stats: z.record(z.string(), z.unknown()).nullable(),
  errorCount: z.number().int(),
  duplicateOfImportId: z.number().int().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Set once the import was undone (status 'undone'): its rows were removed then. */
  undoneAt: z.string().nullable().optional(),
});
export type ImportRecord = z.infer<typeof importRecordSchema>;

export const importDetailSchema = importRecordSchema.extend({ errors: z.array(rowProblemSchema) });
export type ImportDetail = z.infer<typeof importDetailSchema>;

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z
    .union([z.enum(values), z.literal('')], { error: `${name} must be one of ${values.join(', ')}` })
    .optional()
    .transform((v) => (v ? (v as T[number]) : undefined));

export const importHistoryQuerySchema = pagingSchema(IMPORT_HISTORY_PAGE_SIZE).extend({
  kind: optionalEnum(IMPORT_KINDS, 'kind'),
  status: optionalEnum(IMPORT_STATUSES, 'status'),
  /** Started on this day, UTC (issue 13: a bar of the Overview's imports per day). */
  day: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))), {
      message: 'day must be a date such as 2025-03-01',
    }),
});
export type ImportHistoryQuery = z.infer<typeof importHistoryQuerySchema>;

export const importHistorySchema = dataListSchema(importRecordSchema);
export type ImportHistory = z.infer<typeof importHistorySchema>;

export const importIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'id must be a whole number' })
    .int('id must be a whole number')
    .min(1, 'id must be a whole number'),
});
