import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, type FilterRule, type FilterRules } from '../../lib/filters.ts';
import { likePattern } from '../../lib/sql.ts';
import {
  type Filters,
  MAX_PAIR_VALUES,
  matchesTooMany,
  nocase,
  type Plan,
  rows,
  rowTest,
  sumOf,
  tableTotal,
  toMap,
  valueCounts,
  valueList,
  WALK_SHARE,
} from './countPlan.ts';
import { containingEndedBefore, containingEndedBeforeDay, splitsAtDomain } from './emailDomains.ts';
import { COUNTED_LISTS, type CountedTableName } from './lists.ts';

/**
 * "End ≤ to" with one other filter (issue 12 item 1), exact without counting the rows that end
 * before `to` (most of the table):
 *
 * - **with "start ≥ from"** (a date range): 004's end days per start day (`list_days`, col = the
 *   end column, val = the end day, day = the start day) hold the rows ending on a day before
 *   `to`'s and starting on a day after `from`'s; the rows ending on `to`'s day up to `to`, and
 *   those starting on `from`'s day from `from`, are counted from the two time indexes (one day of
 *   each). The same sums per start day bound every page, as for one filter.
 * - **with a counted column** (make, e-mail, country…): migration 021's `list_end_days` holds each
 *   value's rows per end day (per end month for e-mail and model); the rows ending within `to`'s
 *   day (month) up to `to` are counted from the end-time index, which holds e-mail and model.
 *   The page walks the time order from the newest start day holding any row that ends by `to`
 *   (the days after it hold none), the value's own (value, time) index on SQLite when it is one
 *   value of a column of few values.
 *
 * No assumption is made about end ≥ start: every part is counted on both times. Undefined when
 * the filters are not exactly the end bound and one of those (decided at once).
 */
type Counted = Plan & { where: (walk: boolean) => Expression<SqlBool> };

/**
 * The first start day with rows after the newest start day holding a row that ends on `toDay` or
 * before (004's end days per start day): every row ending by `toDay` starts before it, whatever
 * its other filters, end ≥ start or not. Undefined when no later day holds rows (or none ends by
 * then).
 */
export async function dayAboveEndsBy(
  db: Kysely<Database>,
  table: CountedTableName,
  toDay: string,
): Promise<string | undefined> {
  const spec = COUNTED_LISTS[table].counted;
  if (!('end' in spec)) return undefined;
  const [found] = await rows<{ day: string | null }>(
    db,
    sql`SELECT min(day) AS day FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day > (SELECT max(day) FROM list_days WHERE tbl = ${table} AND col = ${spec.end} AND val <= ${toDay} AND n > 0)`,
  );
  return found?.day ?? undefined;
}

