import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, type FilterRule, type FilterRules, usesTrigramIndex } from '../../lib/filters.ts';
import { likePattern } from '../../lib/sql.ts';
import {
  containingValues,
  type Filters,
  MAX_PROBED_VALUES,
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
import { foldable, foldedAroundBound, foldedMonths } from './emailFolds.ts';
import { COUNTED_LISTS, type CountedTableName, EMAIL_COLUMNS, heldByTimeIndex } from './lists.ts';

/** Sum day counts over at most this many matching values (else: a count over the rows). */
const MAX_DAY_VALUES = 200;

/**
 * SQLite, "start ≥ from" with a fragment of a column counted per day (make, type, app version):
 * the value's rows per day from `list_days` after from's day, plus its rows of from's own day
 * from `from` on, counted in migration 017's (value, time) index — the exact total without a
 * count over the matches (11,000–45,000 at a million scans), and the same day bounds for deep
 * pages as one filter has. The rows: the counted values themselves (`col IN`, binary: the
 * values as stored, so rows and total agree), one value read through its (value, time) index.
 * "time ≤ to" on the list's own order (the actuations' "created to") is its mirror (`valueUpTo`).
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
  const boundAt = active.findIndex(
    ([, r]) => r.column === spec.order && (r.match === 'atLeast' || r.match === 'atMost'),
  );
  if (boundAt < 0) return undefined;
  const [[boundParam, boundRule], [otherParam, other]] = (boundAt === 0 ? active : [...active].reverse()) as [
    [string, FilterRule],
    [string, FilterRule],
  ];
  const column = other.column;
  const bound = String((query as Filters)[boundParam]);
  const value = String((query as Filters)[otherParam]);
  const byDay = (spec.byDay as readonly string[]).includes(column);
  if (
    (other.match === 'exact' || other.match === 'flag') &&
    byDay &&
    boundRule.match === 'atLeast' &&
    dialect === 'postgres'
  )
    return exactSince(db, table, column, (query as Filters)[otherParam], other.match, bound);
  if (other.match !== 'contains') return undefined;
  if (boundRule.match === 'atMost') {
    if (foldable(dialect, column, value)) return emailUpTo(db, table, column, value, bound);
    return (spec.byDay as readonly string[]).includes(column)
      ? valueUpTo(db, dialect, table, column, value, bound)
      : undefined;
  }
  const from = bound;
  const fromDay = from.slice(0, 10);
  const order = sql.ref(spec.order);
  const postgres = dialect === 'postgres';
  if (splitsAtDomain(column, value)) return emailSince(db, dialect, table, column, value, from);
  if (
    postgres &&
    heldByTimeIndex(table).includes(column) &&
    !EMAIL_COLUMNS.includes(column) &&
    usesTrigramIndex(value)
  )
    return fragmentSince(db, table, column, value, from);
  if (!byDay) return undefined;
  const since = sql<SqlBool>`${order} >= ${from}`;
  return async () => {
    const { vals, all, listed, where } = await matchingValues(db, dialect, table, column, value, since);
    if (vals.length === 0) return { total: 0, walk: false, where: () => sql<SqlBool>`1 = 0` };
    if (vals.length > MAX_DAY_VALUES)
      return { total: await countRows(db, table, where(false)), walk: false, where };
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
 * "Start ≥ from" with one value of a column counted per day, exact (a country) or a flag (ended,
 * hard-coded): the value's rows per day after from's day (`list_days`), plus its rows of from's
 * own day from `from` on, counted in its (value, time, id) index (003's) — where a count over its
 * rows since `from` read them all (country 91 since 1 March: 121,212 index entries at a million
 * scans, 15 ms; 363,948 at three million, 50 over HTTP). Its pages walk that index from the day
 * holding them. PostgreSQL only: there a page's range keeps the tighter of its two lower bounds
 * (`from` and the older end of the day holding it), where SQLite took `from` for the index range
 * and tested the other on every entry since it (hard-coded runs since 15 March 2025, page 100:
 * 14 → 24–33 ms); SQLite counts the (value, time) index range itself (2.5 ms at a million).
 */
function exactSince(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  value: unknown,
  match: 'exact' | 'flag',
  from: string,
): () => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }> {
  const order = sql.ref(COUNTED_LISTS[table].counted.order);
  const fromDay = from.slice(0, 10);
  // The counters' value (text) and the column's own, as the rule compares them.
  const counted = match === 'flag' ? (value ? '1' : '0') : String(value);
  const typed = match === 'flag' ? (value ? 1 : 0) : value;
  const where = () => sql<SqlBool>`(${sql.ref(column)} = ${typed} AND ${order} >= ${from})`;
  return async () => {
    const days = await rows<{ day: string; n: unknown }>(
      db,
      sql`SELECT day, n FROM list_days WHERE tbl = ${table} AND col = ${column} AND val = ${counted} AND day > ${fromDay}`,
    );
    // From's own day from `from` on: up to the next day holding the value's rows (none between).
    const next = days.map((d) => d.day).sort()[0];
    const [edge] = await rows<{ n: unknown }>(
      db,
      sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${where()}${next ? sql` AND ${order} < ${next}` : sql``}`,
    );
    const map = toMap(days);
    const first = Number(edge?.n ?? 0);
    if (first > 0) map.set(fromDay, first);
    const total = [...map.values()].reduce((s, n) => s + n, 0);
    // The value's own index, in time order, reads only its rows: always walked.
    return { total, walk: true, days: async () => map, where };
  };
}

/**
 * A contains filter's counted values (`list_totals`, LIKE / ILIKE as on the rows), the table's row
 * count, and the row condition selecting them within `bound` (the values as stored: rows and
 * total agree; SQLite keeps several values off their index when walking the time order).
 */
async function matchingValues(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  value: string,
  bound: Expression<SqlBool>,
) {
  const postgres = dialect === 'postgres';
  const found = await valueCounts(db, table, [
    {
      column,
      matching: sql`n > 0 AND val ${postgres ? sql`ILIKE` : sql`LIKE`} ${likePattern(value)} ESCAPE '\\'`,
    },
  ]);
  const vals = found.filter((v) => v.col === column).map((v) => v.val);
  const ref = sql.ref(column);
  const where = (walk: boolean) =>
    postgres
      ? sql<SqlBool>`(${ref} = ANY(${vals}) AND ${bound})`
      : vals.length === 1
        ? sql<SqlBool>`(${ref} = ${vals[0]} AND ${bound})`
        : walk
          ? sql<SqlBool>`(+${ref} IN (${valueList(vals)}) AND ${bound})`
          : sql<SqlBool>`(${ref} IN (${valueList(vals)}) AND ${bound})`;
  const listed = postgres
    ? sql<SqlBool>`${ref} = ANY(${vals})`
    : sql<SqlBool>`${ref} IN (${valueList(vals)})`;
  return { vals, all: sumOf(found.filter((v) => v.col === '')), listed, where };
}

/** Rows of a fragment (its trigram index's matches) worth finding and sorting rather than walking. */
const FEW_FRAGMENT_ROWS = 20_000;

/**
 * PostgreSQL, a model fragment ('city': counted without days, held by the time-order index)
 * since a time: when its counted values hold few rows, they are found through the values' sort
 * index (up to MAX_PROBED_VALUES of them) or else its trigram index, and the bound tested on them,
 * off the time index. PostgreSQL otherwise intersected the trigram bitmap with the time index's
 * every entry since the bound ('city' since March at a million scans: 223,000 entries read for
 * 469 matches, 45 ms for the count and as much for the page). Frequent, it is written plainly and
 * walked.
 */
function fragmentSince(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  value: string,
  from: string,
): () => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }> {
  const lists = COUNTED_LISTS[table];
  const order = sql.ref(lists.counted.order);
  const ilike = sql<SqlBool>`${sql.ref(column)} ILIKE ${likePattern(value)} ESCAPE '\\'`;
  // The column's sort index (044) carries the time beside its key and the id.
  const sortIndexed = (Object.values(lists.sort.columns) as string[]).includes(column);
  return async () => {
    const values = await rows<{ val: string; n: unknown }>(
      db,
      containingValues('postgres', table, column, value, sql`t.val, t.n`, MAX_PROBED_VALUES + 1, true),
    );
    const probed = sortIndexed && values.length <= MAX_PROBED_VALUES;
    const matched = probed
      ? sumOf(values)
      : Number(
          (
            await rows<{ n: unknown }>(
              db,
              sql`SELECT coalesce(sum(n), 0) AS n FROM list_totals WHERE tbl = ${table} AND col = ${column} AND val ILIKE ${likePattern(value)} ESCAPE '\\'`,
            )
          )[0]?.n ?? 0,
        );
    const few = matched <= FEW_FRAGMENT_ROWS;
    // Few matches of a few values are read as those values (exactly the rows counted): their
    // sort index finds them, and tests and sorts them by the time it carries, no row read — where
    // the trigram index sent each match to its heap page ('city' since March at three million
    // scans: 6,013 heap visits, 11 ms for the count, against 0.7 ms in the index alone).
    const matches =
      few && probed ? sql<SqlBool>`${sql.ref(column)} = ANY(${values.map((v) => v.val)})` : ilike;
    const since = few ? sql<SqlBool>`(${order} || '') >= ${from}` : sql<SqlBool>`${order} >= ${from}`;
    const where = () => sql<SqlBool>`(${matches} AND ${since})`;
    return { total: await countRows(db, table, where()), walk: !few, where };
  };
}

async function countRows(db: Kysely<Database>, table: CountedTableName, where: Expression<SqlBool>) {
  const [counted] = await rows<{ n: unknown }>(
    db,
    sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${where}`,
  );
  return Number(counted?.n ?? 0);
}

/**
 * "time ≤ to" on the list's own order (the actuations' "created to") with a fragment of a column
 * counted per day: the mirror of the start bound above — the values' rows per day before to's day
 * from `list_days`, plus to's own day up to `to` counted in the (value, time) index; the next day
 * of the table, with no match, bounds page 1 (the newest rows all fail the bound). The count over
 * the matches it replaces read every row of the value up to `to`: `make=hyundai&created_to=…`
 * 0.35–0.74 s on PostgreSQL at a million actuation runs.
 */
function valueUpTo(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  value: string,
  to: string,
): () => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }> {
  const order = sql.ref(COUNTED_LISTS[table].counted.order);
  const toDay = to.slice(0, 10);
  return async () => {
    const { vals, all, listed, where } = await matchingValues(
      db,
      dialect,
      table,
      column,
      value,
      sql`${order} <= ${to}`,
    );
    if (vals.length === 0) return { total: 0, walk: false, where: () => sql<SqlBool>`1 = 0` };
    if (vals.length > MAX_DAY_VALUES)
      return { total: await countRows(db, table, where(false)), walk: false, where };
    const [days, [edge], [above], [rowsUpTo]] = await Promise.all([
      rows<{ day: string; n: unknown }>(
        db,
        sql`SELECT day, sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = ${column} AND val IN (${sql.join(vals)}) AND day < ${toDay} GROUP BY day`,
      ),
      rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${listed} AND ${order} >= ${toDay} AND ${order} <= ${to}`,
      ),
      rows<{ day: string | null }>(
        db,
        sql`SELECT min(day) AS day FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day > ${toDay}`,
      ),
      rows<{ n: unknown }>(
        db,
        sql`SELECT sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day <= ${toDay}`,
      ),
    ]);
    const map = toMap(days);
    if (Number(edge?.n ?? 0) > 0) map.set(toDay, Number(edge?.n));
    const total = [...map.values()].reduce((s, n) => s + n, 0);
    if (above?.day) map.set(above.day, 0);
    const walk =
      dialect === 'postgres'
        ? total >= WALK_SHARE * Number(rowsUpTo?.n ?? 0)
        : vals.length === 1 || total >= WALK_SHARE * all;
    return { total, walk, days: async () => map, boundsFirstPage: true, where };
  };
}

/**
 * PostgreSQL, an e-mail fragment without a digit ('kumar') since `from` or up to `to` on the
 * list's time column, from 035's folded months (`foldedAroundBound`), instead of a count over
 * every row on the bound's side (110–130 ms at a million runs).
 */
function foldedMonthsTotal(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  value: string,
  bound: { from: string } | { to: string },
): Promise<number> {
  return foldedAroundBound(
    bound,
    sql.ref(COUNTED_LISTS[table].counted.order),
    (op, month) => foldedMonths(db, table, column, value, op, month),
    async (range) => {
      const [found] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${range} AND ${rowTest(column, value, 'postgres')}`,
      );
      return Number(found?.n ?? 0);
    },
  );
}

/**
 * PostgreSQL, an e-mail fragment without a digit up to `to` on the list's own time column (the
 * actuations' "created to"): totalled from the folded months (`foldedMonthsTotal`), walked in time
 * order from `to` down, the fragment tested on each row (a surname is in ~4 % of them).
 */
function emailUpTo(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  value: string,
  to: string,
): () => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }> {
  const where = sql<SqlBool>`(${rowTest(column, value, 'postgres')} AND ${sql.ref(COUNTED_LISTS[table].counted.order)} <= ${to})`;
  return async () => ({
    total: await foldedMonthsTotal(db, table, column, value, { to }),
    walk: true,
    where: () => where,
  });
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
    } else if (foldable(dialect, column, value)) {
      total = await foldedMonthsTotal(db, table, column, value, { from });
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
