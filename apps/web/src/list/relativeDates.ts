/**
 * Dates as people say them (issue 12): a date filter may hold a period said in words — today, the
 * last 7 or 30 days, this month, last month — kept as a token in the address and in saved views
 * (`scan_start_time=@last7d`), so a link or a view stays relative. The token is resolved to plain
 * ISO dates (UTC days, like the stored times and the server's date filters) just before a request.
 */

export const RELATIVE_PERIODS = [
  { token: '@today', label: 'Today' },
  { token: '@last7d', label: 'Last 7 days' },
  { token: '@last30d', label: 'Last 30 days' },
  { token: '@thismonth', label: 'This month' },
  { token: '@lastmonth', label: 'Last month' },
] as const;

export type RelativePeriod = (typeof RELATIVE_PERIODS)[number]['token'];

export function isRelativePeriod(value: string | undefined): value is RelativePeriod {
  return RELATIVE_PERIODS.some((period) => period.token === value);
}

export function relativePeriodLabel(token: RelativePeriod): string {
  return RELATIVE_PERIODS.find((period) => period.token === token)?.label ?? token;
}

const iso = (date: Date) => date.toISOString().slice(0, 10);
const utcDay = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day));

/** The first and last day (inclusive, `YYYY-MM-DD`) of a period, on the UTC calendar of `now`. */
export function resolvePeriod(token: RelativePeriod, now = new Date()): { from: string; to: string } {
  const [y, m, d] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
  const today = utcDay(y, m, d);
  switch (token) {
    case '@today':
      return { from: iso(today), to: iso(today) };
    case '@last7d':
      return { from: iso(utcDay(y, m, d - 6)), to: iso(today) };
    case '@last30d':
      return { from: iso(utcDay(y, m, d - 29)), to: iso(today) };
    case '@thismonth':
      return { from: iso(utcDay(y, m, 1)), to: iso(today) };
    case '@lastmonth':
      return { from: iso(utcDay(y, m - 1, 1)), to: iso(utcDay(y, m, 0)) };
  }
}

/**
 * The filters as the server takes them: a period in a range's `from` becomes its two dates
 * (`from`, `to`); everything else as it is.
 */
export function resolveRelativeDates(
  ranges: readonly { from: string; to: string }[],
  filters: Readonly<Record<string, string>>,
  now = new Date(),
): Record<string, string> {
  const resolved: Record<string, string> = { ...filters };
  for (const range of ranges) {
    const value = filters[range.from];
    if (!isRelativePeriod(value)) continue;
    const { from, to } = resolvePeriod(value, now);
    resolved[range.from] = from;
    resolved[range.to] = to;
  }
  return resolved;
}