export function endPlan<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): (() => Promise<Counted>) | undefined {
  const spec = COUNTED_LISTS[table].counted;
  if (!('end' in spec)) return undefined;
  const active = activeRules(rules, query);
  if (active.length !== 2) return undefined;
  const endAt = active.findIndex(([, r]) => r.column === spec.end && r.match === 'atMost');
  if (endAt < 0) return undefined;
  const [[endParam], [otherParam, other]] = (endAt === 0 ? active : [...active].reverse()) as [
    [string, FilterRule],
    [string, FilterRule],
  ];
  const to = String((query as Filters)[endParam]);
  const value = (query as Filters)[otherParam];
  const end = sql.ref(spec.end);
  const order = sql.ref(spec.order);
  // Walking the time order, the end bound is tested there, never looked up through its index
  // (SQLite `+`; PostgreSQL an expression it has no index for).
  const endTested =
    dialect === 'sqlite' ? sql<SqlBool>`+${end} <= ${to}` : sql<SqlBool>`(${end} || '') <= ${to}`;
  const toDay = to.slice(0, 10);
  const all = () => tableTotal(db, table);
  // Every match sorts below this day, so page 1 starts there. One round trip, asked for beside
  // the counts.
  const started = () => {
    const bound = dayAboveEndsBy(db, table, toDay);
    // Not awaited when there is nothing to page: its failure must not go unhandled (it still
    // throws where it is awaited).
    bound.catch(() => undefined);
    return bound;
  };
  const above = async (bound: Promise<string | undefined>, map: Map<string, number>) => {
    const day = await bound;
    if (day && !map.has(day)) map.set(day, 0);
    return map;
  };

  if (other.column === spec.order && other.match === 'atLeast')
    return async () => {
      const from = String(value);
      const fromDay = from.slice(0, 10);
      const bound = started();
      const [next] = await rows<{ day: string | null }>(
        db,
        sql`SELECT min(day) AS day FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day > ${fromDay}`,
      );
      const [whole, endEdge, startEdge, tableRows] = await Promise.all([
        // Ending on a day before to's, starting on a day after from's.
        rows<{ day: string; n: unknown }>(
          db,
          sql`SELECT day, sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = ${spec.end} AND val < ${toDay} AND day > ${fromDay} GROUP BY day`,
        ),
        // Ending within to's day up to `to`, from `from` on: one day of the end index.
        rows<{ day: string; n: unknown }>(
          db,
          sql`SELECT substr(${order}, 1, 10) AS day, count(*) AS n FROM ${sql.table(table)} WHERE ${end} >= ${toDay} AND ${end} <= ${to} AND ${order} >= ${from} GROUP BY substr(${order}, 1, 10)`,
        ),
        // Starting within from's day from `from`, ending on a day before to's: one day of the
        // time-order index (it holds the end time).
        rows<{ n: unknown }>(
          db,
          sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${order} >= ${from}${next?.day ? sql` AND ${order} < ${next.day}` : sql``} AND ${dialect === 'sqlite' ? sql`+${end}` : sql`(${end} || '')`} < ${toDay}`,
        ),
        all(),
      ]);
      const map = toMap([...whole, ...endEdge]);
      const first = Number(startEdge[0]?.n ?? 0);
      if (first > 0) map.set(fromDay, (map.get(fromDay) ?? 0) + first);
      const total = [...map.values()].reduce((s, n) => s + n, 0);
      const walk = total >= WALK_SHARE * tableRows;
      const bounded = await above(bound, map);
      return {
        total,
        walk,
        boundsFirstPage: true,
        days: async () => bounded,
        where: (walking: boolean) =>
          walking
            ? sql<SqlBool>`(${order} >= ${from} AND ${endTested})`
            : sql<SqlBool>`(${order} >= ${from} AND ${end} <= ${to})`,
      };
    };

  const column = other.column;
  const byDay = (spec.byDay as readonly string[]).includes(column);
  const byMonth = (spec.byMonth as readonly string[]).includes(column);
  if (!(byDay || byMonth) || !['contains', 'exact', 'flag'].includes(other.match)) return undefined;
  const exactValue = other.match === 'flag' ? (value ? '1' : '0') : String(value);
  const matching =
    other.match === 'contains'
      ? sql`val ${dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`} ${likePattern(String(value))} ESCAPE '\\'`
      : sql`val = ${exactValue}`;
  // Buckets before to's: whole end days (months for e-mail and model).
  const bucket = byDay ? toDay : to.slice(0, 7);
  return async () => {
    const bound = started();
    // SQLite: a fragment matching more values than are worth listing ('gmail': ~200,000
    // addresses) is tested on the rows, never listed (reading them alone took 180 ms, and a count
    // over 200,000 listed values 3.8 s). Counted from the end-time index, which holds the e-mail
    // and the model: the rows ending by `to`, each tested there.
    if (other.match === 'contains' && (await matchesTooMany(db, dialect, table, other, value))) {
      const test = rowTest(column, value, dialect);
      // An e-mail fragment without '@': the months before to's from its domains' and local-only
      // addresses' end months (028), and to's month up to `to` from the end-time index (a month
      // of it, not every row ending by `to`: 0.1–0.17 s at a million scans).
      // With few local-only addresses, the days before to's from its domains' end days (031) and
      // to's own day from the index: one day of it instead of a month.
      const byDomains = splitsAtDomain(column, value);
      const beforeDay = byDomains
        ? await containingEndedBeforeDay(db, dialect, table, column, spec.end, String(value), toDay)
        : undefined;
      const from = beforeDay !== undefined ? toDay : bucket;
      const [before, [counted]] = await Promise.all([
        beforeDay !== undefined
          ? Promise.resolve(beforeDay)
          : byDomains
            ? containingEndedBefore(db, dialect, table, column, String(value), bucket)
            : Promise.resolve(0),
        rows<{ n: unknown }>(
          db,
          sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${byDomains ? sql`${end} >= ${from} AND ` : sql``}${end} <= ${to} AND ${test}`,
        ),
      ]);
      const total = before + Number(counted?.n ?? 0);
      return {
        total,
        // Always walked from the day bound: a fragment tested on the rows has no index to read
        // its matches through, so "not walking" let SQLite walk the time order from the newest
        // row with no bound at all ('kumar' ending by mid-2025 among a million special-function
        // runs, 12,909 matches under the 2 % share: 8.2 s for page 1). From the bound, the
        // time-order index holding the e-mail tests each entry it steps over.
        walk: true,
        boundsFirstPage: true,
        days: async () => above(bound, new Map()),
        where: (walking: boolean) =>
          walking ? sql<SqlBool>`(${test} AND ${endTested})` : sql<SqlBool>`(${test} AND ${end} <= ${to})`,
      };
    }
    const found = await valueCounts(db, table, [{ column, matching: sql`${matching} AND n > 0` }]);
    const vals = found.filter((v) => v.col === column).map((v) => v.val);
    const tableRows = sumOf(found.filter((v) => v.col === ''));
    // The rows selected: the counted values themselves, so rows and total agree exactly.
    const ref = sql.ref(column);
    // PostgreSQL, one value: `=`, so its (value, time) index is read in time order (`= ANY` of
    // one value is not).
    const direct =
      other.match !== 'contains'
        ? sql<SqlBool>`${ref} = ${other.match === 'flag' ? (value ? 1 : 0) : value}`
        : dialect === 'postgres'
          ? vals.length === 1
            ? sql<SqlBool>`${ref} = ${vals[0]}`
            : sql<SqlBool>`${ref} = ANY(${vals})`
          : sql<SqlBool>`${ref} IN (${valueList(vals)})`;
    // Tested on rows read another way, kept off the column's own index (SQLite `+`; PostgreSQL an
    // expression: it otherwise read every Generic scan through the type index and sorted them,
    // 350 ms at 100,000 scans, where a walk of the time order reads a page's worth).
    const tested =
      other.match !== 'contains'
        ? dialect === 'sqlite'
          ? sql<SqlBool>`+${ref} = ${other.match === 'flag' ? (value ? 1 : 0) : value}`
          : sql<SqlBool>`CAST(${ref} AS TEXT) = ${exactValue}`
        : dialect === 'postgres'
          ? sql<SqlBool>`(${ref} || '') = ANY(${vals})`
          : sql<SqlBool>`+${ref} IN (${valueList(vals)})`;
    if (vals.length === 0) return { total: 0, walk: false, where: () => sql<SqlBool>`1 = 0` };
    const many = vals.length > MAX_PAIR_VALUES;
    // Within to's bucket, from whichever side holds fewer rows: the bucket's ends (004's end-day
    // counters) tested for the value, or the value's own rows (its index) tested for the end, the
    // end kept off its index. A month of ends grows with the table where a rare model's rows are
    // few: 'city' ending by 31 March at three million scans read 166,000 ends (36 ms) for 6,013
    // City scans.
    const valueRows = sumOf(found.filter((v) => v.col === column));
    const [bucketEnds] = many
      ? [{ n: 0 }]
      : await rows<{ n: unknown }>(
          db,
          sql`SELECT coalesce(sum(n), 0) AS n FROM list_totals WHERE tbl = ${table} AND col = ${spec.end} AND val >= ${bucket} AND val <= ${toDay}`,
        );
    const endOffIndex = dialect === 'sqlite' ? sql`+${end}` : sql`(${end} || '')`;
    const edgeRows =
      valueRows < Number(bucketEnds?.n ?? 0)
        ? sql`${direct} AND ${endOffIndex} >= ${bucket} AND ${endOffIndex} <= ${to}`
        : sql`${end} >= ${bucket} AND ${end} <= ${to} AND ${tested}`;
    const [[whole], [edge]] = await Promise.all([
      // Too many values to list (not with the seeded shapes): a count over the rows.
      many
        ? rows<{ n: unknown }>(
            db,
            sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${direct} AND ${end} <= ${to}`,
          )
        : rows<{ n: unknown }>(
            db,
            sql`SELECT sum(n) AS n FROM list_end_days WHERE tbl = ${table} AND col = ${column} AND val IN (${sql.join(vals)}) AND day < ${bucket}`,
          ),
      // Within to's day (month): the end index range, testing the value (held by the index for
      // e-mail and model).
      many
        ? [{ n: 0 }]
        : rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${edgeRows}`),
    ]);
    const total = Number(whole?.n ?? 0) + Number(edge?.n ?? 0);
    // One value of a column of few values has a (value, time) index (003's for the exact ones;
    // 017's on SQLite, 025's on PostgreSQL); walked in time order, it reads only that value's rows.
    const drives = byDay && vals.length === 1;
    // That index is walked from the day bound even for few matches: it reads the value's rows
    // that start before the newest one ending by `to` — at most the rows a sort would read (all
    // of the value's), and only a page's worth when ends follow starts. Sorting read every Toyota
    // scan for 85 matches, and SQLite's own plan walked country 91's from its newest (268 ms at
    // 200,000 scans); PostgreSQL sorted every Generic scan for 354 (0.4–1.4 s at a million).
    // 025's scans indexes carry the end time: the walk's ids come from the index alone.
    const walk = total >= WALK_SHARE * tableRows || drives;
    const indexed =
      other.match === 'contains' && dialect === 'sqlite' && nocase.has(column)
        ? sql<SqlBool>`${ref} COLLATE NOCASE IN (${valueList(vals)})`
        : other.match === 'contains' && dialect === 'postgres'
          ? sql<SqlBool>`${ref} ILIKE ${likePattern(String(value))} ESCAPE '\\'`
          : direct;
    return {
      total,
      walk,
      boundsFirstPage: true,
      days: async () => above(bound, new Map()),
      where: (walking: boolean) =>
        walking
          ? sql<SqlBool>`(${drives ? direct : tested} AND ${endTested})`
          : dialect === 'sqlite'
            ? sql<SqlBool>`(${indexed} AND +${end} <= ${to})`
            : sql<SqlBool>`(${indexed} AND ${direct} AND ${end} <= ${to})`,
    };
  };
}
