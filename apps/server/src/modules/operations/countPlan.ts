import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import {
  activeRules,
  type FilterRule,
  type FilterRules,
  trigramPhrase,
  usesTrigramIndex,
} from '../../lib/filters.ts';
import { sharedRead } from '../../lib/sharedReads.ts';
import { likePattern } from '../../lib/sql.ts';
import {
  containingDays,
  containingTotal,
  heldByDomain,
  MAX_LOCAL_ADDRESSES,
  readsFolds,
  splitsAtDomain,
  surnameRows,
} from './emailDomains.ts';
import { foldedBucketIds, foldedFacts } from './emailFolds.ts';
import { COUNTED_LISTS, type CountedTableName } from './lists.ts';

/**
 * The count plan of a counted list (`countedList.ts`, `sortedList.ts`): for no filter or one
 * filter on a counted column, the exact total from the counters the database keeps (the columns
 * of `lists.ts`, counted by the triggers of migrations 004, 007 and 011), the matching rows per
 * day or month that let a deep page start from a day bound, and whether to walk the time index
 * or read the filter's own index and sort. Undefined when the general path (COUNT and OFFSET)
 * must answer.
 */

export type Filters = Record<string, unknown>;

/** A list's one active filter, if exactly one (null: none; undefined: more than one). */
export function singleFilter<Q extends object>(rules: FilterRules<Q>, query: Q) {
  const active = activeRules(rules, query);
  if (active.length !== 1) return active.length === 0 ? null : undefined;
  const [param, rule] = active[0] as [string, FilterRule];
  return { param, rule, value: (query as Filters)[param] };
}

export interface Plan {
  total: number;
  /**
   * Matching rows per day of the sort column, when known (any order). With `newest`, the newest
   * buckets holding at least that many rows may come alone (every bucket from the newest on to
   * some bucket, each whole): a page that many rows deep needs no older one.
   */
  days?: (newest?: number) => Promise<Map<string, number>>;
  /**
   * The row condition to use instead of the rule's own (null: the rule's own). `inTimeOrder`: the
   * matches it finds are read in or sorted by the list's time (a page of the list's own order),
   * not only tested against another index's walk (a page sorted by a column).
   */
  where?: (walk: boolean, inTimeOrder?: boolean) => Expression<SqlBool> | null;
  /** Whether reading in time order from the day bound is the right plan (frequent matches). */
  walk: boolean;
  /** Page 1 starts from the days' bound too (the newest rows may all fail an end bound). */
  boundsFirstPage?: boolean;
  /**
   * SQLite, not walking: the page sorts the matches its condition's index finds, the order kept
   * off the time index (`ORDER BY +time`), which SQLite otherwise walked probing every row.
   */
  sorts?: boolean;
  /** Walking: the ids of a page read by the plan itself (no day bounds apply then). */
  ids?: (direction: 'asc' | 'desc', limit: number, offset: number) => RawBuilder<unknown>;
  /** PostgreSQL: `ids` walks an index the planner would rather sort (read by `inIndexOrder`). */
  idsInIndexOrder?: boolean;
  /**
   * Walking with `days`: the ids of a page among the matches of a range of buckets (from one
   * bucket's key on, below a newer bucket's key when given), read from an index of the matches
   * by time in `probes` ranges — for a page deep into its bucket, where the walk would step over
   * many more entries than the bucket holds matches (`countedList.ts`).
   */
  bucketIds?: {
    probes: number;
    ids: (
      range: { from: string; below?: string },
      direction: 'asc' | 'desc',
      limit: number,
      offset: number,
    ) => RawBuilder<unknown>;
  };
}

type Row = Record<string, unknown>;

/**
 * The entries of migration 011's `scan_dtcs` (dtc, scan_start_time, scan_id) for `code`, since
 * `from` when given: a range of that index, as a FROM clause with the alias `d`.
 */
