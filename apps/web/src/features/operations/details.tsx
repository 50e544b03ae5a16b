import { Anchor, Stack, Text } from '@mantine/core';
import {
  actuationRunDetailSchema,
  type ScanDetail,
  scanDetailSchema,
  specialFunctionDetailSchema,
} from '@obd/contract';
import { ACTUATIONS_PATH, SCANS_PATH, SPECIAL_FUNCTIONS_PATH } from '@obd/contract/constants';
import { Link } from '../../app/navigation.tsx';
import { detailTable } from '../../list/DetailScreen.tsx';
import type { DetailDeclaration, SummaryField } from '../../list/detail.ts';
import { cellText, dateTimeText, durationText, fieldColumn } from '../../list/format.ts';
import { listHref } from '../../list/listState.ts';
import { faultCodeList } from '../faultCodes/declarations.tsx';
import { OPERATIONS_PATHS } from './declarations.tsx';

type SpecialFunctionDetail = ReturnType<typeof specialFunctionDetailSchema.parse>;
type ActuationDetail = ReturnType<typeof actuationRunDetailSchema.parse>;
type ScanResult = ScanDetail['scanResArray'][number];
type DecodedResult = ScanDetail['decodedArray'][number];
type RunResult = SpecialFunctionDetail['scanResArray'][number];

const GENERAL_ERROR = 'Something went wrong';

const text = <Rec,>(label: string, value: (record: Rec) => unknown): SummaryField<Rec> => ({
  label,
  value: (record) => cellText(value(record)),
});
const time = <Rec,>(label: string, value: (record: Rec) => unknown): SummaryField<Rec> => ({
  label,
  value: (record) => dateTimeText(value(record)),
});

/** The Fault Code List searched for `code`, written as that list writes its own address. */
export function faultCodeHref(code: string): string {
  return listHref('/FaultCodeList', faultCodeList.filters, { dtc: code });
}

/** The decoded faults of one answer as 'code: text' lines, each code a link to its reference. */
function DecodedFaults({ faults }: { faults: Readonly<Record<string, string>> }) {
  const entries = Object.entries(faults);
  if (entries.length === 0) return '-';
  return (
    <Stack gap={2}>
      {entries.map(([code, description]) => (
        <Text key={code} size="sm">
          <Anchor component={Link} to={faultCodeHref(code)} fw={600}>
            {code}
          </Anchor>
          {`: ${description}`}
        </Text>
      ))}
    </Stack>
  );
}

export const scanDetails: DetailDeclaration<ScanDetail> = {
  title: 'Scan Details',
  endpoint: SCANS_PATH,
  schema: scanDetailSchema,
  listPath: OPERATIONS_PATHS.scans,
  messages: {
    notFound: 'The scan record was not found.',
    error: GENERAL_ERROR,
  },
  summary: [
    time('Start Time', (scan) => scan.scan_start_time),
    time('End Time', (scan) => scan.scan_end_time),
    text('Duration', (scan) => durationText(scan.scan_start_time, scan.scan_end_time)),
    text('License Plate', (scan) => scan.license_plate),
    text('Email', (scan) => scan.email),
    text('App Version', (scan) => scan.app_version),
    text('Function', (scan) => scan.function),
    text('Type', (scan) => scan.type),
    text('Number of Results', (scan) => scan.scanResArray.length),
    text('Scan Ended', (scan) => scan.scan_ended),
    text('Make', (scan) => scan.make),
    text('Model', (scan) => scan.model),
    text('VIN', (scan) => scan.vin),
  ],
  sections: [
    detailTable<ScanDetail, DecodedResult>({
      title: 'Decoded Fault Codes',
      rows: (scan) => scan.decodedArray,
      columns: [
        fieldColumn<DecodedResult, 'system'>('System', 'system'),
        fieldColumn<DecodedResult, 'pid'>('PID', 'pid'),
        { ...fieldColumn<DecodedResult, 'data'>('Data', 'data'), nowrap: true },
        fieldColumn<DecodedResult, 'protocol'>('Protocol', 'protocol'),
        fieldColumn<DecodedResult, 'header'>('Header', 'header'),
        {
          header: 'Decoded Faults',
          prose: true,
          cell: (row) => <DecodedFaults faults={row.decodedFaultArray} />,
        },
      ],
      empty: 'No decoded fault data available.',
    }),
    detailTable<ScanDetail, ScanResult>({
      title: 'Raw Scan Results',
      rows: (scan) => scan.scanResArray,
      columns: [
        fieldColumn<ScanResult, 'system'>('System', 'system'),
        fieldColumn<ScanResult, 'pid'>('PID', 'pid'),
        { ...fieldColumn<ScanResult, 'data'>('Data', 'data'), prose: true },
        fieldColumn<ScanResult, 'header'>('Header', 'header'),
        fieldColumn<ScanResult, 'protocol'>('Protocol', 'protocol'),
        fieldColumn<ScanResult, 'make'>('Make', 'make'),
      ],
      empty: 'No scan data available.',
    }),
  ],
};

