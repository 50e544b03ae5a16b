/** The zod-free values of faultCodes.ts (kept apart so the web app's first download takes them without zod). */
/** Page size of the four fault-code browsers (spec §9). */
export const FAULT_CODES_PAGE_SIZE = 30;

/** The columns every fault-code browser sorts by (`severity` and its like only on the fault codes). */
export const FAULT_TEXT_SORT_FIELDS = ['id', 'dtc', 'make', 'company_id', 'generic', 'language'] as const;

export const FAULT_CODE_SORT_FIELDS = [
  'id',
  'dtc',
  'make',
  'company_id',
  'generic',
  'title',
  'severity',
  'repair_difficulty',
] as const;

/** API paths, verbatim from spec §7 (decisions §1). */
export const FAULT_CODE_PATHS = {
  list: '/api/faultCodesList',
  causes: '/api/FaultCodeCauses',
  symptoms: '/api/FaultCodeSymptoms',
  solutions: '/api/FaultCodeSolutions',
} as const;
