/** The zod-free values of uploads.ts (kept apart so the web app's first download takes them without zod). */
const MB = 1024 * 1024;

/** The upload endpoints, verbatim with their sic spellings (decisions §1). */
export const UPLOAD_PATHS = {
  updateCommands: '/api/UpdatesCommands',
  faultWorkbook: '/api/FaultUplodes',
  faultCodes: '/api/faultCodes',
  activationCodes: '/api/uplodeactivationcode',
} as const;

/** Import history and progress polling. */
export const IMPORTS_PATH = '/api/imports';

/** The upload size limits the server enforces while streaming (decisions §7): over them → 413. */
export const UPLOAD_LIMITS = {
  updateCommands: 10 * MB,
  faultWorkbook: 100 * MB,
  faultCodes: 50 * MB,
  activationCodes: 10 * MB,
} as const;

/** The kind of an import, as recorded in the history, one per upload endpoint. */
export const IMPORT_KINDS = ['update_commands', 'fault_workbook', 'fault_codes', 'activation_codes'] as const;

export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  update_commands: 'Update commands',
  fault_workbook: 'Fault Codes Bulk Uploader',
  fault_codes: 'Fault Codes Excel Importer',
  activation_codes: 'Activation codes',
};

/** A preview (issue 15) waits for "Import" (then runs), or was cancelled, or expired unimported. */
/** 'undone': its rows were removed by an undo (issue 15). */
export const IMPORT_STATUSES = [
  'running',
  'succeeded',
  'failed',
  'undone',
  'preview',
  'cancelled',
  'expired',
] as const;

export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * While running, an import first reads and checks the whole file (`reading`), then writes it in
 * one transaction (`writing`). `progress` is a percentage over both phases.
 */
export const IMPORT_PHASES = ['reading', 'writing', 'done'] as const;

export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** The sheets of the Fault Codes Bulk Uploader workbook, in the order they are imported. */
export const FAULT_WORKBOOK_SHEETS = ['fault_descriptions', 'causes', 'symptoms', 'solutions'] as const;

/** How many row problems a response and an import record keep (decisions §7). */
export const MAX_ROW_ERRORS = 100;

export const FAULT_SUMMARY_KEYS = [
  'my_fault_codes',
  'my_fault_code_causes',
  'my_fault_code_symptoms',
  'my_fault_code_solutions',
] as const;

/** How many database-duplicate codes an activation answer lists (the count is always exact). */
export const MAX_LISTED_DUPLICATES = 1000;

export const IMPORT_HISTORY_PAGE_SIZE = 20;
