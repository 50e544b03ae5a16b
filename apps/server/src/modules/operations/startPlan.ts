import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, type FilterRule, type FilterRules } from '../../lib/filters.ts';
import { likePattern } from '../../lib/sql.ts';
import {
  containingValues,
  type Filters,
  type Plan,
  rows,
  rowTest,
  sumOf,
  toMap,
  valueCounts,
  valueList,
  WALK_SHARE,
} from './countPlan.ts';
import { containingDays, splitsAtDomain } from './emailDomains.ts';
import { COUNTED_LISTS, type CountedTableName } from './lists.ts';

/** Sum day counts over at most this many matching values (else: a count over the rows). */
const MAX_DAY_VALUES = 200;

/**
 * SQLite, "start ≥ from" with a fragment of a column counted per day (make, type, app version):
 * the value's rows per day from `list_days` after from's day, plus its rows of from's own day
 * from `from` on, counted in migration 017's (value, time) index — the exact total without a
 * count over the matches (11,000–45,000 at a million scans), and the same day bounds for deep
 * pages as one filter has. The rows: the counted values themselves (`col IN`, binary: the
 * values as stored, so rows and total agree), one value read through its (value, time) index.
 * Undefined when the filters are not exactly those two (decided at once).
 *
 * PostgreSQL the same totals (ILIKE over the values, `= ANY` on the rows; from's own day counted
 * through the time index: a day's rows). It has no (value, time) index for these columns: a walk
 * reads the time index from the day bound, testing the value on each row — taken when the
 * matches are at least WALK_SHARE of the rows since `from` (list_days' all-rows counts), else the
 * matches are found through the value's index and sorted. The count over the matches it replaces
 * read every row since `from` or every row of the value: 230–890 ms at a million scans.
 */
export function startPlan<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): (() => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }>) | undefined {
  const spec = COUNTED_LISTS[table].counted;
  const active = activeRules(rules, query);
  if (active.length !== 2) return undefined;
  const startAt = active.findIndex(([, r]) => r.column === spec.order && r.match === 'atLeast');
  if (startAt < 0) return undefined;
  const [[startParam], [otherParam, other]] = (startAt === 0 ? active : [...active].reverse()) as [
    [string, FilterRule],
    [string, FilterRule],
  ];
  const column = other.column;
  const from = String((query as Filters)[startParam]);
  const fromDay = from.slice(0, 10);
  const value = String((query as Filters)[otherParam]);
  const ref = sql.ref(column);
  const order = sql.ref(spec.order);
  const postgres = dialect === 'postgres';
  if (other.match === 'contains' && splitsAtDomain(column, value))
    return emailSince(db, dialect, table, column, value, from);
  if (other.match !== 'contains' || !(spec.byDay as readonly string[]).includes(column)) return undefined;
  return async () => {
    const found = await valueCounts(db, table, [
      {
        column,
        matching: sql`n > 0 AND val ${postgres ? sql`ILIKE` : sql`LIKE`} ${likePattern(value)} ESCAPE '\\'`,
      },
    ]);
    const vals = found.filter((v) => v.col === column).map((v) => v.val);
    const all = sumOf(found.filter((v) => v.col === ''));
    if (vals.length === 0) return { total: 0, walk: false, where: () => sql<SqlBool>`1 = 0` };
    const since = sql<SqlBool>`${order} >= ${from}`;
    const where = (walk: boolean) =>
      postgres
        ? sql<SqlBool>`(${ref} = ANY(${vals}) AND ${since})`
        : vals.length === 1
          ? sql<SqlBool>`(${ref} = ${vals[0]} AND ${since})`
          : walk
            ? sql<SqlBool>`(+${ref} IN (${valueList(vals)}) AND ${since})`
            : sql<SqlBool>`(${ref} IN (${valueList(vals)}) AND ${since})`;
    const listed = postgres ? sql`${ref} = ANY(${vals})` : sql`${ref} IN (${valueList(vals)})`;
    if (vals.length > MAX_DAY_VALUES) {
      const [counted] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${where(false)}`,
      );
      return { total: Number(counted?.n ?? 0), walk: false, where };
    }
    const days = await rows<{ day: string; n: unknown }>(
      db,
      sql`SELECT day, sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = ${column} AND val IN (${sql.join(vals)}) AND day >= ${fromDay} GROUP BY day`,
    );
    const later = days.filter((d) => d.day > fromDay);
    // From's own day from `from` on: up to the next day holding the values' rows (none between).
    const next = later.map((d) => d.day).sort()[0];
    const [edge] = await rows<{ n: unknown }>(
      db,
      sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${listed} AND ${since}${next ? sql` AND ${order} < ${next}` : sql``}`,
    );
    const map = toMap(later);
    const first = Number(edge?.n ?? 0);
    if (first > 0) map.set(fromDay, first);
    const total = [...map.values()].reduce((s, n) => s + n, 0);
    if (postgres) {
      const [rowsSince] = await rows<{ n: unknown }>(
        db,
        sql`SELECT sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day >= ${fromDay}`,
      );
      return { total, walk: total >= WALK_SHARE * Number(rowsSince?.n ?? 0), days: async () => map, where };
    }
    // One value walks its own (value, time) index from the day bound: it reads only its rows.
    return { total, walk: vals.length === 1 || total >= WALK_SHARE * all, days: async () => map, where };
  };
}

