import { Text } from '@mantine/core';
import {
  type ActivationCodesResponse,
  activationCodesResponseSchema,
  type FaultCodesResponse,
  type FaultWorkbookResponse,
  faultCodesResponseSchema,
  faultWorkbookResponseSchema,
  type UpdateCommandsResponse,
  updateCommandsResponseSchema,
} from '@obd/contract';
import {
  FAULT_SUMMARY_KEYS,
  UPDATE_COMMAND_MAKE_LABEL,
  UPDATE_COMMAND_MAKE_PLACEHOLDER,
  UPDATE_COMMAND_MAKES,
  UPLOAD_LIMITS,
  UPLOAD_PATHS,
} from '@obd/contract/constants';
import { DataTable } from '../../list/DataTable.tsx';
import type { Column } from '../../list/declaration.ts';
import { bytesText, countText, msText } from '../../upload/format.ts';
import { ResultSection, StatGrid } from '../../upload/ResultViews.tsx';
import type { UploadDeclaration } from '../../upload/UploadPage.tsx';

/** The four upload pages (spec §2.16–2.17, §5; decisions §7, §8), as declarations on `upload/`. */

const MB = 1024 * 1024;
const EXCEL = ['.xlsx', '.xls'] as const;
const EXCEL_OR_CSV = ['.xlsx', '.xls', '.csv'] as const;

export const updateCommandsUpload: UploadDeclaration<UpdateCommandsResponse> = {
  title: 'Update commands',
  description: `Upload an Excel (.xlsx, .xls) or CSV file of up to ${UPLOAD_LIMITS.updateCommands / MB}MB. The worksheet named after the chosen make (a CSV is one sheet) replaces that make's commands.`,
  path: UPLOAD_PATHS.updateCommands,
  kind: 'update_commands',
  schema: updateCommandsResponseSchema,
  rule: {
    extensions: EXCEL_OR_CSV,
    typeMessage: 'Please select a valid Excel (.xlsx, .xls) or CSV file',
  },
  choice: {
    name: 'sheetName',
    label: UPDATE_COMMAND_MAKE_LABEL,
    placeholder: UPDATE_COMMAND_MAKE_PLACEHOLDER,
    options: UPDATE_COMMAND_MAKES,
    requiredMessage: 'Sheet name is required',
  },
  message: (result) => result.message,
  statistics: ({ stats }) => (
    <StatGrid
      stats={[
        { label: 'Sheet', value: stats.sheetName },
        { label: 'Rows processed', value: countText(stats.totalRowsProcessed) },
        { label: 'Inserted', value: countText(stats.insertedCount) },
        { label: 'Skipped', value: countText(stats.skippedCount) },
        { label: 'Invalid rows', value: countText(stats.invalidCount) },
        { label: 'Duplicates in file', value: countText(stats.duplicateCount) },
        { label: 'Replaced (deleted)', value: countText(stats.deletedCount) },
        { label: 'Processing time', value: msText(stats.processingTimeMs) },
        { label: 'Rows per second', value: countText(stats.rowsPerSecond) },
        { label: 'File name', value: stats.fileName },
        { label: 'File size', value: bytesText(stats.fileSize) },
      ]}
    />
  ),
};

const FAULT_TABLE_LABELS: Record<(typeof FAULT_SUMMARY_KEYS)[number], string> = {
  my_fault_codes: 'Fault codes',
  my_fault_code_causes: 'Causes',
  my_fault_code_symptoms: 'Symptoms',
  my_fault_code_solutions: 'Solutions',
};

function FaultTables({ summary }: { summary: FaultWorkbookResponse['summary'] }) {
  const rows = FAULT_SUMMARY_KEYS.map((key) => ({ key, table: summary[key] }));
  return (
    <DataTable
      label="Per table"
      rowKey={(row) => row.key}
      rows={rows}
      columns={[
        { header: 'Table', cell: (row) => `${FAULT_TABLE_LABELS[row.key]} (${row.key})`, nowrap: true },
        { header: 'Rows', cell: (row) => countText(row.table.totalRows) },
        { header: 'Inserted', cell: (row) => countText(row.table.inserted) },
        { header: 'Duplicates', cell: (row) => countText(row.table.duplicates) },
        { header: 'In file', cell: (row) => countText(row.table.duplicateBreakdown.excelDuplicates) },
        { header: 'In database', cell: (row) => countText(row.table.duplicateBreakdown.databaseDuplicates) },
        { header: 'Skipped (invalid)', cell: (row) => countText(row.table.skipped) },
        { header: 'Time', cell: (row) => msText(row.table.processingTime), nowrap: true },
      ]}
    />
  );
}

