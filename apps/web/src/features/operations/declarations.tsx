import type {
  ActuationRunQuery,
  ActuationRunRow,
  ScanQuery,
  ScanRow,
  SpecialFunctionQuery,
  SpecialFunctionRow,
  UserQuery,
} from '@obd/contract';
import {
  ACTUATION_SORT_FIELDS,
  ACTUATIONS_PATH,
  RUNS_PAGE_SIZE,
  SCAN_SORT_FIELDS,
  SCANS_PATH,
  SPECIAL_FUNCTION_SORT_FIELDS,
  SPECIAL_FUNCTIONS_PATH,
  USER_FACETS_PATH,
  USER_SORT_FIELDS,
  USERS_PAGE_SIZE,
  USERS_PATH,
} from '@obd/contract/constants';
import { detailsColumn, fieldColumnsFromRows } from '../../list/columns.tsx';
import {
  type Column,
  defineList,
  type FilterField,
  listSource,
  optionSource,
  type QueryFilterName,
  type SelectOption,
} from '../../list/declaration.ts';
import { dateTimeColumn, fieldColumn } from '../../list/format.ts';
import { makeFilter } from '../shared/suggestions.ts';
import { ScanReportAction } from './scanReport.tsx';

const schemas = () => import('./schemas.ts');

/**
 * The operations screens (spec §2.13–2.15): the app's users and what they did with it — scans,
 * special-function runs, actuation runs. Each list is a declaration on the list engine; the
 * filters are typed against the contract's query, so a parameter the server does not know fails
 * to compile.
 */

/** Where the detail screens live (verbatim routes, decisions §5). */
export const OPERATIONS_PATHS = {
  users: '/UsersTable',
  scans: '/ObdScanReport',
  scanDetails: '/ObdScanReport/details',
  specialFunctions: '/SpecilaFunction',
  specialFunctionDetails: '/SpecialFunctions/details',
  actuations: '/ActuationsDetail',
  actuationDetails: '/ActuationsDetail/details',
} as const;

const GENERAL_ERROR = 'Something went wrong';

const YES_NO_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'All' },
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/**
 * Every cell of these lists is a short value (an email, a plate, a time, a code): one line each,
 * and the wide table scrolls sideways rather than breaking values over lines.
 */
function oneLine<Row>(columns: readonly Column<Row>[]): Column<Row>[] {
  return columns.map((column) => ({ ...column, nowrap: true }));
}

// ------------------------------------------------------------------ users

/** The users' plans and statuses, one request for both selects. */
function facet(key: 'plans' | 'statuses') {
  return optionSource(
    USER_FACETS_PATH,
    async () => (await schemas()).userFacetsSchema,
    (facets) => facets[key],
  );
}

const USER_FILTERS: readonly FilterField<QueryFilterName<UserQuery>>[] = [
  { kind: 'text', name: 'email', label: 'Email', placeholder: 'e.g. gmail.com' },
  { kind: 'loadedSelect', name: 'plan', label: 'Plan', source: facet('plans') },
  { kind: 'loadedSelect', name: 'status', label: 'Status', source: facet('statuses') },
  // Issue 13: the Overview's new-users figure opens the users created in its period.
  {
    kind: 'dateRange',
    label: 'Created',
    from: { name: 'created_from', label: 'Created on or after' },
    to: { name: 'created_to', label: 'Created on or before' },
  },
];

export const usersList = defineList({
  title: 'User List',
  source: listSource(USERS_PATH, async () => (await schemas()).userListSchema, 'users'),
  sortFields: USER_SORT_FIELDS,
  pageSize: USERS_PAGE_SIZE,
  filters: USER_FILTERS,
  // Spec §2.13: the columns follow the fields the server returns (its allow-list, decisions §4).
  columns: (rows) => fieldColumnsFromRows(rows),
  messages: {
    error: 'Failed to fetch users',
    emptyFiltered: 'No users found for the specified criteria.',
    emptyUnfiltered: 'No users available.',
  },
  export: { list: 'users', format: 'xlsx' },
});

// ------------------------------------------------------------------ scans

