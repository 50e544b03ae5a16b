import { z } from 'zod';
import { booleanFilter, pagingSchema, textFilter } from '../common/list.ts';
import { sortSchema } from '../common/sort.ts';
import { fromTime, toTime, wholeNumberFilter } from './filters.ts';
import {
  ACTUATION_SORT_FIELDS,
  RUNS_PAGE_SIZE,
  SCAN_SORT_FIELDS,
  SPECIAL_FUNCTION_SORT_FIELDS,
} from './runs.constants.ts';

export const scanQuerySchema = pagingSchema(RUNS_PAGE_SIZE).extend({
  ...sortSchema(SCAN_SORT_FIELDS).shape,
  email: textFilter,
  make: textFilter,
  model: textFilter,
  license_plate: textFilter,
  country_id: wholeNumberFilter,
  scan_start_time: fromTime,
  scan_end_time: toTime,
  type: textFilter,
  app_version: textFilter,
  /** Reported DTC (issue 13): scans whose decoded fault codes include this code, exact, case-insensitive. */
  dtc: textFilter,
  /** Segment of the scan's make (issue 13: a segment of the Overview's scans-per-day bars); `other`: a make not in the makes table. */
  segment: textFilter,
});
export type ScanQuery = z.infer<typeof scanQuerySchema>;

export const scanRowSchema = z.object({
  id: z.number(),
  email: z.string(),
  scan_start_time: z.string(),
  scan_end_time: z.string().nullable(),
  model: z.string().nullable(),
  license_plate: z.string().nullable(),
  vin: z.string().nullable(),
  scan_ended: z.boolean(),
  make: z.string(),
  country_id: z.number().nullable(),
  function: z.string().nullable(),
  type: z.string().nullable(),
  app_version: z.string().nullable(),
  pdf_report: z.string().nullable(),
});
export type ScanRow = z.infer<typeof scanRowSchema>;
export const scanListSchema = z.object({ scans: z.array(scanRowSchema), total: z.number() });

export const scanResultSchema = z.object({
  system: z.string().nullable(),
  pid: z.string().nullable(),
  data: z.string().nullable(),
  header: z.string().nullable(),
  protocol: z.string().nullable(),
  make: z.string().nullable(),
});
export const decodedResultSchema = z.object({
  system: z.string().nullable(),
  pid: z.string().nullable(),
  data: z.string().nullable(),
  protocol: z.string().nullable(),
  header: z.string().nullable(),
  /** Fault code → its text. */
  decodedFaultArray: z.record(z.string(), z.string()),
});
export const scanDetailSchema = scanRowSchema.extend({
  scanResArray: z.array(scanResultSchema),
  decodedArray: z.array(decodedResultSchema),
});
export type ScanDetail = z.infer<typeof scanDetailSchema>;

export const specialFunctionQuerySchema = pagingSchema(RUNS_PAGE_SIZE).extend({
  ...sortSchema(SPECIAL_FUNCTION_SORT_FIELDS).shape,
  email: textFilter,
  make: textFilter,
  module: textFilter,
  model: textFilter,
  function_type: textFilter,
  command_type: textFilter,
  item_number: wholeNumberFilter,
  variant: textFilter,
  license_plate: textFilter,
  scan_ended: booleanFilter,
  hard_coded: booleanFilter,
  scan_start_time: fromTime,
  scan_end_time: toTime,
});
export type SpecialFunctionQuery = z.infer<typeof specialFunctionQuerySchema>;
export const specialFunctionRowSchema = z.object({
  id: z.number(),
  user_email: z.string(),
  make: z.string(),
  module: z.string().nullable(),
  model: z.string().nullable(),
  function_type: z.string().nullable(),
  command_type: z.string().nullable(),
  item_number: z.number().nullable(),
  variant: z.string().nullable(),
  license_plate: z.string().nullable(),
  scan_ended: z.boolean(),
  hard_coded: z.boolean(),
  scan_start_time: z.string(),
  scan_end_time: z.string().nullable(),
});
export type SpecialFunctionRow = z.infer<typeof specialFunctionRowSchema>;
export const specialFunctionListSchema = z.object({
  scans: z.array(specialFunctionRowSchema),
  total: z.number(),
});
export const runResultSchema = z.object({
  data: z.string().nullable(),
  pid: z.string().nullable(),
  input: z.string().nullable(),
});
export const specialFunctionDetailSchema = specialFunctionRowSchema.extend({
  scanResArray: z.array(runResultSchema),
});

export const actuationRunQuerySchema = pagingSchema(RUNS_PAGE_SIZE).extend({
  ...sortSchema(ACTUATION_SORT_FIELDS).shape,
  email: textFilter,
  make: textFilter,
  model: textFilter,
  input: textFilter,
  actuation_type: textFilter,
  actuation_option: textFilter,
  user_car_model_id: wholeNumberFilter,
  /** Created on or after / on or before (issue 13: the Overview's actuation figure opens its period). */
  created_from: fromTime,
  created_to: toTime,
});
export type ActuationRunQuery = z.infer<typeof actuationRunQuerySchema>;
export const actuationRunRowSchema = z.object({
  id: z.number(),
  user_email: z.string(),
  make: z.string(),
  model: z.string().nullable(),
  actuation_type: z.string().nullable(),
  actuation_option: z.string().nullable(),
  input: z.string().nullable(),
  device: z.string().nullable(),
  product_id: z.string().nullable(),
  user_car_model_id: z.number().nullable(),
  end_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ActuationRunRow = z.infer<typeof actuationRunRowSchema>;
export const actuationRunListSchema = z.object({
  actuations: z.array(actuationRunRowSchema),
  total: z.number(),
});
export const actuationRunDetailSchema = actuationRunRowSchema.extend({
  scanResArray: z.array(runResultSchema),
});

export const idParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'id must be a whole number' })
    .int('id must be a whole number')
    .min(1, 'id must be a whole number'),
});
