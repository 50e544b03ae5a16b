import { z } from 'zod';
import { sortSchema } from '../common/sort.ts';
import { MAKE_SORT_FIELDS, MODEL_SORT_FIELDS, SEGMENTS, type Segment } from './makes.constants.ts';

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
