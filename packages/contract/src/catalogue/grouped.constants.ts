/** The zod-free values of grouped.ts (kept apart so the web app's first download takes them without zod). */
export const CUSTOM_COMMANDS_PATH = '/api/CustomCommands';

export const CUSTOM_COMMANDS_PAGE_SIZE = 100;

export const CUSTOM_COMMAND_SORT_FIELDS = ['function_name'] as const;

export const ACTUATION_COMMANDS_PATH = '/api/ActuationCommands';

export const ACTUATION_COMMANDS_PAGE_SIZE = 200;

export const ACTUATION_COMMAND_SORT_FIELDS = ['actuation_type'] as const;

export const SPF_COMMANDS_PATH = '/api/SPFCommands';

export const SPF_COMMANDS_PAGE_SIZE = 200;

export const SPF_COMMAND_SORT_FIELDS = ['function_name'] as const;