export function codeEntries(code: string, from?: string): RawBuilder<unknown> {
  return from === undefined
    ? sql`scan_dtcs d WHERE d.dtc = ${code}`
    : sql`scan_dtcs d WHERE d.dtc = ${code} AND d.scan_start_time >= ${from}`;
}

/**
 * A page of scan ids stepped over in `entries` (a FROM clause over `scan_dtcs d`, as
 * `codeEntries`) in the index's own order, from the nearer end: no sort of the code's scans, and
 * no table row read for the ones skipped.
 */
export function pageOfEntries(entries: RawBuilder<unknown>): NonNullable<Plan['ids']> {
  return (direction, limit, offset) => {
    const dir = sql.raw(direction);
    return sql`SELECT d.scan_id FROM ${entries} ORDER BY d.scan_start_time ${dir}, d.scan_id ${dir} LIMIT ${limit} OFFSET ${offset}`;
  };
}

/**
 * The scans reporting `code`: migration 011's monthly counters (~30 rows). SQLite is held to their
 * key: without statistics it chose the covering (topic, month, n, key) index and read every code's
 * months (15–40 ms at a million scans).
 */
export async function scansReporting(db: Kysely<Database>, dialect: Dialect, code: string): Promise<number> {
  const byKey = dialect === 'sqlite' ? sql` INDEXED BY sqlite_autoindex_overview_months_1` : sql``;
  const [found] = await rows<{ n: unknown }>(
    db,
    sql`SELECT sum(n) AS n FROM overview_months${byKey} WHERE topic = 'dtc' AND key = ${code}`,
  );
  return Number(found?.n ?? 0);
}

