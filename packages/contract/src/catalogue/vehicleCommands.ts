import { z } from 'zod';
import { pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import { vehicleFilters } from './common.ts';
import {
  LIVE_DATA_PAGE_SIZE,
  LIVE_DATA_SORT_FIELDS,
  ODOMETER_PAGE_SIZE,
  ODOMETER_SORT_FIELDS,
} from './vehicleCommands.constants.ts';

export const odometerQuerySchema = pagingSchema(ODOMETER_PAGE_SIZE).extend({
  ...sortSchema(ODOMETER_SORT_FIELDS).shape,
  ...vehicleFilters,
});
export type OdometerQuery = z.infer<typeof odometerQuerySchema>;
/** The 12 fields of an odometer entry (spec §3), plus its id. */
export const odometerRowSchema = z.object({
  id: z.number(),
  header: z.string().nullable(),
  subHeader: z.string().nullable(),
  pid: z.string().nullable(),
  protocol: z.string().nullable(),
  system: z.string().nullable(),
  init: z.string().nullable(),
  formulaBased: z.boolean(),
  generic: z.boolean(),
  formula_metric: z.string().nullable(),
  formula_imperial: z.string().nullable(),
  unit_metric: z.string().nullable(),
  unit_imperial: z.string().nullable(),
});
export type OdometerRow = z.infer<typeof odometerRowSchema>;
export const odometerListSchema = z.object({ data: z.array(odometerRowSchema), total: z.number() });

export const liveDataQuerySchema = pagingSchema(LIVE_DATA_PAGE_SIZE).extend({
  ...sortSchema(LIVE_DATA_SORT_FIELDS).shape,
  make: vehicleFilters.make,
  model: vehicleFilters.model,
  module: textFilter,
});
export type LiveDataQuery = z.infer<typeof liveDataQuerySchema>;
export const liveDataRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  model: z.string().nullable(),
  make: z.string(),
  header: z.string().nullable(),
  subHeader: z.string().nullable(),
  pid: z.string().nullable(),
  protocol: z.string().nullable(),
  formulaBased: z.boolean(),
  formula_metric: z.string().nullable(),
  formula_imperial: z.string().nullable(),
  unit_metric: z.string().nullable(),
  unit_imperial: z.string().nullable(),
  /** The signal's decoding reference (bit positions, scaling, value map), opened per row. */
  referenceJSON: z.unknown(),
});
export type LiveDataRow = z.infer<typeof liveDataRowSchema>;
export const liveDataListSchema = z.object({ data: z.array(liveDataRowSchema), total: z.number() });
