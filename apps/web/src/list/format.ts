import type { ReactNode } from 'react';

/** What an empty cell shows (spec §2.18). */
export const EMPTY_CELL = '-';

/** Text for a raw field value: '-' for null, undefined and '', Yes/No for booleans, `0` stays `0`. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY_CELL;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A rendered cell, with nothing-to-show (null, undefined, '', false) replaced by '-'. */
export function cellContent(content: ReactNode): ReactNode {
  return content === null || content === undefined || content === '' || content === false
    ? EMPTY_CELL
    : content;
}

/** A column that shows one field of the row as text. */
export function fieldColumn<Row, Key extends keyof Row & string>(header: string, key: Key) {
  // A field's column sorts by that field where the list sorts by it (its declaration's `sortFields`).
  return { header, cell: (row: Row) => cellText(row[key]), sortField: key };
}

/**
 * Values that may repeat (a command sent twice), each with a React key made of the value and how
 * many times it came before: stable while the list is not reordered, unique without an index.
 */
export function keyedByOccurrence(values: readonly string[]): { key: string; value: string }[] {
  const seen = new Map<string, number>();
  return values.map((value) => {
    const count = seen.get(value) ?? 0;
    seen.set(value, count + 1);
    return { key: `${count}:${value}`, value };
  });
}

/** '1 item', '30 items'. */
export function itemCount(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;

/**
 * A stored time (ISO-8601 UTC, `2025-03-04T09:15:00.000Z`) as `2025-03-04 09:15:00` (UTC, like
 * the exports and the date filters); '-' when absent; other text as it is.
 */
export function dateTimeText(value: unknown): string {
  if (typeof value === 'string') {
    const match = ISO_DATE_TIME.exec(value);
    if (match) return `${match[1]} ${match[2]}`;
  }
  return cellText(value);
}

/** A column that shows one time field of the row, on one line. */
export function dateTimeColumn<Row, Key extends keyof Row & string>(header: string, key: Key) {
  return { header, cell: (row: Row) => dateTimeText(row[key]), nowrap: true, sortField: key };
}

/**
 * The time from `start` to `end` as '12 min 5 s' (or '1 h 2 min', '40 s'); '-' when either is
 * missing or the end is before the start.
 */
export function durationText(start: string | null | undefined, end: string | null | undefined): string {
  if (!start || !end) return EMPTY_CELL;
  const ms = Date.parse(end) - Date.parse(start);
  if (!Number.isFinite(ms) || ms < 0) return EMPTY_CELL;
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h} h ${min} min`;
  if (min > 0) return `${min} min ${s} s`;
  return `${s} s`;
}
