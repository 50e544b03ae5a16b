import { addDays, daysBetween, type OverviewQuery } from '@obd/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { scanningUsers } from './scanners.ts';

/**
 * The overview's figures and series at a million scans without counting them: sums over the
 * counters migration 011 keeps (`overview_days`, `overview_months`: scans per day and month by
 * segment, make, app version, e-mail and reported fault code) and those of 004 (`list_days`:
 * special-function and actuation runs per day). A period is read as its whole months plus the
 * days at its two edges. The small tables (app users, imports, coverage) are read directly,
 * through their indexes.
 */

type Db = Kysely<Database>;

export interface Period {
  from: string;
  to: string;
}

export async function rows<T>(db: Db, query: RawBuilder<unknown>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

export const num = (v: unknown) => Number(v ?? 0);

/** The first day of `day`'s month. */
const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
/** The last day of `day`'s month. */
const monthEnd = (day: string) => addDays(monthStart(addDays(monthStart(day), 40)), -1);

/**
 * A period as whole months (`months`, 'YYYY-MM' both included, or null) and the days outside them
 * (`days`: up to two ranges of days, both ends included).
 */
export function splitPeriod({ from, to }: Period): {
  months: [string, string] | null;
  days: [string, string][];
} {
  const firstWhole = from === monthStart(from) ? from : addDays(monthEnd(from), 1);
  const lastWhole = to === monthEnd(to) ? to : addDays(monthStart(to), -1);
  if (firstWhole > lastWhole) return { months: null, days: [[from, to]] };
  const days: [string, string][] = [];
  if (from < firstWhole) days.push([from, addDays(firstWhole, -1)]);
  if (lastWhole < to) days.push([addDays(lastWhole, 1), to]);
  return { months: [firstWhole.slice(0, 7), lastWhole.slice(0, 7)], days };
}

/** Buckets of a period: each edge day, and each whole month. */
function buckets(period: Period): { days: string[]; months: string[] } {
  const split = splitPeriod(period);
  const days: string[] = [];
  for (const [a, b] of split.days) for (let d = a; d <= b; d = addDays(d, 1)) days.push(d);
  const months: string[] = [];
  if (split.months) {
    for (let m = split.months[0]; m <= split.months[1]; m = addDays(`${m}-01`, 40).slice(0, 7))
      months.push(m);
  }
  return { days, months };
}

/** `(key, n)` rows of a topic over a period: the edge days and the whole months (to be summed by key). */
function periodRows(topic: string, period: Period, keys?: readonly string[], dialect?: Dialect) {
  const split = splitPeriod(period);
  const only = keys ? sql` AND key IN (${sql.join(keys)})` : sql``;
  // A few keys: each key's own range of the primary key, not every counter of the period (SQLite
  // would pick the (topic, day) index and test the keys on 150,000 rows of a year).
  const byKey = (table: string) =>
    keys && dialect === 'sqlite' ? sql.raw(` INDEXED BY sqlite_autoindex_${table}_1`) : sql``;
  const parts = [
    ...split.days.map(
      ([a, b]) =>
        sql`SELECT key, n FROM overview_days${byKey('overview_days')} WHERE topic = ${topic} AND day >= ${a} AND day <= ${b}${only}`,
    ),
    ...(split.months
      ? [
          sql`SELECT key, n FROM overview_months${byKey('overview_months')} WHERE topic = ${topic} AND month >= ${split.months[0]} AND month <= ${split.months[1]}${only}`,
        ]
      : []),
  ];
  return sql.join(parts, sql` UNION ALL `);
}

/** Every key's sum over the period (topics of few keys: makes, app versions). */
async function sumsByKey(db: Db, topic: string, period: Period): Promise<Map<string, number>> {
  const found = await rows<{ key: string; n: unknown }>(
    db,
    sql`SELECT key, sum(n) AS n FROM (${periodRows(topic, period)}) p GROUP BY key`,
  );
  const map = new Map<string, number>();
  for (const r of found) if (num(r.n) > 0) map.set(r.key, num(r.n));
  return map;
}

const byCountThenKey = (a: [string, number], b: [string, number]) =>
  b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The `limit` keys with the largest sums over the period, largest first (ties by key). */
async function topKeys(db: Db, topic: string, period: Period, limit: number): Promise<[string, number][]> {
  const all = await sumsByKey(db, topic, period);
  return [...all.entries()].sort(byCountThenKey).slice(0, limit);
}

/** Candidates read per bucket by `topCodes`. */
const PER_BUCKET = 60;

/**
 * The `limit` fault codes reported by most scans of the period, exactly, without summing every
 * (code, bucket) counter of the period (about 10,000 codes a month at a million scans):
 * 1. from each bucket (edge day, whole month), its PER_BUCKET codes with most scans (an index
 *    read in count order) — the candidates;
 * 2. the candidates' exact sums over the period (their own counter rows);
 * 3. a code that is no candidate has, in each bucket, at most that bucket's smallest count read
 *    (or 0 when the bucket had fewer codes): if the `limit`-th candidate's sum reaches the sum of
 *    those bounds, no other code can pass it and the answer is exact; otherwise (a flat month),
 *    every code of the period is summed.
 */
async function topCodes(
  db: Db,
  dialect: Dialect,
  period: Period,
  limit: number,
): Promise<[string, number][]> {
  const { days, months } = buckets(period);
  const parts = [
    ...days.map(
      (d) =>
        sql`SELECT * FROM (SELECT CAST(${d} AS TEXT) AS b, key, n FROM overview_days WHERE topic = 'dtc' AND day = ${d} AND n > 0 ORDER BY n DESC LIMIT ${PER_BUCKET}) x`,
    ),
    ...months.map(
      (m) =>
        sql`SELECT * FROM (SELECT CAST(${m} AS TEXT) AS b, key, n FROM overview_months WHERE topic = 'dtc' AND month = ${m} AND n > 0 ORDER BY n DESC LIMIT ${PER_BUCKET}) x`,
    ),
  ];
  if (parts.length === 0) return [];
  const heads = await rows<{ b: string; key: string; n: unknown }>(db, sql.join(parts, sql` UNION ALL `));
  const perBucket = new Map<string, number[]>();
  for (const h of heads) {
    const list = perBucket.get(h.b) ?? [];
    list.push(num(h.n));
    perBucket.set(h.b, list);
  }
  // A bucket read to its PER_BUCKET-th code ("full") may hold other codes, each at most its smallest count read.
  const floor = new Map<string, number>();
  for (const [b, list] of perBucket) if (list.length >= PER_BUCKET) floor.set(b, Math.min(...list));
  const bound = [...floor.values()].reduce((s, n) => s + n, 0);
  // Each candidate's sum lies between what was read of it and that plus the floors of the full
  // buckets where it was not read; those that cannot reach the `limit`-th lower sum are dropped.
  const seen = new Map<string, { lower: number; floors: number }>();
  for (const h of heads) {
    const c = seen.get(h.key) ?? { lower: 0, floors: 0 };
    c.lower += num(h.n);
    c.floors += floor.get(h.b) ?? 0;
    seen.set(h.key, c);
  }
  if (seen.size === 0) return [];
  const threshold = [...seen.values()].map((c) => c.lower).sort((a, b) => b - a)[limit - 1] ?? 0;
  const candidates = new Set(
    [...seen.entries()].filter(([, c]) => c.lower + bound - c.floors >= threshold).map(([key]) => key),
  );
  const exact = await rows<{ key: string; n: unknown }>(
    db,
    sql`SELECT key, sum(n) AS n FROM (${periodRows('dtc', period, [...candidates], dialect)}) p GROUP BY key`,
  );
  const ranked = exact
    .map((r) => [r.key, num(r.n)] as [string, number])
    .filter((r) => r[1] > 0)
    .sort(byCountThenKey);
  const last = ranked[limit - 1];
  // Strictly above the bound: a code outside the candidates with the same sum might sort first.
  if (bound === 0 || (last && last[1] > bound)) return ranked.slice(0, limit);
  return topKeys(db, 'dtc', period, limit);
}

/** Sum of a topic over a period, per day (days without rows left out). */
async function perDay(db: Db, topic: string, period: Period) {
  return rows<{ key: string; day: string; n: unknown }>(
    db,
    sql`SELECT key, day, n FROM overview_days WHERE topic = ${topic} AND day >= ${period.from} AND day <= ${period.to}`,
  );
}

/** The time bounds of a period's days: start ≥ from 00:00, < the day after `to`. */
const timeBounds = (period: Period) => [
  `${period.from}T00:00:00.000Z`,
  `${addDays(period.to, 1)}T00:00:00.000Z`,
];

/** App users per plan or status (migration 020's counters; a million users are not grouped). */
async function usersBy(db: Db, col: 'plan' | 'status') {
  return rows<{ key: string; n: unknown }>(
    db,
    sql`SELECT val AS key, n FROM user_counts WHERE col = ${col} AND day = '' AND n > 0`,
  );
}

/**
 * The figures of one period (the current one or the previous), in one statement of scalar
 * subqueries, each a sum of counters (or, for imports, a small table read through its index):
 * scans (011's segment counters), special-function and actuation runs (004's `list_days`, the whole
 * table), app users who scanned (022's pairs), new app users (020's days) and imports.
 */
async function figuresOf(db: Db, period: Period) {
  const { from, to } = period;
  const [a, b] = timeBounds(period);
  const runs = (table: string) =>
    sql`(SELECT sum(n) FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day >= ${from} AND day <= ${to})`;
  const [r] = await rows<Record<string, unknown>>(
    db,
    sql`SELECT
      (SELECT sum(n) FROM overview_days WHERE topic = 'segment' AND day >= ${from} AND day <= ${to}) AS scans,
      ${runs('special_function_runs')} AS special,
      ${runs('actuation_runs')} AS actuation,
      (${scanningUsers(period)}) AS users,
      (SELECT sum(n) FROM user_counts WHERE col = 'created' AND val = '' AND day >= ${from} AND day <= ${to}) AS created,
      (SELECT count(*) FROM imports WHERE started_at >= ${a} AND started_at < ${b}) AS imports,
      (SELECT count(*) FROM imports WHERE started_at >= ${a} AND started_at < ${b} AND status = 'failed') AS failed`,
  );
  return {
    scans: num(r?.scans),
    specialFunctionRuns: num(r?.special),
    actuationRuns: num(r?.actuation),
    scanningUsers: num(r?.users),
    newUsers: num(r?.created),
    imports: num(r?.imports),
    failedImports: num(r?.failed),
  };
}

export type OverviewFigures = Awaited<ReturnType<typeof figuresOf>>;

/** Everything the overview shows for a period, as rows; `mapper.ts` shapes the answer. */
export async function loadOverview(db: Db, dialect: Dialect, query: OverviewQuery) {
  const period: Period = { from: query.from, to: query.to };
  const days = daysBetween(period.from, period.to);
  const previous: Period = { from: addDays(period.from, -days), to: addDays(period.from, -1) };
  const [current, before, segmentDays, codes, makes, versions, plans, statuses, coverage, imports, span] =
    await Promise.all([
      figuresOf(db, period),
      figuresOf(db, previous),
      perDay(db, 'segment', period),
      topCodes(db, dialect, period, 10),
      topKeys(db, 'make', period, 15),
      topKeys(db, 'app_version', period, 20),
      usersBy(db, 'plan').then((r) => r.map(({ key, n }) => ({ plan: key, n }))),
      usersBy(db, 'status').then((r) => r.map(({ key, n }) => ({ status: key, n }))),
      coverageRows(db),
      importsPerDay(db, period),
      rows<{ first: string | null; last: string | null }>(
        db,
        // Two subqueries: each reads one end of the time index (min and max together scan the table).
        sql`SELECT (SELECT min(scan_start_time) FROM scans) AS first, (SELECT max(scan_start_time) FROM scans) AS last`,
      ),
    ]);
  const [titles, segmentsOfMakes] = await Promise.all([
    titlesOf(
      db,
      codes.map(([code]) => code),
    ),
    makes.length > 0
      ? rows<{ name: string; segment: string }>(
          db,
          sql`SELECT name, segment FROM makes WHERE name IN (${sql.join(makes.map(([m]) => m))})`,
        )
      : Promise.resolve([]),
  ]);
  return {
    period,
    days,
    previous,
    current,
    before,
    segmentDays,
    codes,
    titles,
    makes,
    segmentsOfMakes,
    versions,
    plans,
    statuses,
    coverage,
    imports,
    span: span[0] ?? { first: null, last: null },
  };
}

export type OverviewRows = Awaited<ReturnType<typeof loadOverview>>;

/** The reference title of each code: the generic entry's, else the first manufacturer entry's. */
async function titlesOf(db: Db, codes: string[]): Promise<Map<string, string | null>> {
  const map = new Map<string, string | null>();
  if (codes.length === 0) return map;
  const found = await rows<{ dtc: string; title: string | null }>(
    db,
    sql`SELECT dtc, title FROM fault_codes WHERE dtc IN (${sql.join(codes)}) ORDER BY generic DESC, id`,
  );
  for (const r of found) if (!map.has(r.dtc) || (map.get(r.dtc) === null && r.title)) map.set(r.dtc, r.title);
  return map;
}

/** Coverage functions per make and function type, for the 25 makes with most functions. */
async function coverageRows(db: Db) {
  return rows<{ make: string; function_type: string; n: unknown }>(
    db,
    sql`SELECT m.name AS make, c.function_type, count(*) AS n FROM coverage c
      JOIN (SELECT make_id FROM coverage GROUP BY make_id ORDER BY count(*) DESC, make_id LIMIT 25) t ON t.make_id = c.make_id
      JOIN makes m ON m.id = c.make_id
      GROUP BY m.name, c.function_type`,
  );
}

async function importsPerDay(db: Db, period: Period) {
  const [a, b] = timeBounds(period);
  return rows<{ day: string; status: string; n: unknown }>(
    db,
    sql`SELECT substr(started_at, 1, 10) AS day, status, count(*) AS n FROM imports
      WHERE started_at >= ${a} AND started_at < ${b} GROUP BY substr(started_at, 1, 10), status`,
  );
}
