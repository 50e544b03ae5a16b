import type { ImportRecord } from '@obd/contract';
import { IMPORTS_PATH } from '@obd/contract/constants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { pace } from '../../upload/format.ts';
import { readImport } from '../../upload/importProgress.ts';

/** How often a running import's row of the Import History is read again. */
export const HISTORY_POLL_MS = 1000;

/**
 * The Statistics cell of an Import History row (issue 15 items 1 and 6): a running import's
 * figures are read again every second, with elapsed time and rows per second, so the history
 * follows an import live; when it ends, the history's lists and details are asked again, so its
 * outcome, figures and undo appear without a reload. A finished import's cell is its figures.
 */
export function LiveStatistics({
  record,
  text,
}: {
  record: ImportRecord;
  text: (record: ImportRecord) => string;
}) {
  if (record.status !== 'running') return <>{text(record)}</>;
  return <RunningStatistics record={record} text={text} />;
}

function RunningStatistics({
  record,
  text,
}: {
  record: ImportRecord;
  text: (record: ImportRecord) => string;
}) {
  const client = useQueryClient();
  const live = useQuery({
    queryKey: ['imports', 'live', record.id],
    queryFn: ({ signal }) => readImport(record.id, signal),
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'running' ? false : HISTORY_POLL_MS,
    retry: false,
  });
  const current = live.data ?? record;
  const ended = current.status !== 'running';
  useEffect(() => {
    // The list row (outcome, undo button) is the list's: ask for the history again.
    if (ended) void client.invalidateQueries({ queryKey: ['list', IMPORTS_PATH] });
  }, [ended, client]);
  return <>{current.status === 'running' ? `${text(current)} · ${pace(current)}` : text(current)}</>;
}
