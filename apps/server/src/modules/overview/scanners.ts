import { type RawBuilder, sql } from 'kysely';
import { type Period, splitPeriod } from './repository.ts';

/** The overview's "app users who scanned" in a period: distinct e-mails, exactly. */

/**
 * The statement of the distinct e-mails with a scan in the period, exactly, from migration 022's pairs (scan day, the
 * e-mail's previous scan day): an e-mail scanned in [from, to] exactly when one of its scan days
 * there follows a scan day before `from` (or none) — its first of the period, one per e-mail. So the
 * count is the sum of the pairs whose day is in the period and whose previous day is before it: over
 * the whole months from the month table; over the edge days, the previous months before `from`'s
 * from the day-month table and the previous days of `from`'s month from the day table (ranges of
 * their primary keys): about 2,000 rows for any period, whatever the number of e-mails.
 */
export function scanningUsers(period: Period): RawBuilder<unknown> {
  const split = splitPeriod(period);
  const firstMonth = period.from.slice(0, 7);
  const parts = [
    ...split.days.flatMap(([a, b]) => [
      sql`SELECT n FROM overview_scanner_day_months WHERE day >= ${a} AND day <= ${b} AND prev < ${firstMonth}`,
      sql`SELECT n FROM overview_scanner_days WHERE day >= ${a} AND day <= ${b} AND prev >= ${`${firstMonth}-01`} AND prev < ${period.from}`,
    ]),
    ...(split.months
      ? [
          sql`SELECT n FROM overview_scanner_months WHERE month >= ${split.months[0]} AND month <= ${split.months[1]} AND prev < ${period.from}`,
        ]
      : []),
  ];
  return sql`SELECT sum(n) FROM (${sql.join(parts, sql` UNION ALL `)}) p`;
}