export async function rows<T = Row>(db: Kysely<Database>, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

/**
 * A contains filter tested on the row itself, kept off every index (SQLite `+`; PostgreSQL an
 * expression no index holds) — the same rows as its matching values in `list_totals` (both are
 * `LIKE` / `ILIKE` of the same pattern), for a fragment that matches more values than are worth
 * listing (MAX_PAIR_VALUES).
 *
 * PostgreSQL, an ASCII fragment: a value of ASCII characters alone (as many bytes as characters)
 * is tested under the "C" collation, whose ILIKE folds ASCII case byte by byte, where the
 * database's folds every character through the C library (~0.2 against ~0.45 µs a value; 'kumar'
 * page 100 41 → 35 ms, 'gmail' page 10,000 36 → 17). On ASCII text and an ASCII pattern the two
 * agree; any other value takes the database's ILIKE, as the counters did (the Kelvin sign U+212A
 * folds to 'k' there and not under "C"), so the rows are still exactly those counted. Written as
 * an OR of ILIKEs, not a CASE, so that PostgreSQL estimates it as it does ILIKE and keeps its
 * parallel walk where it chose one (with a CASE, estimated to hold half the rows, 'kumar' with
 * Diesel walked alone: 106 → 125 ms; as an OR 96).
 */
export function rowTest(column: string, value: unknown, dialect: Dialect = 'sqlite') {
  const pattern = likePattern(String(value));
  if (dialect !== 'postgres') return sql<SqlBool>`+${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`;
  const own = sql<SqlBool>`(${sql.ref(column)} || '') ILIKE ${pattern} ESCAPE '\\'`;
  if (!isAscii(String(value))) return own;
  const ascii = sql`octet_length(${sql.ref(column)}) = char_length(${sql.ref(column)})`;
  return sql<SqlBool>`(((${sql.ref(column)} || '') COLLATE "C" ILIKE ${pattern} ESCAPE '\\' AND ${ascii}) OR (NOT ${ascii} AND ${own}))`;
}

/** Whether `text` holds ASCII characters alone. */
const isAscii = (text: string) => [...text].every((c) => c.charCodeAt(0) < 0x80);

/**
 * Whether a contains filter matches more than MAX_PAIR_VALUES of its column's counted values,
 * reading at most one more than that ('gmail' among a million addresses: 3 ms on SQLite, where
 * reading every match takes 180 ms) — or, PostgreSQL, is an e-mail fragment some domain holds in
 * WALK_SHARE of the rows or more. Such a filter is tested on the rows (`rowTest`) or on the pair
 * counters' values.
 */
export async function matchesTooMany(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rule: FilterRule,
  value: unknown,
): Promise<boolean> {
  if (rule.match !== 'contains') return false;
  // PostgreSQL, a surname: 035's address counts per folded address ('kumar': ~500 folded rows,
  // where counting 5,001 addresses read 10,500 heap blocks, 170–250 ms).
  if (await readsFolds(db, dialect, table, rule.column, value))
    return (await foldedFacts(db, table, rule.column, String(value))).addresses > MAX_PAIR_VALUES;
  // PostgreSQL, a fragment some domain holds, in WALK_SHARE of the rows or more (its domains'
  // counters and its few local-only addresses say so in ~3 ms): tested on the rows as they are
  // walked, whatever its number of addresses. Counting up to MAX_PAIR_VALUES + 1 of them below
  // cannot stop early here: the trigram index answers with a bitmap, 'gmail''s ~200,000 entries
  // gathered first (18–24 ms of every 'gmail' request).
  if (
    dialect === 'postgres' &&
    splitsAtDomain(rule.column, value) &&
    (await heldByDomain(db, dialect, table, rule.column, value)) &&
    (await containingTotal(db, dialect, table, rule.column, String(value))).total >=
      WALK_SHARE * (await tableTotal(db, table))
  )
    return true;
  // SQLite, a fragment no domain holds (a surname): its rows, which bound its addresses. Over
  // MAX_PAIR_VALUES rows it is summed and tested as a frequent one even if its addresses are
  // fewer: exact either way, as every plan is.
  const surname = await surnameRows(db, dialect, table, rule.column, String(value));
  if (surname !== undefined) return surname > MAX_PAIR_VALUES;
  return (await countedValuesContaining(db, dialect, table, rule.column, value)).length > MAX_PAIR_VALUES;
}

/**
 * The counted values (holding rows) of `column` containing `value`, at most one more than are
 * worth listing, without their months: whether there are too many (`matchesTooMany`), and the
 * values when not — one read of the counters' trigram index, shared by the statements of a
 * request, where they were counted and then read again (PostgreSQL, 'kumar1''s 4,216 addresses
 * among special-function runs: 6.5 ms, then 9.6 with their months). Only values holding rows: a
 * value whose rows all left it keeps its counter row at 0, and counting those could pass
 * MAX_PAIR_VALUES for nothing.
 */
function countedValuesContaining(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  value: unknown,
): Promise<{ col: string; val: string; n: unknown }[]> {
  return sharedRead(JSON.stringify(['countedValuesContaining', table, column, value]), () =>
    rows(
      db,
      containingValues(dialect, table, column, value, sql`t.col, t.val, t.n`, MAX_PAIR_VALUES + 1, true),
    ),
  );
}

/**
 * The counter rows (`list_totals` as `t`) of `column` whose value contains `value`, at most
 * `limit`, `selected` from each. PostgreSQL's ILIKE is answered by 004's trigram index. SQLite
 * reads 026's trigram index for a fragment it answers (three or more characters, no wildcard)
 * and tests each value found with LIKE again: the index folds case beyond ASCII, LIKE does not,
 * so the values are exactly those a scan with LIKE finds (one address among 600,000: 135 ms of
 * scanning at load 6, a few ms through the index); other fragments scan the column's values.
 */
export function containingValues(
  dialect: Dialect,
  table: string,
  column: string,
  value: unknown,
  selected: RawBuilder<unknown>,
  limit?: number,
  counted = false,
) {
  const fragment = String(value);
  const like = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
  const matching = sql`t.tbl = ${table} AND t.col = ${column}${counted ? sql` AND t.n > 0` : sql``} AND t.val ${like} ${likePattern(fragment)} ESCAPE '\\'`;
  const limited = limit === undefined ? sql`` : sql` LIMIT ${limit}`;
  if (dialect === 'sqlite' && usesTrigramIndex(fragment))
    return sql`SELECT ${selected} FROM list_values_search f CROSS JOIN list_totals t ON t.rowid = f.rowid WHERE ${trigramPhrase('f.val', fragment)} AND ${matching}${limited}`;
  return sql`SELECT ${selected} FROM list_totals t WHERE ${matching}${limited}`;
}

/**
 * Counter rows of `table`: each column's values that match its condition, and the table's own row
 * (col ''), as a UNION ALL of key ranges of `list_totals` (tbl, col, val). Written as one
 * `tbl = ? AND ((col = ? AND …) OR (col = '' AND val = ''))`, SQLite read every counter row of
 * the table instead — the ~600,000 e-mail values at a million scans — on every filtered request.
 */
export function valueCounts<T = { col: string; val: string; n: unknown }>(
  db: Kysely<Database>,
  table: string,
  columns: { column: string; matching: RawBuilder<unknown> }[],
  selected: RawBuilder<unknown> = sql`col, val, n`,
): Promise<T[]> {
  const ranges = [
    ...columns.map(
      ({ column, matching }) =>
        sql`SELECT ${selected} FROM list_totals t WHERE tbl = ${table} AND col = ${column} AND ${matching}`,
    ),
    sql`SELECT ${selected} FROM list_totals t WHERE tbl = ${table} AND col = '' AND val = ''`,
  ];
  return rows<T>(db, sql.join(ranges, sql` UNION ALL `));
}

/**
 * Whether PostgreSQL can find a list's matches through a trigram index: some contains fragment of
 * three characters or more (pg_trgm has no trigram to look up in a shorter one, 'MH').
 */
export function findsByTrigrams<Q extends object>(
  dialect: Dialect,
  rules: FilterRules<Q>,
  query: Q,
): boolean {
  return (
    dialect === 'postgres' &&
    activeRules(rules, query).some(
      ([param, rule]) => rule.match === 'contains' && String((query as Filters)[param]).length >= 3,
    )
  );
}

/**
 * The count of the rows an uncounted filter matches (a licence-plate fragment: 752 of 1,000,000
 * scans), sorted or on a deep page. Where a trigram index can find them (`findsByTrigrams`), it
 * counts the list's time column, which is never null: no index holds it beside the plate, so the
 * plate's trigram index is read (8 ms). `count(*)` let PostgreSQL read the plate's sort index
 * (plate, id) whole instead, testing each of its million entries (250–320 ms): it costs that scan
 * below the trigram index's heap visits, whose matches it overestimates thirteenfold. A short
 * fragment has no trigram, and that index-only scan is then the cheapest (267 ms for 'MH',
 * against 576 ms reading the table).
 */
export function matchCount(table: CountedTableName, byTrigrams: boolean) {
  return byTrigrams
    ? sql<number>`count(${sql.ref(COUNTED_LISTS[table].counted.order)})`
    : sql<number>`count(*)`;
}

/**
 * Every row of a counted table: its counter row with no column and no value, read once per
 * request (several plans ask).
 */
export function tableTotal(db: Kysely<Database>, table: string): Promise<number> {
  return sharedRead(JSON.stringify(['tableTotal', table]), async () => {
    const found = await rows<{ n: unknown }>(
      db,
      sql`SELECT n FROM list_totals WHERE tbl = ${table} AND col = '' AND val = ''`,
    );
    return Number(found[0]?.n ?? 0);
  });
}

export const sumOf = (list: { n: unknown }[]) => list.reduce((s, r) => s + Number(r.n), 0);

export function toMap(list: { day: string; n: unknown }[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const r of list) map.set(r.day, (map.get(r.day) ?? 0) + Number(r.n));
  return map;
}

/** The matching values' rows per month, summed (`list_totals.months`: JSON text on SQLite). */
function monthsOf(values: { months?: unknown }[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const { months } of values) {
    const perMonth = (typeof months === 'string' ? JSON.parse(months) : (months ?? {})) as Record<
      string,
      unknown
    >;
    for (const month in perMonth) map.set(month, (map.get(month) ?? 0) + Number(perMonth[month]));
  }
  return map;
}

/** Columns with a `COLLATE NOCASE` index on SQLite (migration 001). */
export const nocase = new Set(['email', 'user_email', 'make', 'model']);

/** Below this share of the table, a list reads the filter's index and sorts instead of walking. */
export const WALK_SHARE = 0.02;
/** Sum pair counters over at most this many matching values per filter (else: the general path). */
export const MAX_PAIR_VALUES = 5000;

/**
 * SQLite's `IN (…)` over the values a filter matched. SQLite binds at most 32,766 variables a
 * statement, and 'gmail' among a million app users matches ~300,000 addresses (a 500 "too many
 * SQL variables" before): past a thousand, the values go as one JSON array bound once
 * (`IN (SELECT value FROM json_each(?))`), the same set, so rows and totals still agree.
 */
export function valueList(vals: readonly string[]) {
  return vals.length <= 1000 ? sql.join(vals) : sql`SELECT value FROM json_each(${JSON.stringify(vals)})`;
}
/**
 * One contains filter matching more values than are worth listing ('gmail' among a million app
 * users: ~200,000 addresses). Listing them with their months for the total, and binding them for
 * the page, took 0.7-1.7 s at a million scans; here the database sums the matching counters
 * itself (nothing but the sum comes back) and the page tests the fragment on the entries it walks
 * (`rowTest`, the same LIKE / ILIKE of the same strings as the counters', so rows and total
 * agree). No months: summing them over the matching values' JSON took 0.6 s, while walking
 * from the newest row tests the fragment in the time-order index (page 5,000 of 'gmail': 45 ms).
 * Few rows among many values (not a walk) read the values through a sub-select instead of a
 * list of bound values.
 */
async function manyValues(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  value: unknown,
): Promise<Plan> {
  // An e-mail fragment without '@': its domains' counters and its local-only addresses (027);
  // else every matching address's counter, summed.
  const domains = splitsAtDomain(column, value)
    ? await containingTotal(db, dialect, table, column, String(value))
    : undefined;
  const total = domains
    ? domains.total
    : Number(
        (
          await rows<{ n: unknown }>(
            db,
            containingValues(dialect, table, column, value, sql`coalesce(sum(t.n), 0) AS n`),
          )
        )[0]?.n ?? 0,
      );
  const walk = total >= WALK_SHARE * (await tableTotal(db, table));
  const values = containingValues(dialect, table, column, value, sql`t.val`);
  // Its rows per day (029's domain days and its few local-only addresses' rows; a surname's folded
  // months on PostgreSQL), so a deep page starts its walk at the right day or month (page 10,000
  // of 'gmail' stepped over 300,000 entries).
  const order = COUNTED_LISTS[table].counted.order;
  const days =
    domains &&
    (domains.localAddresses <= MAX_LOCAL_ADDRESSES || (await readsFolds(db, dialect, table, column, value)))
      ? async (newest?: number) =>
          (await containingDays(db, dialect, table, column, order, String(value), undefined, newest)) ??
          new Map<string, number>()
      : undefined;
  // A surname's page deep into its month: that month's matches by folded address (045).
  const bucketIds =
    days && (await readsFolds(db, dialect, table, column, value))
      ? await foldedBucketIds(db, table, column, order, String(value))
      : undefined;
  return {
    total,
    walk,
    ...(days ? { days } : {}),
    ...(bucketIds ? { bucketIds } : {}),
    where: (walkPlan: boolean, inTimeOrder = false) =>
      walkPlan
        ? rowTest(column, value, dialect)
        : dialect === 'postgres'
          ? null
          : amongMatchedValues(table, column, values, inTimeOrder),
  };
}

/**
 * SQLite: `column` is one of `values` (listed, or a sub-query of counter values), which a
 * case-insensitive LIKE matched — so every case variant of a matched value is among them, and
 * plain `IN` selects the same rows as `COLLATE NOCASE IN`. The latter is served by 001's NOCASE
 * index of the column; matches sorted by the list's time (`inTimeOrder`) are found through a
 * sortable column's own index instead (051: column, id, time), which gives each one's time
 * without its row: 'x5''s 8,033 actuation runs, page 100, 26–37 ms through 001's index (a row
 * looked up per match), 5 through 051's; 'kumar1''s 6,776 special-function runs (a fragment of
 * more rows than are listed: a sub-query), page 1, 32. Not for a page sorted by another column,
 * which only tests the ids the matches hold: there 001's index was the faster (Toyota by model,
 * page 100: 28–37 ms, against 43–74).
 */
function amongMatchedValues(
  table: CountedTableName,
  column: string,
  values: RawBuilder<unknown>,
  inTimeOrder: boolean,
): Expression<SqlBool> {
  const sortable = (Object.values(COUNTED_LISTS[table].sort.columns) as string[]).includes(column);
  return nocase.has(column) && !(inTimeOrder && sortable)
    ? sql<SqlBool>`${sql.ref(column)} COLLATE NOCASE IN (${values})`
    : sql<SqlBool>`${sql.ref(column)} IN (${values})`;
}

/** Sum day counts over at most this many matching values (else: the general path). */
const MAX_DAY_VALUES = 200;
/**
 * PostgreSQL: few matches of at most this many values are read through the values' index (alone,
 * and the rarer of two filters beside a column that index carries: `pairPlan.ts`).
 */
export const MAX_PROBED_VALUES = 200;

/** How to count and page this filter, or undefined when the general path must (decided at once). */
export function plan(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  filter: ReturnType<typeof singleFilter>,
): (() => Promise<Plan>) | undefined {
  if (filter === undefined) return undefined;
  const spec = COUNTED_LISTS[table].counted;
  const all = () => tableTotal(db, table);
  const allDays = () =>
    rows<{ day: string; n: unknown }>(
      db,
      sql`SELECT day, n FROM list_days WHERE tbl = ${table} AND col = '' AND val = ''`,
    );

  // Few matches: read them through the filter's own index and sort, rather than walk the time
  // index hoping to meet 30 of them soon (PostgreSQL's estimates for ILIKE are too rough to
  // decide this well: it walked 13,000 index entries for 30 of 1,900 'city' models).
  const share = async (total: number) => total >= WALK_SHARE * (await all());

  if (filter === null) {
    return async () => ({ total: await all(), days: async () => toMap(await allDays()), walk: true });
  }
  const { rule, value } = filter;
  const column = rule.column;
  const byDay = (spec.byDay as readonly string[]).includes(column);
  const counted = byDay || (spec.totalsOnly as readonly string[]).includes(column);

  if (counted && (rule.match === 'contains' || rule.match === 'exact' || rule.match === 'flag'))
    return async () => {
      const contains = rule.match === 'contains';
      const matching = contains
        ? sql`val ${dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`} ${likePattern(String(value))} ESCAPE '\\'`
        : sql`val = ${rule.match === 'flag' ? (value ? '1' : '0') : String(value)}`;
      const monthly = (spec.byMonth as readonly string[]).includes(column);
      const selected = monthly ? sql`t.col, t.val, t.n, t.months` : sql`t.col, t.val, t.n`;
      type Counted = { col: string; val: string; n: unknown; months?: unknown };
      let values: Counted[];
      let all: number;
      if (contains) {
        // A frequent fragment is summed by the database instead (manyValues), told by reading at
        // most one value more than are worth listing, without their months ('joshi' among a
        // million app users: 6 ms, where reading 5,001 values with their months took 27); a
        // rare one's values are those read, their months read when a deep page needs them.
        if (await matchesTooMany(db, dialect, table, rule, value))
          return manyValues(db, dialect, table, column, value);
        values = await countedValuesContaining(db, dialect, table, column, value);
        if (values.length > MAX_PAIR_VALUES) return manyValues(db, dialect, table, column, value);
        all = await tableTotal(db, table);
      } else {
        // The table's own row (col '') comes along: one round trip for both.
        const found = await valueCounts<Counted>(db, table, [{ column, matching }], selected);
        values = found.filter((v) => v.col === column);
        all = sumOf(found.filter((v) => v.col === ''));
      }
      const total = sumOf(values);
      const walk = total >= WALK_SHARE * all;
      const vals = values.map((v) => v.val);
      return {
        total,
        walk,
        ...(byDay && vals.length > 0 && vals.length <= MAX_DAY_VALUES
          ? {
              days: async () =>
                toMap(
                  await rows(
                    db,
                    sql`SELECT day, n FROM list_days WHERE tbl = ${table} AND col = ${column} AND val IN (${sql.join(vals)})`,
                  ),
                ),
            }
          : {}),
        // Columns of many values carry their rows per month (migration 007): buckets of a month,
        // summed over the matching values (a fragment's read when a page asks for them).
        ...(monthly && vals.length > 0
          ? {
              days: async () =>
                monthsOf(
                  contains
                    ? await rows<{ months: unknown }>(
                        db,
                        sql`SELECT months FROM list_totals WHERE tbl = ${table} AND col = ${column} AND val ${dialect === 'postgres' ? sql`= ANY(${vals})` : sql`IN (${valueList(vals)})`}`,
                      )
                    : values,
                ),
            }
          : {}),
        // SQLite: the rows whose value is one of those counted, so rows and total agree exactly
        // (the FTS path folds case differently from LIKE for non-ASCII letters).
        ...(rule.match === 'contains' && dialect === 'sqlite'
          ? {
              where: (walkPlan: boolean, inTimeOrder = false) =>
                vals.length === 0
                  ? sql<SqlBool>`0`
                  : walkPlan
                    ? sql<SqlBool>`+${sql.ref(column)} IN (${valueList(vals)})`
                    : amongMatchedValues(table, column, valueList(vals), inTimeOrder),
            }
          : {}),
        // PostgreSQL, walking the time index: a hashed `= ANY` over the matched values costs a
        // quarter of ILIKE per index entry (page 10,000 of the 337,000 'gmail' scans: 34 ms of
        // walking instead of 117 ms) and selects exactly the rows counted. Few matches of a few
        // values are read as those values too: every counted column has an index led by it that
        // carries the time (025's, 044's sort indexes), so their ids and times come from the
        // index alone, where ILIKE's trigram index sends each match to its heap page ('city' at
        // three million scans, page 100: 6,013 matches on 5,975 pages, 95 ms cold, against 82
        // index pages and 5 ms). Many values keep ILIKE: a probe each.
        ...(rule.match === 'contains' && dialect === 'postgres'
          ? {
              where: (walkPlan: boolean) =>
                walkPlan || vals.length <= MAX_PROBED_VALUES
                  ? sql<SqlBool>`${sql.ref(column)} = ANY(${vals})`
                  : null,
            }
          : {}),
      };
    };

  if (rule.match === 'reportedCode' && table === 'scans')
    return async () => {
      // Scans reporting a fault code: migration 011 counts them per month (`scansReporting`).
      const code = String(value).trim().toUpperCase();
      return {
        total: await scansReporting(db, dialect, code),
        walk: true,
        // A page's ids step over its offset in 011's (dtc, start, scan_id) index alone, from the
        // nearer end: the time index walked testing each scan against the code's ids, or the
        // code's 18,000 scans sorted, read every one of them per page (P0300 page 1 at a million
        // scans: ~60 ms, three times that at three million).
        ids: pageOfEntries(codeEntries(code)),
      };
    };

  if (rule.match === 'atLeast' && column === spec.order)
    return async () => {
      // start ≥ from: the days after from's day, plus the rows of that day from `from` on.
      const from = String(value);
      const day = from.slice(0, 10);
      const days = (await allDays()).filter((d) => d.day >= day);
      const next = days
        .map((d) => d.day)
        .filter((d) => d > day)
        .sort()[0];
      const edge = Number(
        (
          await rows<{ n: unknown }>(
            db,
            sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} >= ${from}${next ? sql` AND ${sql.ref(column)} < ${next}` : sql``}`,
          )
        )[0]?.n ?? 0,
      );
      const map = toMap(days.filter((d) => d.day > day));
      if (edge > 0) map.set(day, edge);
      return { total: [...map.values()].reduce((s, n) => s + n, 0), days: async () => map, walk: true };
    };

  if (rule.match === 'atMost' && column === spec.order)
    return async () => {
      // time ≤ to (the actuations' "created to"): the days before to's day, plus the rows of that
      // day up to `to`; the day after it, with no match, bounds page 1 (the newest rows all fail
      // the bound). Counting them read a third of a million rows: 3.8 s on SQLite, 0.85 s on
      // PostgreSQL, for page 1 at a million runs.
      const to = String(value);
      const day = to.slice(0, 10);
      const days = await allDays();
      const [edge] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} >= ${day} AND ${sql.ref(column)} <= ${to}`,
      );
      const map = toMap(days.filter((d) => d.day < day));
      if (Number(edge?.n ?? 0) > 0) map.set(day, Number(edge?.n));
      const total = [...map.values()].reduce((s, n) => s + n, 0);
      const above = days
        .map((d) => d.day)
        .filter((d) => d > day)
        .sort()[0];
      if (above !== undefined) map.set(above, 0);
      return { total, days: async () => map, walk: true, boundsFirstPage: true };
    };

  if (rule.match === 'atMost' && 'end' in spec && column === spec.end)
    return async () => {
      // end ≤ to: the end-days before to's day, plus the rows ending within that day up to `to`.
      const to = String(value);
      const day = to.slice(0, 10);
      const before = sql`tbl = ${table} AND col = ${column} AND val < ${day}`;
      const edge = sql`${sql.ref(column)} >= ${day} AND ${sql.ref(column)} <= ${to}`;
      const [whole, partial] = await Promise.all([
        rows<{ n: unknown }>(db, sql`SELECT sum(n) AS n FROM list_totals WHERE ${before}`),
        rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${edge}`),
      ]);
      const total = Number(whole[0]?.n ?? 0) + Number(partial[0]?.n ?? 0);
      return {
        total,
        walk: await share(total),
        ...{
          days: async () => {
            const order = sql.ref(spec.order);
            const [w, p] = await Promise.all([
              rows<{ day: string; n: unknown }>(
                db,
                sql`SELECT day, sum(n) AS n FROM list_days WHERE ${before} GROUP BY day`,
              ),
              rows<{ day: string; n: unknown }>(
                db,
                sql`SELECT substr(${order}, 1, 10) AS day, count(*) AS n FROM ${sql.table(table)} WHERE ${edge} GROUP BY substr(${order}, 1, 10)`,
              ),
            ]);
            const map = toMap([...w, ...p]);
            // The newest rows may all end after `to`: the day just above the newest matching one
            // (with no matches) bounds page 1 too, so it does not walk through them.
            const newest = [...map.keys()].sort().at(-1);
            if (newest !== undefined) {
              const [above] = await rows<{ day: string | null }>(
                db,
                sql`SELECT min(day) AS day FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' AND day > ${newest}`,
              );
              if (above?.day) map.set(above.day, 0);
            }
            return map;
          },
        },
        // Walking in time order from the day bound, the end-time index must not be used: it would
        // collect every row ending before `to` and sort them (PostgreSQL chose that: 2 s).
        where: (walkPlan: boolean) =>
          !walkPlan
            ? sql<SqlBool>`${sql.ref(column)} <= ${to}`
            : dialect === 'sqlite'
              ? sql<SqlBool>`+${sql.ref(column)} <= ${to}`
              : sql<SqlBool>`(${sql.ref(column)} || '') <= ${to}`,
      };
    };
  return undefined;
}
