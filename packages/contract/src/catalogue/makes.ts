import { z } from 'zod';
import { sortSchema } from '../common/sort.ts';

export const MAKE_LIST_PATH = '/api/FetchMakeList';
export const MODEL_LIST_PATH = '/api/ModelList';
export const SEGMENTS = ['car', 'bike', 'three_wheeler', 'hcv'] as const;
export type Segment = (typeof SEGMENTS)[number];

/** The make and model lists sort by name (decisions §9), A to Z without a sort. */
export const MAKE_SORT_FIELDS = ['name'] as const;
export const MODEL_SORT_FIELDS = ['name'] as const;

/** `segement` (sic, decisions §1) and also `segment`; exact, case-insensitive; absent = every make. */
export const makeListQuerySchema = z
  .object({
    ...sortSchema(MAKE_SORT_FIELDS).shape,
    segement: z.string().trim().optional(),
    segment: z.string().trim().optional(),
  })
  .transform((q, ctx) => {
    const raw = (q.segement || q.segment || '').toLowerCase();
    if (raw && !(SEGMENTS as readonly string[]).includes(raw)) {
      ctx.addIssue({
        code: 'custom',
        path: ['segement'],
        message: `segement must be one of ${SEGMENTS.join(', ')}`,
      });
      return z.NEVER;
    }
    return { segment: (raw || undefined) as Segment | undefined, sort: q.sort, order: q.order };
  });
export type MakeListQuery = z.infer<typeof makeListQuerySchema>;

export const makeListSchema = z.object({
  data: z.array(z.object({ name: z.string(), segment: z.string() })),
});
export const modelListSchema = z.object({ data: z.array(z.object({ name: z.string(), make: z.string() })) });

export const modelListQuerySchema = z.object({
  ...sortSchema(MODEL_SORT_FIELDS).shape,
  make: z.string({ error: 'make is required' }).trim().min(1, 'make is required').max(200),
});
export type ModelListQuery = z.infer<typeof modelListQuerySchema>;