const runResultColumns = {
  data: { ...fieldColumn<RunResult, 'data'>('Data', 'data'), prose: true },
  pid: fieldColumn<RunResult, 'pid'>('PID', 'pid'),
  input: fieldColumn<RunResult, 'input'>('Input', 'input'),
};

export const specialFunctionDetails: DetailDeclaration<SpecialFunctionDetail> = {
  title: 'Special Function Details',
  endpoint: SPECIAL_FUNCTIONS_PATH,
  schema: specialFunctionDetailSchema,
  listPath: OPERATIONS_PATHS.specialFunctions,
  messages: {
    notFound: 'The special function record was not found.',
    error: GENERAL_ERROR,
  },
  summary: [
    text('Email', (run) => run.user_email),
    text('Make', (run) => run.make),
    text('Model', (run) => run.model),
    text('Module', (run) => run.module),
    text('Function Type', (run) => run.function_type),
    text('Command Type', (run) => run.command_type),
    text('Item Number', (run) => run.item_number),
    text('Variant', (run) => run.variant),
    text('License Plate', (run) => run.license_plate),
    text('Hard Coded', (run) => run.hard_coded),
    text('Scan Ended', (run) => run.scan_ended),
    time('Start Time', (run) => run.scan_start_time),
    time('End Time', (run) => run.scan_end_time),
    text('Duration', (run) => durationText(run.scan_start_time, run.scan_end_time)),
  ],
  sections: [
    detailTable<SpecialFunctionDetail, RunResult>({
      title: 'Results',
      rows: (run) => run.scanResArray,
      columns: [runResultColumns.data, runResultColumns.pid, runResultColumns.input],
      empty: 'No scan data available.',
    }),
  ],
};

export const actuationDetails: DetailDeclaration<ActuationDetail> = {
  title: 'Actuation Details',
  endpoint: ACTUATIONS_PATH,
  schema: actuationRunDetailSchema,
  listPath: OPERATIONS_PATHS.actuations,
  messages: {
    notFound: 'The actuation record was not found.',
    error: GENERAL_ERROR,
  },
  summary: [
    text('Email', (run) => run.user_email),
    text('Make', (run) => run.make),
    text('Model', (run) => run.model),
    text('Actuation Type', (run) => run.actuation_type),
    text('Actuation Option', (run) => run.actuation_option),
    text('Input', (run) => run.input),
    text('Device', (run) => run.device),
    text('Product ID', (run) => run.product_id),
    text('User Car Model ID', (run) => run.user_car_model_id),
    time('End Date', (run) => run.end_date),
    time('Created At', (run) => run.created_at),
    time('Updated At', (run) => run.updated_at),
  ],
  sections: [
    detailTable<ActuationDetail, RunResult>({
      title: 'Results',
      rows: (run) => run.scanResArray,
      columns: [runResultColumns.pid, runResultColumns.data, runResultColumns.input],
      empty: 'No scan data available.',
    }),
  ],
};