/**
 * An e-mail fragment without '@' since `from` ('gmail' since March: 74,000 of a million scans,
 * counted over every row since `from` before: 80 ms on SQLite, 180 ms on PostgreSQL): its rows
 * per day after from's day from its domains' days and its few local-only addresses
 * (`containingDays`, migration 029), its rows of from's own day from `from` on counted in the
 * time-order index (one day of it). More local-only addresses than are worth counting ('joshi')
 * are counted over the rows, as before. Walked in time order when frequent enough (the fragment
 * tested on the index entries, which hold the e-mail); otherwise read through the fragment's
 * values and sorted.
 */
function emailSince(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  value: string,
  from: string,
): () => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }> {
  const order = sql.ref(COUNTED_LISTS[table].counted.order);
  const fromDay = from.slice(0, 10);
  const since = sql<SqlBool>`${order} >= ${from}`;
  const test = rowTest(column, value, dialect);
  return async () => {
    const [days, [rowsSince]] = await Promise.all([
      containingDays(db, dialect, table, column, COUNTED_LISTS[table].counted.order, value, fromDay),
      rows<{ n: unknown }>(
        db,
        sql`SELECT sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day >= ${fromDay}`,
      ),
    ]);
    let total: number;
    let map: Map<string, number> | undefined;
    if (days) {
      const later = [...days].filter(([day]) => day > fromDay);
      // From's own day from `from` on: up to the next day holding a match (none between).
      const next = later.map(([day]) => day).sort()[0];
      const [edge] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${since}${next ? sql` AND ${order} < ${next}` : sql``} AND ${test}`,
      );
      map = new Map(later);
      if (Number(edge?.n ?? 0) > 0) map.set(fromDay, Number(edge?.n));
      total = [...map.values()].reduce((s, n) => s + n, 0);
    } else {
      const [counted] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${since} AND ${test}`,
      );
      total = Number(counted?.n ?? 0);
    }
    const walk = total >= WALK_SHARE * Number(rowsSince?.n ?? 0);
    // Few matches: found through the fragment's values (SQLite: the NOCASE index of the counted
    // values, as one filter reads them; PostgreSQL: the trigram index) and sorted.
    const values = containingValues(dialect, table, column, value, sql`t.val`);
    const found =
      dialect === 'postgres'
        ? sql<SqlBool>`${sql.ref(column)} ILIKE ${likePattern(value)} ESCAPE '\\'`
        : sql<SqlBool>`${sql.ref(column)} COLLATE NOCASE IN (${values})`;
    return {
      total,
      walk,
      ...(map ? { days: async () => map } : {}),
      ...(dialect === 'sqlite' ? { sorts: true } : {}),
      where: (walking: boolean) =>
        walking ? sql<SqlBool>`(${test} AND ${since})` : sql<SqlBool>`(${found} AND ${since})`,
    };
  };
}
