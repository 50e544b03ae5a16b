/** The zod-free values of runs.ts (kept apart so the web app's first download takes them without zod). */
/** Scans, special-function runs and actuation runs: 30 a page (spec §9). */
export const RUNS_PAGE_SIZE = 30;

export const SCANS_PATH = '/api/ScanDetail';

/** The columns the scans list sorts by (decisions §9); without `sort`, newest start first. */
export const SCAN_SORT_FIELDS = [
  'id',
  'email',
  'scan_start_time',
  'scan_end_time',
  'model',
  'license_plate',
  'vin',
  'scan_ended',
  'make',
  'country_id',
  'function',
  'type',
  'app_version',
] as const;

export const SPECIAL_FUNCTIONS_PATH = '/api/SpecialFunctions';

/** The columns the special-functions list sorts by; without `sort`, newest start first. */
export const SPECIAL_FUNCTION_SORT_FIELDS = [
  'id',
  'user_email',
  'make',
  'module',
  'model',
  'function_type',
  'command_type',
  'item_number',
  'variant',
  'license_plate',
  'scan_ended',
  'hard_coded',
  'scan_start_time',
  'scan_end_time',
] as const;

export const ACTUATIONS_PATH = '/api/ActuationsDetail';

/** The columns the actuations list sorts by; without `sort`, newest first. */
export const ACTUATION_SORT_FIELDS = [
  'id',
  'user_email',
  'make',
  'model',
  'actuation_type',
  'actuation_option',
  'input',
  'device',
  'product_id',
  'user_car_model_id',
  'end_date',
  'created_at',
  'updated_at',
] as const;
