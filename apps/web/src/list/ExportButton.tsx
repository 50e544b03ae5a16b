import { Button } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../lib/api.ts';
import { startDownload } from '../lib/download.ts';
import type { FilterField, ListExport } from './declaration.ts';
import { serverFilters } from './listQuery.ts';
import { lazyPart, OnFirstUse } from './onFirstUse.tsx';
import { type ListSort, writeSort } from './sortState.ts';

export const NO_DATA_TO_DOWNLOAD = 'No data available to download';
export const DOWNLOAD_FAILED = 'Failed to download Excel file';

const exportMenu = lazyPart(() => import('./ExportMenu.tsx').then((m) => m.ExportMenu));

/**
 * The list's download button: the server streams every row matching the searched filters (not
 * just the page on screen). Disabled while the list loads or when it has no rows (spec §4).
 */
export function ExportButton({
  exportAs,
  filters,
  disabled,
  total,
  fields = [],
  visibleColumns,
  sort,
}: {
  exportAs: ListExport;
  filters: Readonly<Record<string, string>>;
  disabled: boolean;
  total: number;
  /** The list's filter fields: a period said in words is sent as its dates. */
  fields?: readonly FilterField[];
  /** The export headers of the columns shown, when the operator hid some: offered beside every column. */
  visibleColumns?: readonly string[];
  /** The list's sort: the download's rows come in the order on screen (decisions §9). */
  sort?: ListSort | undefined;
}) {
  const [starting, setStarting] = useState(false);
  const label = exportAs.label ?? (exportAs.format === 'csv' ? 'Download CSV' : 'Download Excel');
  const onClick = async (columns?: readonly string[]) => {
    if (total === 0) {
      window.alert(NO_DATA_TO_DOWNLOAD);
      return;
    }
    setStarting(true);
    try {
      await startDownload({
        list: exportAs.list,
        format: exportAs.format,
        query: {
          ...serverFilters({ filters: fields }, filters),
          ...Object.fromEntries(writeSort(new URLSearchParams(), sort)),
        },
        ...(columns ? { columns: [...columns] } : {}),
      });
    } catch (error) {
      console.error(`${exportAs.list}: download failed`, error);
      // Too many downloads at once: the server's sentence says what to do (wait for one to end).
      const busy =
        error instanceof ApiError && (error.status === 429 || error.status === 400) && error.isServerMessage;
      window.alert(busy ? error.message : (exportAs.failedMessage ?? DOWNLOAD_FAILED));
    } finally {
      setStarting(false);
    }
  };
  const off = disabled || total === 0;
  if (visibleColumns && visibleColumns.length > 0) {
    return (
      <OnFirstUse
        part={exportMenu}
        placeholder={(use) => (
          <Button variant="light" loading={starting} disabled={off} aria-haspopup="menu" {...use}>
            {label}
          </Button>
        )}
        render={(ExportMenu, openAtOnce) => (
          <ExportMenu
            label={label}
            starting={starting}
            disabled={off}
            onDownload={(visibleOnly) => onClick(visibleOnly ? visibleColumns : undefined)}
            openAtOnce={openAtOnce}
          />
        )}
      />
    );
  }
  return (
    <Button variant="light" onClick={() => onClick()} loading={starting} disabled={off}>
      {label}
    </Button>
  );
}
