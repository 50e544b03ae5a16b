/** The zod-free values of vehicleCommands.ts (kept apart so the web app's first download takes them without zod). */
export const ODOMETER_PATH = '/api/OdometerAPI';

export const ODOMETER_PAGE_SIZE = 30;

/** Every odometer field sorts (decisions §9), named as the row names it; without a sort, by id. */
export const ODOMETER_SORT_FIELDS = [
  'id',
  'header',
  'subHeader',
  'pid',
  'protocol',
  'system',
  'init',
  'formulaBased',
  'generic',
  'formula_metric',
  'formula_imperial',
  'unit_metric',
  'unit_imperial',
] as const;

export const LIVE_DATA_PATH = '/api/LiveDataCommands';

export const LIVE_DATA_PAGE_SIZE = 30;

/** Every live-data field but the reference sorts (decisions §9); without a sort, by id. */
export const LIVE_DATA_SORT_FIELDS = [
  'id',
  'name',
  'model',
  'make',
  'header',
  'subHeader',
  'pid',
  'protocol',
  'formulaBased',
  'formula_metric',
  'formula_imperial',
  'unit_metric',
  'unit_imperial',
] as const;
