import { z } from 'zod';
import { pagingSchema } from '../common/list.ts';
import { COMMAND_PAGE_SIZE, FUNCTION_TYPES, type FunctionType } from './commands.constants.ts';

const moduleList = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined || text.trim() === '') return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every((m) => typeof m === 'string')) {
      ctx.addIssue({
        code: 'custom',
        message: 'module must be a JSON array of module names, e.g. ["Engine","ABS"]',
      });
      return z.NEVER;
    }
    return parsed.map((m: string) => m.trim()).filter(Boolean);
  });

export const commandQuerySchema = pagingSchema(COMMAND_PAGE_SIZE).extend({
  make: z.string({ error: 'make is required' }).trim().min(1, 'make is required').max(200),
  function_type: z.enum(FUNCTION_TYPES.map((f) => f.value) as [FunctionType, ...FunctionType[]], {
    error: 'function_type must be scan, live_data, vin or clear_codes',
  }),
  full_scan: z
    .enum(['true', 'false'], { error: 'full_scan must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  module: moduleList,
});
export type CommandQuery = z.infer<typeof commandQuerySchema>;

export const commandRowSchema = z.object({ command: z.string(), module: z.string() });
export type CommandRow = z.infer<typeof commandRowSchema>;
export const commandListSchema = z.object({
  data: z.array(commandRowSchema),
  pagination: z.object({
    currentPage: z.number(),
    totalPages: z.number(),
    totalItems: z.number(),
    itemsPerPage: z.number(),
  }),
});