export const faultWorkbookUpload: UploadDeclaration<FaultWorkbookResponse> = {
  title: 'Fault Codes Bulk Uploader',
  description: `Upload one Excel workbook (.xlsx or .xls, less than ${UPLOAD_LIMITS.faultWorkbook / MB}MB) with the sheets fault_descriptions, causes, symptoms and solutions.`,
  path: UPLOAD_PATHS.faultWorkbook,
  kind: 'fault_workbook',
  schema: faultWorkbookResponseSchema,
  rule: {
    extensions: EXCEL,
    typeMessage: 'Please select an Excel file (.xlsx or .xls)',
    maxBytes: UPLOAD_LIMITS.faultWorkbook,
    sizeMessage: 'File size must be less than 100MB',
  },
  message: (result) => result.message,
  statistics: (result) => (
    <>
      <StatGrid
        stats={[
          { label: 'Rows inserted', value: countText(result.stats.totalRowsInserted) },
          { label: 'Processing time', value: msText(result.stats.totalProcessingTime) },
          { label: 'File size', value: bytesText(result.stats.fileSize) },
          { label: 'Rows per second', value: countText(result.stats.performance.rowsPerSecond) },
          { label: 'Speed', value: result.stats.performance.improvement },
        ]}
      />
      <ResultSection title="Per table">
        <FaultTables summary={result.summary} />
      </ResultSection>
    </>
  ),
};

export const faultCodesUpload: UploadDeclaration<FaultCodesResponse> = {
  title: 'Fault Codes Excel Importer',
  description: 'Upload an Excel file (.xlsx or .xls) of up to 50MB with one sheet of fault codes.',
  path: UPLOAD_PATHS.faultCodes,
  kind: 'fault_codes',
  schema: faultCodesResponseSchema,
  // Spec §5: 50MB is stated, not checked here; the server answers 413 past it.
  rule: { extensions: EXCEL, typeMessage: 'Please select a valid Excel file (.xlsx or .xls)' },
  message: (result) => result.message,
  statistics: ({ stats }) => (
    <StatGrid
      stats={[
        { label: 'Rows processed', value: countText(stats.totalRowsProcessed) },
        { label: 'Inserted', value: countText(stats.insertedCount) },
        { label: 'Skipped', value: countText(stats.skippedCount) },
        { label: 'Invalid rows', value: countText(stats.invalidCount) },
        { label: 'Duplicates in file', value: countText(stats.duplicates.inFile) },
        { label: 'Already in database', value: countText(stats.duplicates.inDatabase) },
        { label: 'Worksheet', value: stats.worksheetName },
        { label: 'Company ID', value: stats.companyId ?? '-' },
        { label: 'Processing time', value: msText(stats.processingTimeMs) },
        { label: 'Rows per second', value: countText(stats.rowsPerSecond) },
      ]}
    />
  ),
};

/** How many stored duplicates the page lists before summing up the rest. */
const SHOWN_DB_DUPLICATES = 50;

type FileDuplicate = ActivationCodesResponse['duplicates']['fileDuplicateDetails'][number];

const FILE_DUPLICATE_COLUMNS: readonly Column<FileDuplicate>[] = [
  {
    header: 'Code',
    cell: (detail) => <span style={{ fontFamily: 'monospace' }}>{detail.code}</span>,
    start: true,
  },
  { header: 'Rows (the first one imported)', cell: (detail) => detail.rows.join(', '), start: true },
];

function ActivationDuplicates({ duplicates }: { duplicates: ActivationCodesResponse['duplicates'] }) {
  const { fileDuplicateDetails, dbDuplicateCodes, inDatabase } = duplicates;
  const shown = dbDuplicateCodes.slice(0, SHOWN_DB_DUPLICATES);
  return (
    <>
      <ResultSection title="Duplicates in the file">
        {fileDuplicateDetails.length === 0 ? (
          <Text c="dimmed">No code is repeated in the file.</Text>
        ) : (
          <DataTable
            label="Duplicates in the file"
            columns={FILE_DUPLICATE_COLUMNS}
            rows={fileDuplicateDetails}
            rowKey={(detail) => detail.code}
            compact
          />
        )}
      </ResultSection>
      <ResultSection title="Already in the database">
        {inDatabase === 0 ? (
          <Text c="dimmed">No code was already stored.</Text>
        ) : (
          <Text
            size="sm"
            style={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
            data-testid="db-duplicates"
          >
            {shown.join(', ')}
            {inDatabase > shown.length ? ` …and ${countText(inDatabase - shown.length)} more` : ''}
          </Text>
        )}
      </ResultSection>
    </>
  );
}

export const activationCodesUpload: UploadDeclaration<ActivationCodesResponse> = {
  title: 'Activation Codes Uploader',
  description: `Upload an Excel (.xlsx, .xls) or CSV file of activation codes, less than ${UPLOAD_LIMITS.activationCodes / MB}MB. Columns: Activation Code, Plan, Duration, Vehicle.`,
  path: UPLOAD_PATHS.activationCodes,
  kind: 'activation_codes',
  schema: activationCodesResponseSchema,
  rule: {
    extensions: EXCEL_OR_CSV,
    typeMessage: 'Please select a valid file (.xlsx, .xls, or .csv)',
    maxBytes: UPLOAD_LIMITS.activationCodes,
    sizeMessage: 'File size must be less than 10MB',
  },
  message: (result) => result.message,
  statistics: (result) => (
    <>
      <StatGrid
        stats={[
          { label: 'Total rows', value: countText(result.totalRows) },
          { label: 'Imported', value: countText(result.importedRows) },
          { label: 'Invalid rows', value: countText(result.invalidRows) },
          { label: 'Duplicates in file', value: countText(result.duplicates.inFile) },
          { label: 'Already in database', value: countText(result.duplicates.inDatabase) },
        ]}
      />
      <ActivationDuplicates duplicates={result.duplicates} />
    </>
  ),
};
