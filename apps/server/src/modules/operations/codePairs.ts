import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { FilterRule } from '../../lib/filters.ts';
import { likePattern } from '../../lib/sql.ts';
import { rows } from './countPlan.ts';
import { addressesAre, domainColumn, fewLocalOnlyValues, splitsAtDomain } from './emailDomains.ts';

/**
 * The scans reporting a fault code that also match one other filter, totalled from migration
 * 043's `list_code_pairs` (scans per code and value of the other column) instead of counted over
 * every scan reporting the code — a count that triples with the table (P0300 with country 91 at
 * 3,000,000 scans: 44 ms, against 14 at a million). Each sum reads the rows the same test would
 * keep, so totals and rows agree:
 * - country, make, type, app version, exact or contains: the code's counters of the matching
 *   values (the same LIKE / ILIKE over the same text as the value counters');
 * - end ≤ a bound: the code's whole end days before the bound's day, plus the code's scans that
 *   ended within that day up to the bound (one day's end times, each looked up in scan_dtcs);
 * - an e-mail fragment with no '@' (027's split): the code's counters of the domains holding it,
 *   plus the code's scans from the few addresses holding it in their local part alone.
 * Undefined when 043 does not count it (a model, a plate, a surname in ~25,000 local parts).
 */
const PAIRED = ['country_id', 'make', 'type', 'app_version'];

export async function codePairTotal(
  db: Kysely<Database>,
  dialect: Dialect,
  code: string,
  other: FilterRule,
  value: unknown,
): Promise<number | undefined> {
  const like = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
  const sum = async (where: RawBuilder<unknown>) => {
    const [found] = await rows<{ n: unknown }>(
      db,
      sql`SELECT coalesce(sum(n), 0) AS n FROM list_code_pairs WHERE dtc = ${code} AND ${where}`,
    );
    return Number(found?.n ?? 0);
  };
  const count = async (query: RawBuilder<unknown>) => {
    const [found] = await rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM (${query}) c`);
    return Number(found?.n ?? 0);
  };
  const ofCode = (scan: string) =>
    sql`EXISTS (SELECT 1 FROM scan_dtcs d WHERE d.scan_id = ${sql.ref(`${scan}.id`)} AND d.dtc = ${code})`;
  const { column, match } = other;
  const text = String(value);

  if (PAIRED.includes(column) && (match === 'exact' || match === 'contains'))
    return sum(
      match === 'exact'
        ? sql`col = ${column} AND val = ${text}`
        : sql`col = ${column} AND val ${like} ${likePattern(text)} ESCAPE '\\'`,
    );

  if (column === 'scan_end_time' && match === 'atMost') {
    const day = text.slice(0, 10);
    const next = nextDay(day);
    if (next === undefined) return undefined;
    // The bound's own day from whichever side of the bound holds less of it: its scans up to the
    // bound, or the day's counter less its scans after the bound (the usual bound, the day's
    // last second, has none after it; the day's scans before it are ~4,000 at three million).
    if (text.slice(11) < '12') {
      const [before, within] = await Promise.all([
        sum(sql`col = 'scan_end_time' AND val < ${day}`),
        count(
          sql`SELECT 1 FROM scans s WHERE s.scan_end_time >= ${day} AND s.scan_end_time <= ${text} AND ${ofCode('s')}`,
        ),
      ]);
      return before + within;
    }
    const [through, after] = await Promise.all([
      sum(sql`col = 'scan_end_time' AND val <= ${day}`),
      count(
        sql`SELECT 1 FROM scans s WHERE s.scan_end_time > ${text} AND s.scan_end_time < ${next} AND ${ofCode('s')}`,
      ),
    ]);
    return through - after;
  }

  if (column === 'email' && match === 'contains' && splitsAtDomain(column, text)) {
    const locals = await fewLocalOnlyValues(db, dialect, 'scans', column, text);
    if (locals === undefined) return undefined;
    const [domains, local] = await Promise.all([
      sum(sql`col = ${domainColumn(column)} AND val ${like} ${likePattern(text)} ESCAPE '\\'`),
      locals.length === 0
        ? 0
        : count(sql`SELECT 1 FROM scans s WHERE ${addressesAre(dialect, column, locals)} AND ${ofCode('s')}`),
    ]);
    return domains + local;
  }
  return undefined;
}

/**
 * The day after `day` ('YYYY-MM-DD'), as text: every time on `day` sorts below it and every later
 * one at or above it. Undefined when `day` is not a date (the bound is then counted on the rows).
 */
function nextDay(day: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const next = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(next.getTime()) || next.toISOString().slice(0, 10) !== day) return undefined;
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
