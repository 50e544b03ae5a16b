import { Alert, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import type { ColumnMappingNeeded, ImportPreview } from '@obd/contract';
import { importProblemsPath, PREVIEW_TTL_MINUTES } from '@obd/contract/constants';
import { type FormEvent, useState } from 'react';
import { ApiError, apiFetchParsedLater } from '../lib/api.ts';
import { saveFrom } from '../lib/download.ts';
import { DataTable } from '../list/DataTable.tsx';
import { countText } from './format.ts';

/** Issue 15: the preview's figures per sheet, the problems file link, the column mapping form. */

type PreviewSheet = ImportPreview['sheets'][number];

/** What importing the previewed file would do, per sheet. */
export function PreviewSheetsTable({ preview }: { preview: ImportPreview }) {
  return (
    <DataTable
      label="Preview per sheet"
      rows={preview.sheets}
      rowKey={(sheet: PreviewSheet) => sheet.sheet}
      columns={[
        { header: 'Sheet', cell: (s: PreviewSheet) => s.sheet, nowrap: true },
        { header: 'Rows', cell: (s: PreviewSheet) => countText(s.totalRows) },
        { header: 'New rows', cell: (s: PreviewSheet) => countText(s.newRows) },
        { header: 'Duplicates in file', cell: (s: PreviewSheet) => countText(s.inFileDuplicates) },
        { header: 'Already in database', cell: (s: PreviewSheet) => countText(s.databaseDuplicates) },
        { header: 'Invalid rows', cell: (s: PreviewSheet) => countText(s.invalidRows) },
      ]}
    />
  );
}

/** When the preview's file goes, as the page says it. */
export function previewExpiryText(preview: ImportPreview): string {
  const at = new Date(preview.expiresAt);
  const time = Number.isNaN(at.getTime())
    ? ''
    : ` (until ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })})`;
  return `The file is kept on the server for ${PREVIEW_TTL_MINUTES} minutes${time}.`;
}

/**
 * Downloads an import's problem rows as .xlsx: a single-use link asked with the bearer token,
 * then opened by the browser itself (like the list exports).
 */
export function DownloadProblemsButton({
  importId,
  variant = 'light',
}: {
  importId: number;
  variant?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const download = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const ticket = await apiFetchParsedLater(
        async () => (await import('../lib/downloadSchemas.ts')).exportTicketSchema,
        importProblemsPath(importId),
        { method: 'POST' },
      );
      saveFrom(ticket.url);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The problems file could not be downloaded. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Group>
        <Button variant={variant} size="xs" loading={busy} onClick={() => void download()}>
          Download problems
        </Button>
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A required column was not found by its name: one select per field still needed, listing the
 * file's headers, the remembered choice preselected. Submitting retries the upload with it.
 */
export function MappingForm({
  mapping,
  onSubmit,
}: {
  mapping: ColumnMappingNeeded;
  onSubmit: (mapping: Record<string, string>) => void;
}) {
  const [chosen, setChosen] = useState<Record<string, string>>(() => {
    const start: Record<string, string> = {};
    for (const field of mapping.missing) {
      const remembered = mapping.remembered?.[field.key];
      if (remembered && mapping.headers.includes(remembered)) start[field.key] = remembered;
    }
    return start;
  });
  const [problem, setProblem] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const unset = mapping.missing.filter((f) => !chosen[f.key]);
    if (unset.length > 0) {
      setProblem(`Choose a column for ${unset.map((f) => f.label).join(', ')}.`);
      return;
    }
    const used = mapping.missing.map((f) => chosen[f.key]?.toLowerCase());
    if (new Set(used).size !== used.length) {
      setProblem('Choose a different column for each field.');
      return;
    }
    setProblem(undefined);
    onSubmit(Object.fromEntries(mapping.missing.map((f) => [f.key, chosen[f.key] as string])));
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Column mapping">
      <Stack gap="sm">
        <Text fw={600}>Which column of the sheet '{mapping.sheet}' holds each field?</Text>
        {mapping.remembered && (
          <Text size="sm" c="dimmed" data-testid="remembered-mapping">
            The columns chosen last time for a file with these headers are preselected.
          </Text>
        )}
        {mapping.missing.map((field) => (
          <NativeSelect
            key={field.key}
            label={field.label}
            name={`mapping-${field.key}`}
            value={chosen[field.key] ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setChosen((c) => ({ ...c, [field.key]: value }));
            }}
            data={[
              { value: '', label: 'Choose a column…' },
              ...mapping.headers.map((header) => ({ value: header, label: header })),
            ]}
            maw={360}
          />
        ))}
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        <Group>
          <Button type="submit">Upload with these columns</Button>
        </Group>
      </Stack>
    </form>
  );
}
