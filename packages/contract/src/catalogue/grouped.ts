import { z } from 'zod';
import { pagingSchema } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import { vehicleFilters } from './common.ts';
import {
  ACTUATION_COMMAND_SORT_FIELDS,
  ACTUATION_COMMANDS_PAGE_SIZE,
  CUSTOM_COMMAND_SORT_FIELDS,
  CUSTOM_COMMANDS_PAGE_SIZE,
  SPF_COMMAND_SORT_FIELDS,
  SPF_COMMANDS_PAGE_SIZE,
} from './grouped.constants.ts';

/**
 * The three grouped catalogues page over groups and count groups (decisions §3): custom
 * commands per function_name, actuation commands per actuation_type, SPF commands per
 * function_name. A group never splits across pages.
 *
 * A grouped list sorts by its group's key only (decisions §9): a page is a run of groups, so any
 * other order would have to be an order of groups (by their first row? their largest?) that no
 * header on screen shows; the key is unique per group, so it is also the order's last column.
 */

export const customCommandQuerySchema = pagingSchema(CUSTOM_COMMANDS_PAGE_SIZE).extend({
  ...sortSchema(CUSTOM_COMMAND_SORT_FIELDS).shape,
  ...vehicleFilters,
});
export type CustomCommandQuery = z.infer<typeof customCommandQuerySchema>;
export const customCommandSchema = z.object({
  function_name: z.string(),
  make: z.string(),
  model: z.string(),
  variant: z.array(z.string()),
  /** `commands[0]` maps each variant to its list of commands (decisions §3). */
  commands: z.array(z.record(z.string(), z.array(z.string()))),
});
export type CustomCommand = z.infer<typeof customCommandSchema>;
export const customCommandListSchema = z.object({ data: z.array(customCommandSchema), total: z.number() });

export const actuationCommandQuerySchema = pagingSchema(ACTUATION_COMMANDS_PAGE_SIZE).extend({
  ...sortSchema(ACTUATION_COMMAND_SORT_FIELDS).shape,
  ...vehicleFilters,
});
export type ActuationCommandQuery = z.infer<typeof actuationCommandQuerySchema>;
export const actuationDetailSchema = z.object({
  pid: z.string().nullable(),
  actuation_subtype: z.string().nullable(),
  last_subtype: z.string().nullable(),
  seed_key_variant: z.string().nullable(),
  message: z.string().nullable(),
  message_item: z.boolean(),
  success_check: z.string().nullable(),
});
export type ActuationDetail = z.infer<typeof actuationDetailSchema>;
export const actuationCommandSchema = z.object({
  actuation_type: z.string(),
  message: z.string().nullable(),
  details: z.array(actuationDetailSchema),
});
export type ActuationCommand = z.infer<typeof actuationCommandSchema>;
export const actuationCommandListSchema = z.object({
  data: z.array(actuationCommandSchema),
  total: z.number(),
});

export const spfCommandQuerySchema = pagingSchema(SPF_COMMANDS_PAGE_SIZE).extend({
  ...sortSchema(SPF_COMMAND_SORT_FIELDS).shape,
  ...vehicleFilters,
});
export type SpfCommandQuery = z.infer<typeof spfCommandQuerySchema>;
export const spfDetailSchema = z.object({
  pid: z.string().nullable(),
  message: z.string().nullable(),
  command_type: z.string().nullable(),
});
export const spfCommandSchema = z.object({
  function_name: z.string(),
  hard_coded: z.boolean(),
  details: z.array(spfDetailSchema),
});
export type SpfCommand = z.infer<typeof spfCommandSchema>;
export const spfCommandListSchema = z.object({ data: z.array(spfCommandSchema), total: z.number() });
