import { addDays, daysBetween, OVERVIEW_MAX_DAYS } from '@obd/contract/constants';
import { isIsoDate } from '../../list/listState.ts';

/**
 * The Overview's period and its place in the address: `?period=7d`, or `?from=…&to=…` for a custom
 * one; no parameter means the default, the last 30 days. Days are UTC calendar days, as the server
 * counts them (contract `overview.ts`), so "today" is the UTC day.
 */

export const PERIOD_PRESETS = ['today', '7d', '30d', 'month', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PERIOD_LABELS: Record<PeriodPreset, string> = {
  today: 'Today',
  '7d': '7 days',
  '30d': '30 days',
  month: 'This month',
  custom: 'Custom',
};

export const DEFAULT_PRESET: PeriodPreset = '30d';

/** A resolved period: which choice it is, and its first and last day (both included). */
export interface Period {
  preset: PeriodPreset;
  from: string;
  to: string;
}

/** Today as a UTC calendar day. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The days a preset stands for, ending today. */
export function presetDays(
  preset: Exclude<PeriodPreset, 'custom'>,
  today: string,
): { from: string; to: string } {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
  }
}

/** A custom period the server accepts: two real days, in order, at most OVERVIEW_MAX_DAYS long. */
export function isValidRange(from: string, to: string): boolean {
  return isIsoDate(from) && isIsoDate(to) && from <= to && daysBetween(from, to) <= OVERVIEW_MAX_DAYS;
}

/**
 * Reads the period from the address. Tolerant like the lists: a junk preset or an impossible custom
 * range falls back to the default instead of breaking the screen.
 */
export function parsePeriod(params: URLSearchParams, today: string): Period {
  const from = params.get('from')?.trim() ?? '';
  const to = params.get('to')?.trim() ?? '';
  if (from && to && isValidRange(from, to)) return { preset: 'custom', from, to };
  const raw = params.get('period');
  const preset = PERIOD_PRESETS.find((p) => p === raw && p !== 'custom') ?? DEFAULT_PRESET;
  return { preset, ...presetDays(preset as Exclude<PeriodPreset, 'custom'>, today) };
}

/** Writes the period for the address: nothing for the default, the preset's name, or the custom days. */
export function serialisePeriod(period: Pick<Period, 'preset' | 'from' | 'to'>): URLSearchParams {
  const params = new URLSearchParams();
  if (period.preset === 'custom') {
    params.set('from', period.from);
    params.set('to', period.to);
  } else if (period.preset !== DEFAULT_PRESET) {
    params.set('period', period.preset);
  }
  return params;
}

/** '1 Nov 2026' for a UTC day. */
export function dayText(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** '1 Nov 2026 – 30 Nov 2026', or one day. */
export function periodText(from: string, to: string): string {
  return from === to ? dayText(from) : `${dayText(from)} – ${dayText(to)}`;
}