const SCAN_FILTERS: readonly FilterField<QueryFilterName<ScanQuery>>[] = [
  { kind: 'text', name: 'email', label: 'Email' },
  makeFilter('make'),
  { kind: 'text', name: 'model', label: 'Model' },
  { kind: 'text', name: 'license_plate', label: 'License Plate' },
  { kind: 'text', name: 'country_id', label: 'Country ID', placeholder: 'e.g. 91' },
  {
    kind: 'dateRange',
    label: 'Scan period',
    from: { name: 'scan_start_time', label: 'Started on or after' },
    to: { name: 'scan_end_time', label: 'Ended on or before' },
  },
  { kind: 'text', name: 'type', label: 'Type', placeholder: 'e.g. OBD' },
  { kind: 'text', name: 'app_version', label: 'App Version' },
  // Issue 13: scans whose decoded fault codes include this code (the Overview's top fault codes link here).
  { kind: 'text', name: 'dtc', label: 'Reported DTC', placeholder: 'e.g. P0300' },
  // Issue 13: the segment of the scan's make (a segment of the Overview's scans-per-day bars).
  {
    kind: 'select',
    name: 'segment',
    label: 'Segment',
    options: [
      { value: '', label: 'All segments' },
      { value: 'car', label: 'Car' },
      { value: 'bike', label: 'Bike' },
      { value: 'three_wheeler', label: 'Three-wheeler' },
      { value: 'hcv', label: 'HCV' },
      { value: 'other', label: 'Other (make not in the catalogue)' },
    ],
  },
];

export const scansList = defineList({
  title: 'Scan Details',
  source: listSource(SCANS_PATH, async () => (await schemas()).scanListSchema, 'scans'),
  sortFields: SCAN_SORT_FIELDS,
  pageSize: RUNS_PAGE_SIZE,
  filters: SCAN_FILTERS,
  columns: oneLine([
    fieldColumn<ScanRow, 'email'>('Email', 'email'),
    dateTimeColumn<ScanRow, 'scan_start_time'>('Start Time', 'scan_start_time'),
    dateTimeColumn<ScanRow, 'scan_end_time'>('End Time', 'scan_end_time'),
    fieldColumn<ScanRow, 'model'>('Model', 'model'),
    fieldColumn<ScanRow, 'license_plate'>('License Plate', 'license_plate'),
    fieldColumn<ScanRow, 'vin'>('VIN', 'vin'),
    fieldColumn<ScanRow, 'scan_ended'>('Scan Ended', 'scan_ended'),
    fieldColumn<ScanRow, 'make'>('Make', 'make'),
    fieldColumn<ScanRow, 'country_id'>('Country', 'country_id'),
    fieldColumn<ScanRow, 'function'>('Function', 'function'),
    fieldColumn<ScanRow, 'type'>('Type', 'type'),
    fieldColumn<ScanRow, 'app_version'>('App Version', 'app_version'),
    { header: 'PDF Report', cell: (row) => <ScanReportAction scan={row} /> },
    detailsColumn<ScanRow>(OPERATIONS_PATHS.scanDetails),
  ]),
  messages: {
    error: 'Failed to fetch scan report',
    emptyFiltered: 'No scans found for the specified criteria.',
    emptyUnfiltered: 'No scans available.',
  },
  export: { list: 'scans', format: 'xlsx' },
});

// ------------------------------------------------------------------ special functions

const SPECIAL_FUNCTION_FILTERS: readonly FilterField<QueryFilterName<SpecialFunctionQuery>>[] = [
  { kind: 'text', name: 'email', label: 'Email' },
  makeFilter('make'),
  { kind: 'text', name: 'module', label: 'Module' },
  { kind: 'text', name: 'model', label: 'Model' },
  { kind: 'text', name: 'function_type', label: 'Function Type' },
  { kind: 'text', name: 'command_type', label: 'Command Type' },
  { kind: 'text', name: 'item_number', label: 'Item Number' },
  { kind: 'text', name: 'variant', label: 'Variant' },
  { kind: 'text', name: 'license_plate', label: 'License Plate' },
  { kind: 'select', name: 'scan_ended', label: 'Scan Ended', options: YES_NO_OPTIONS },
  { kind: 'select', name: 'hard_coded', label: 'Hard Coded', options: YES_NO_OPTIONS },
  {
    kind: 'dateRange',
    label: 'Run period',
    from: { name: 'scan_start_time', label: 'Started on or after' },
    to: { name: 'scan_end_time', label: 'Ended on or before' },
  },
];

