/** The zod-free values of commands.ts (kept apart so the web app's first download takes them without zod). */
export const COMMAND_API_PATH = '/api/CommandAPI';

export const COMMAND_PAGE_SIZE = 100;

/** Function types of the command lookup (decisions §8): value and label. */
export const FUNCTION_TYPES = [
  { value: 'scan', label: 'Scan' },
  { value: 'live_data', label: 'Live Data' },
  { value: 'vin', label: 'VIN' },
  { value: 'clear_codes', label: 'Clear Codes' },
] as const;

export type FunctionType = (typeof FUNCTION_TYPES)[number]['value'];
