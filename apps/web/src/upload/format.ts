import type { ImportRecord } from '@obd/contract';

/** '0 B', '512 B', '1.5 KB', '12.3 MB'. */
export function bytesText(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** 1234567 → '1,234,567' (same on every machine, whatever its locale). */
export function countText(value: number): string {
  return value.toLocaleString('en-US');
}

/** Milliseconds as '850 ms' or '2.4 s'. */
export function msText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Elapsed time and rows per second of a running import, from its record. */
export function pace(record: Pick<ImportRecord, 'startedAt' | 'rowsProcessed'>, now = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(record.startedAt)) / 1000);
  const rate = seconds > 0 ? Math.round(record.rowsProcessed / seconds) : 0;
  return `${Math.round(seconds)} s elapsed · ${countText(rate)} rows/s`;
}
