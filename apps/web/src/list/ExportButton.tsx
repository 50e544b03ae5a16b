import { Button } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../lib/api.ts';
import { startDownload } from '../lib/download.ts';
import type { ListExport } from './declaration.ts';

export const NO_DATA_TO_DOWNLOAD = 'No data available to download';
export const DOWNLOAD_FAILED = 'Failed to download Excel file';

/**
 * The list's download button: the server streams every row matching the searched filters (not
 * just the page on screen). Disabled while the list loads or when it has no rows (spec §4).
 */
export function ExportButton({
  exportAs,
  filters,
  disabled,
  total,
}: {
  exportAs: ListExport;
  filters: Readonly<Record<string, string>>;
  disabled: boolean;
  total: number;
}) {
  const [starting, setStarting] = useState(false);
  const onClick = async () => {
    if (total === 0) {
      window.alert(NO_DATA_TO_DOWNLOAD);
      return;
    }
    setStarting(true);
    try {
      await startDownload({ list: exportAs.list, format: exportAs.format, query: filters });
    } catch (error) {
      console.error(`${exportAs.list}: download failed`, error);
      // Too many downloads at once: the server's sentence says what to do (wait for one to end).
      const busy = error instanceof ApiError && error.status === 429 && error.isServerMessage;
      window.alert(busy ? error.message : (exportAs.failedMessage ?? DOWNLOAD_FAILED));
    } finally {
      setStarting(false);
    }
  };
  return (
    <Button variant="light" onClick={onClick} loading={starting} disabled={disabled || total === 0}>
      {exportAs.label ?? (exportAs.format === 'csv' ? 'Download CSV' : 'Download Excel')}
    </Button>
  );
}