export const specialFunctionsList = defineList({
  title: 'Special Function',
  source: listSource(
    SPECIAL_FUNCTIONS_PATH,
    async () => (await schemas()).specialFunctionListSchema,
    'scans',
  ),
  sortFields: SPECIAL_FUNCTION_SORT_FIELDS,
  pageSize: RUNS_PAGE_SIZE,
  filters: SPECIAL_FUNCTION_FILTERS,
  columns: oneLine([
    fieldColumn<SpecialFunctionRow, 'user_email'>('Email', 'user_email'),
    fieldColumn<SpecialFunctionRow, 'make'>('Make', 'make'),
    fieldColumn<SpecialFunctionRow, 'module'>('Module', 'module'),
    fieldColumn<SpecialFunctionRow, 'model'>('Model', 'model'),
    fieldColumn<SpecialFunctionRow, 'function_type'>('Function Type', 'function_type'),
    fieldColumn<SpecialFunctionRow, 'command_type'>('Command Type', 'command_type'),
    fieldColumn<SpecialFunctionRow, 'item_number'>('Item Number', 'item_number'),
    fieldColumn<SpecialFunctionRow, 'variant'>('Variant', 'variant'),
    fieldColumn<SpecialFunctionRow, 'license_plate'>('License Plate', 'license_plate'),
    fieldColumn<SpecialFunctionRow, 'scan_ended'>('Scan Ended', 'scan_ended'),
    fieldColumn<SpecialFunctionRow, 'hard_coded'>('Hard Coded', 'hard_coded'),
    dateTimeColumn<SpecialFunctionRow, 'scan_start_time'>('Start Time', 'scan_start_time'),
    dateTimeColumn<SpecialFunctionRow, 'scan_end_time'>('End Time', 'scan_end_time'),
    detailsColumn<SpecialFunctionRow>(OPERATIONS_PATHS.specialFunctionDetails),
  ]),
  messages: {
    error: GENERAL_ERROR,
    emptyFiltered: 'No special function runs found for the specified criteria.',
    emptyUnfiltered: 'No special function runs available.',
  },
  export: { list: 'specialFunctions', format: 'xlsx' },
});

// ------------------------------------------------------------------ actuations

const ACTUATION_FILTERS: readonly FilterField<QueryFilterName<ActuationRunQuery>>[] = [
  { kind: 'text', name: 'email', label: 'Email' },
  makeFilter('make'),
  { kind: 'text', name: 'model', label: 'Model' },
  { kind: 'text', name: 'input', label: 'Input' },
  { kind: 'text', name: 'actuation_type', label: 'Actuation Type' },
  { kind: 'text', name: 'actuation_option', label: 'Actuation Option' },
  { kind: 'text', name: 'user_car_model_id', label: 'User Car Model ID' },
  // Issue 13: the Overview's actuation figure opens the runs of its period.
  {
    kind: 'dateRange',
    label: 'Created',
    from: { name: 'created_from', label: 'Created on or after' },
    to: { name: 'created_to', label: 'Created on or before' },
  },
];

export const actuationsList = defineList({
  title: 'Actuations Detail',
  source: listSource(ACTUATIONS_PATH, async () => (await schemas()).actuationRunListSchema, 'actuations'),
  sortFields: ACTUATION_SORT_FIELDS,
  pageSize: RUNS_PAGE_SIZE,
  filters: ACTUATION_FILTERS,
  columns: oneLine([
    fieldColumn<ActuationRunRow, 'user_email'>('Email', 'user_email'),
    fieldColumn<ActuationRunRow, 'make'>('Make', 'make'),
    fieldColumn<ActuationRunRow, 'model'>('Model', 'model'),
    fieldColumn<ActuationRunRow, 'actuation_type'>('Actuation Type', 'actuation_type'),
    fieldColumn<ActuationRunRow, 'actuation_option'>('Actuation Option', 'actuation_option'),
    fieldColumn<ActuationRunRow, 'input'>('Input', 'input'),
    fieldColumn<ActuationRunRow, 'device'>('Device', 'device'),
    fieldColumn<ActuationRunRow, 'product_id'>('Product ID', 'product_id'),
    fieldColumn<ActuationRunRow, 'user_car_model_id'>('User Car Model ID', 'user_car_model_id'),
    dateTimeColumn<ActuationRunRow, 'end_date'>('End Date', 'end_date'),
    dateTimeColumn<ActuationRunRow, 'created_at'>('Created At', 'created_at'),
    dateTimeColumn<ActuationRunRow, 'updated_at'>('Updated At', 'updated_at'),
    detailsColumn<ActuationRunRow>(OPERATIONS_PATHS.actuationDetails),
  ]),
  messages: {
    error: GENERAL_ERROR,
    emptyFiltered: 'No actuation runs found for the specified criteria.',
    emptyUnfiltered: 'No actuation runs available.',
  },
  export: { list: 'actuations', format: 'xlsx' },
});
