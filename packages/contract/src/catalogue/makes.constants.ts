/** The zod-free values of makes.ts (kept apart so the web app's first download takes them without zod). */
export const MAKE_LIST_PATH = '/api/FetchMakeList';

export const MODEL_LIST_PATH = '/api/ModelList';

export const SEGMENTS = ['car', 'bike', 'three_wheeler', 'hcv'] as const;

export type Segment = (typeof SEGMENTS)[number];

/** The make and model lists sort by name (decisions §9), A to Z without a sort. */
export const MAKE_SORT_FIELDS = ['name'] as const;

export const MODEL_SORT_FIELDS = ['name'] as const;
