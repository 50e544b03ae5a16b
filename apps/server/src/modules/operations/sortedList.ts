import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { type FilterRule, type FilterRules, trigramMatchIds, whereFilters } from '../../lib/filters.ts';
import type { Page } from '../../lib/list.ts';
import { type ResolvedSort, sortModifiers } from '../../lib/sort.ts';
import { idArray } from '../../lib/sql.ts';
import { containingValues, findsByTrigrams, matchCount, plan, singleFilter } from './countPlan.ts';
import { readsFolds } from './emailDomains.ts';
import { foldedAddressesHolding } from './emailFolds.ts';
import {
  COUNTED_LISTS,
  type CountedTableName,
  countedColumnsOf,
  EMAIL_COLUMNS,
  heldByTimeIndex,
} from './lists.ts';
import { twoFilterPlan } from './twoFilters.ts';

/**
 * A page of an activity list sorted by another column than its time (decisions §9), at a million
 * rows, with the exact total. The total does not depend on the order: it comes from the same
 * counters as the list's own order (`countPlan.ts` `plan`), or from a count when no counter
 * answers (several filters, an uncounted column). Only the page query differs, and it is one of:
 *
 * - **range**: a filter on the sorted column itself is a range of that column's index.
 * - **walk** the sorted column's index (migration 015: one per sortable column, ending in the id)
 *   from the end the order starts at, testing each row against the filter, until the page: the
 *   rows read are about (offset + limit) × rows / matches. Right when matches are frequent.
 * - **walk against the ids**: the same walk reading the index alone, each id tested against the
 *   matches found once through the filter's own index. Right for thousands of matches.
 * - **sort the matches**: find them through the filter's own index (counters' values, FTS5 or
 *   trigram, the (value, time) indexes), then sort only them. Right when they are few, and what
 *   a walk that ran out of budget falls back to.
 *
 * The plan is chosen from the exact total before the page is asked for — the
 * databases' own planners cannot tell them apart for `contains` (their estimates of a LIKE are
 * guesses), so each query is written so that it can only be run the way chosen: the walk keeps
 * the filter's column out of any index (SQLite `+column`; PostgreSQL the counted values instead of
 * ILIKE), the sort materialises the matches before ordering them.
 */

type Query = { page: number; limit: number };
type Filters = Record<string, unknown>;

/** A walk is tried when it should read at most 1/WALK_MARGIN of the matches… */
const WALK_MARGIN = 3;
/** …and may read up to WALK_BUDGET times the rows it expects, while that stays under half the matches… */
const WALK_BUDGET = 10;
/**
 * …or up to 1/SORT_COST of the matches, whichever is more: a walked entry (an index step and the
 * row's lookup to test the filter) costs about as much as SORT_COST sorted matches (SQLite,
 * 1,000,000 scans: ~12 µs against ~4.7 µs), so such a walk costs at most about what the sort it
 * spares would. Matches the sorted order meets late but not never (country 91 under e-mail
 * descending: the first of them past 583 rows, all 30 within 20,000) are then found by walking
 * (1–23 ms) instead of sorting 542,856 of them (2.5 s).
 */
const SORT_COST = 3;
/**
 * Between these numbers of matches the walk may test ids against the matches instead of testing
 * rows (below); fewer are sorted at once, more are met soon by the plain walk, and listing them
 * first would cost more than it spares (country 91's 542,856 ids: ~150 ms on SQLite).
 */
const SEMI_JOIN_FROM = 5_000;
const SEMI_JOIN_TO = 200_000;
/** Index entries such a walk may read per match before the matches are sorted instead. */
const SEMI_JOIN_BUDGET = 20;
/** SQLite, sorted by the key: rows walked per match before the matches' ids are listed instead. */
const KEY_WALK_SHARE = 3;

async function tableRows(db: Kysely<Database>, table: CountedTableName): Promise<number> {
  const { rows } = await sql<{
    n: unknown;
  }>`SELECT n FROM list_totals WHERE tbl = ${table} AND col = '' AND val = ''`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The filter conditions of a walk: each active rule, kept away from the column's own index on
 * SQLite (whose planner would otherwise read every match through it and sort them).
 */
function walkConditions<T extends CountedTableName, Q extends object>(
  dialect: Dialect,
  rules: FilterRules<Q>,
  query: Q,
  single: ((walk: boolean) => Expression<SqlBool> | null) | undefined,
): (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool> {
  return (eb) => {
    // The plan's own condition (one counted filter, or two through the pair counters) covers all.
    const planned = single?.(true);
    if (planned) return planned;
    const conditions: Expression<SqlBool>[] = [];
    for (const [param, rule] of Object.entries(rules) as [string, FilterRule][]) {
      const value = (query as Filters)[param];
      if (value === undefined || value === null || value === '') continue;
      const column = sql.ref(rule.column);
      if (dialect === 'sqlite' && rule.match === 'exact')
        conditions.push(sql<SqlBool>`+${column} = ${value}`);
      else if (dialect === 'sqlite' && rule.match === 'flag')
        conditions.push(sql<SqlBool>`+${column} = ${value ? 1 : 0}`);
      else if (dialect === 'sqlite' && rule.match === 'atLeast')
        conditions.push(sql<SqlBool>`+${column} >= ${value}`);
      else if (dialect === 'sqlite' && rule.match === 'atMost')
        conditions.push(sql<SqlBool>`+${column} <= ${value}`);
      else
        conditions.push(
          whereFilters(eb, dialect, { [param]: rule } as FilterRules<Filters>, query as Filters),
        );
    }
    return eb.and(conditions);
  };
}

/** Filters whose condition is on their column alone (no subquery, no other table). */
const TESTED_ON_COLUMN = new Set<FilterRule['match']>([
  'contains',
  'exact',
  'flag',
  'atLeast',
  'atMost',
  'equalsCI',
]);

/**
 * Whether a walk of the sorted column's index can test every active filter on its entries alone —
 * the filter's column is the sorted one or one the sort indexes carry (not the time column's own
 * index, nor the primary key): on PostgreSQL 044's (`sortCarried`), on SQLite 051's
 * (`sortCarriedSqlite`). Such a walk reads no row: 'joshi' sorted by e-mail, page 100, walked the
 * address index testing each entry in 8 ms on SQLite, where listing its 42,424 ids through its
 * 25,156 addresses first took 31 (61 in all).
 */
function walkReadsIndexOnly<T extends CountedTableName, Q extends object>(
  dialect: Dialect,
  table: T,
  sort: ResolvedSort,
  rules: FilterRules<Q>,
  query: Q,
): boolean {
  const { counted, sort: shape } = COUNTED_LISTS[table];
  if (sort.column === counted.order || sort.column === shape.key) return false;
  const held = new Set<string>([
    sort.column,
    ...(dialect === 'postgres' ? counted.sortCarried : counted.sortCarriedSqlite),
  ]);
  return (Object.entries(rules) as [string, FilterRule][]).every(([param, rule]) => {
    const value = (query as Filters)[param];
    if (value === undefined || value === null || value === '') return true;
    return TESTED_ON_COLUMN.has(rule.match) && held.has(rule.column);
  });
}

/**
 * Whether the one filter is an exact value or a bound of the sorted column: its matches are then
 * a range of that column's index (migration 015: the column, then the id), read from the end the
 * order starts at. Walking it with the filter kept off the index read every row outside the range
 * first (an end bound sorted by end time descending: 2.3 s at a million scans).
 */
function onSortedColumn(filter: ReturnType<typeof singleFilter>, sort: ResolvedSort): boolean {
  if (!filter) return false;
  const { rule } = filter;
  return (
    rule.column === sort.column &&
    (rule.match === 'exact' || rule.match === 'flag' || rule.match === 'atLeast' || rule.match === 'atMost')
  );
}

/** At most this many counted values are located one by one (below); more are walked or sorted. */
const SORTED_VALUES = 5000;

/**
 * A contains filter on the sorted column itself, matching a few counted values ('toyota' sorted
 * by make: 'Toyota'; 'bmw': 'BMW' and 'BMW Bikes'): each value's rows are one range of the sorted
 * column's index, so the values in the sorted order, with their counts, say which of them hold
 * the page and how many of the first one's rows come before it. Walking the index testing the
 * fragment met the matches only past every other make (0.2–0.3 s at a million scans); sorting
 * 'bmw''s 32,932 actuation runs took 440 ms on PostgreSQL. The counters' values sort as the
 * column's (the same text, the same collation). Undefined past SORTED_VALUES values (an e-mail
 * fragment: thousands of addresses), or for a column without per-value counters.
 */
async function valuesOfSortedColumn(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  filter: ReturnType<typeof singleFilter>,
  sort: ResolvedSort,
  offset: number,
  limit: number,
): Promise<{ values: string[]; skip: number } | undefined> {
  if (filter?.rule.match !== 'contains' || filter.rule.column !== sort.column) return undefined;
  if (!countedColumnsOf(table).includes(sort.column)) return undefined;
  const values = containingValues(
    dialect,
    table,
    sort.column,
    filter.value,
    sql`t.val, t.n`,
    SORTED_VALUES + 1,
    true,
  );
  const direction = sql.raw(sort.order);
  // Each value with the matches sorted before it; only those holding a row of the page are kept.
  const { rows } = await sql<{ val: string; before: unknown; n_values: unknown }>`
    SELECT val, before, n_values FROM (
      SELECT val, n, sum(n) OVER (ORDER BY val ${direction} ROWS UNBOUNDED PRECEDING) - n AS before,
        count(*) OVER () AS n_values
      FROM (${values}) v
    ) w
    WHERE before < ${offset + limit} AND before + n > ${offset}
    ORDER BY val ${direction}`.execute(db);
  if (rows.length === 0 || Number(rows[0]?.n_values) > SORTED_VALUES) return undefined;
  return { values: rows.map((r) => r.val), skip: offset - Number(rows[0]?.before) };
}

/** SQLite: matches of several values past this many are not read from the pair's index and sorted. */
const WITHIN_SORTED = 200_000;

/**
 * The one filter's values, when its column's values order the sorted column (the shape's
 * `sortedWithin`: a VIN names its make, a plate's form its country, a value's rows lie in its
 * value-time index in time order) and an index holds the two (050's, 004/017/025's), or when the
 * sorted column is the key and the filter's column has its own sort index ((column, id, …), 051).
 * One value's matches are then a range of that index in the sorted order (country 91 by plate
 * descending, page 100: the walk of the plate index looked up ~60,000 rows for their country,
 * 99–119 ms p95); several values' ranges are read from that index alone and sorted, up to
 * WITHIN_SORTED matches (Toyota by VIN descending, page 1: the walk against its 50,513 ids read
 * ~500,000 VINs of other makers first, 92–122 ms). A contains filter's values are its counted ones
 * (the same values make the total). PostgreSQL: one value of 053's pairs (the same indexes,
 * sorted by neither the key nor the list's time), its range read backwards for a descending sort.
 */
async function valuesSortedWithin(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  filter: ReturnType<typeof singleFilter>,
  sort: ResolvedSort,
  total: number,
): Promise<unknown[] | undefined> {
  if (!filter) return undefined;
  const { rule, value } = filter;
  const { counted, sort: shape } = COUNTED_LISTS[table];
  const within: Readonly<Record<string, readonly string[]>> = counted.sortedWithin;
  // Sorted by the key: Toyota by id, page 100, walked the table's rows in id order testing each
  // (~60,000, 70–100 ms).
  const byKey = sort.column === shape.key && (Object.values(shape.columns) as string[]).includes(rule.column);
  // PostgreSQL: 053's pairs only (its carrying sort indexes walk the others well), one value.
  const postgres = dialect === 'postgres';
  if (postgres && (byKey || sort.column === counted.order)) return undefined;
  if (!byKey && !within[rule.column]?.includes(sort.column)) return undefined;
  if (rule.match === 'exact') return [value];
  if (rule.match !== 'contains' || !countedColumnsOf(table).includes(rule.column)) return undefined;
  const { rows } = await sql<{ val: string }>`${containingValues(
    dialect,
    table,
    rule.column,
    value,
    sql`t.val`,
    SORTED_VALUES + 1,
    true,
  )}`.execute(db);
  if (rows.length === 0 || rows.length > SORTED_VALUES) return undefined;
  // Several values' ranges are merged by a sort: SQLite's up to WITHIN_SORTED matches; PostgreSQL
  // keeps its walks (it sorted Toyota's 50,513 in ~30 ms, as long as its walk).
  if (rows.length > 1 && (postgres || total > WITHIN_SORTED)) return undefined;
  return rows.map((r) => r.val);
}

/** Rows of the page's sorted values a paired read may read per row it keeps (offset + page)… */
const PAIRED_DENSITY = 4;
/** …or this many, whichever is more. */
const PAIRED_ROWS = 2_000;

/**
 * A filter on one counted column sorted by another that relates to it (BMW's actuation runs by
 * car model id: the model ids are BMW's own): the pair counters (017: rows per pair of values of
 * the two columns) summed per value of the sorted column, in the sorted order, say which values
 * hold the page and how many matches of the first come before it — as `valuesOfSortedColumn` does
 * for a filter on the sorted column itself. Walking the sorted column's index met no match until
 * the filter's own values (every other make's models first); sorting 32,932 matches read all
 * their rows (430–500 ms at a million). Kept only when the rows of those values are mostly
 * matches (PAIRED_DENSITY): unrelated columns are walked instead, where matches come early.
 * Rows whose sorted column is null are in no pair: there are `total` less the pairs' sum, first
 * ascending and last descending (as SQLite orders nulls); a page among them is left to the other
 * plans. Numeric columns (the shape's `numeric`) order their counters' text as numbers.
 */
async function pairedValuesOfSortedColumn(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  filter: ReturnType<typeof singleFilter>,
  sort: ResolvedSort,
  offset: number,
  within: number,
  total: number,
): Promise<{ values: string[]; skip: number } | undefined> {
  if (!filter || filter.rule.column === sort.column) return undefined;
  const { rule, value } = filter;
  if (rule.match !== 'contains' && rule.match !== 'exact' && rule.match !== 'flag') return undefined;
  const counted = countedColumnsOf(table);
  if (!counted.includes(rule.column) || !counted.includes(sort.column)) return undefined;
  // An e-mail has a pair per address: sums over up to hundreds of thousands of them, each address
  // holding a row or two, are neither quick nor dense, on either side.
  if (EMAIL_COLUMNS.includes(sort.column) || EMAIL_COLUMNS.includes(rule.column)) return undefined;
  // The pairs are keyed with the two columns in name order.
  const filterSide = rule.column < sort.column ? 'av' : 'bv';
  const sortSide = sql.ref(filterSide === 'av' ? 'bv' : 'av');
  const [a, b] = [rule.column, sort.column].sort() as [string, string];
  const filterValues =
    rule.match === 'contains'
      ? // Every value: the sums must be whole (the filter's column is not an e-mail: hundreds at most).
        sql`IN (${containingValues(dialect, table, rule.column, value, sql`t.val`, undefined, true)})`
      : sql`= ${rule.match === 'flag' ? (value ? '1' : '0') : String(value)}`;
  const numeric = (COUNTED_LISTS[table].counted.numeric as readonly string[]).includes(sort.column);
  const ordered = numeric
    ? sql`CAST(sv AS ${sql.raw(dialect === 'postgres' ? 'bigint' : 'integer')})`
    : sql`sv`;
  const direction = sql.raw(sort.order);
  // The null rows come first ascending: the page starts that many rows later among the paired.
  // (Integers the server worked out, written as literals: PostgreSQL need not guess their types.)
  const start =
    sort.order === 'asc' ? sql`${sql.lit(offset)} - (${sql.lit(total)} - paired)` : sql`${sql.lit(offset)}`;
  const { rows: held } = await sql<{
    sv: string;
    n: unknown;
    before: unknown;
    paired: unknown;
    start: unknown;
  }>`
    SELECT sv, n, before, paired, ${start} AS start FROM (
      SELECT sv, n, sum(n) OVER (ORDER BY ${ordered} ${direction} ROWS UNBOUNDED PRECEDING) - n AS before,
        sum(n) OVER () AS paired
      FROM (
        SELECT ${sortSide} AS sv, sum(n) AS n FROM list_pairs
        WHERE tbl = ${table} AND a = ${a} AND b = ${b} AND ${sql.ref(filterSide)} ${filterValues} AND n > 0
        GROUP BY ${sortSide}
      ) g
    ) w
    WHERE before < ${start} + ${sql.lit(within)} AND before + n > ${start}
    ORDER BY ${ordered} ${direction}`.execute(db);
  const first = held[0];
  // Pages reaching into the nulls are left to the other plans.
  if (!first || Number(first.start) < 0 || Number(first.start) + within > Number(first.paired))
    return undefined;
  const values = held.map((r) => r.sv);
  // Only dense values. PostgreSQL reads and sorts every row of them to keep the matches. SQLite
  // reads them in the order of the sorted column's index up to the page's end, about (skip + page)
  // × rows / matches of them: Toyota by model descending, page 100, is RAV4's 2,970th to 3,000th
  // match among its ~5,000 rows, all Toyota's (walked against Toyota's ids instead: 1M entries,
  // 105–190 ms).
  const rowsOfValues = await sql<{ n: unknown }>`
    SELECT coalesce(sum(n), 0) AS n FROM list_totals
    WHERE tbl = ${table} AND col = ${sort.column} AND val IN (${sql.join(values)})`.execute(db);
  const skip = Number(first.start) - Number(first.before);
  const rows = Number(rowsOfValues.rows[0]?.n);
  const matches = held.reduce((sum, r) => sum + Number(r.n), 0);
  const read = dialect === 'sqlite' ? ((skip + within) * rows) / Math.max(matches, 1) : rows;
  if (read > Math.max(PAIRED_DENSITY * (skip + within), PAIRED_ROWS)) return undefined;
  return { values, skip };
}

// biome-ignore lint/suspicious/noExplicitAny: a walk reads any list's table, by name
type AnyTables = any;
/** A query of any table's narrow window (`walkInOrder`). */
type AnySelect<O> = SelectQueryBuilder<AnyTables, AnyTables, O>;
/** A sort's order, then the key in its direction, put on a query of any table. */
export type InOrder = <O>(q: AnySelect<O>) => AnySelect<O>;

/**
 * The ids of a page found by walking a sort index from the end its order starts at: the first
 * `budget` entries (reading only `columns`, bare names of `source`'s table, the key among them)
 * are read in `ordered`'s order, `where` tested on them, and the page's ids kept — undefined when
 * fewer than `within` matched, the budget having run out before the page. A walk that finds its
 * page is exact: every row before the budget's end was tested, in order. The one place a bounded
 * walk is written, for the activity lists (`sortedPage`) and the users (`usersSortedList.ts`).
 */
export async function walkInOrder(
  db: Kysely<Database>,
  source: { table: string; alias: string; key: string },
  columns: Iterable<string>,
  ordered: InOrder,
  where: unknown,
  budget: number,
  page: { limit: number; offset: number; within: number },
): Promise<number[] | undefined> {
  const { table, alias, key } = source;
  const narrow = (db as Kysely<AnyTables>).selectFrom(
    alias === table ? table : `${table} as ${alias}`,
  ) as AnySelect<object>;
  const window = ordered(narrow.select([...columns].map((c) => sql.ref(c).as(c))))
    .limit(Math.ceil(budget) + page.limit)
    .as(alias);
  const found = (await ordered(
    db
      .selectFrom(window as never)
      .select(sql.ref<number>(key).as('id'))
      .where(where as never),
  )
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as { id: number }[];
  return found.length === page.within ? found.map((r) => r.id) : undefined;
}

/** One page of `table` under `rules` in the order `sort`, then the id in the same direction. */
export async function sortedPage<T extends CountedTableName, Q extends Query, R>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: T,
  rules: FilterRules<Q>,
  query: Q,
  base: () => SelectQueryBuilder<Database, T, object>,
  select: (q: SelectQueryBuilder<Database, T, object>) => SelectQueryBuilder<Database, T, R>,
  sort: ResolvedSort,
): Promise<Page<R>> {
  const offset = (query.page - 1) * query.limit;
  const filter = singleFilter(rules, query);
  const planned =
    plan(db, dialect, table, filter) ??
    (filter === undefined ? twoFilterPlan(db, dialect, table, rules, query) : undefined);
  const [all, p] = await Promise.all([tableRows(db, table), planned?.()]);
  const ruleWhere = (eb: ExpressionBuilder<Database, T>) => whereFilters(eb, dialect, rules, query);
  let total: number;
  if (p) total = p.total;
  else if (filter === null) total = all;
  else {
    // No counter answers (a licence-plate fragment): the matches are counted where they are found.
    const counted = await base()
      .where(ruleWhere)
      .select(matchCount(table, findsByTrigrams(dialect, rules, query)).as('n'))
      .executeTakeFirstOrThrow();
    total = Number((counted as { n: unknown }).n);
  }
  if (offset >= total || total === 0) return { rows: [], total };

  const direction = sort.order;
  const ordered = <O>(q: SelectQueryBuilder<Database, T, O>) =>
    q.orderBy(sql.ref(sort.column), sortModifiers(dialect, sort)).orderBy(sql.ref('id'), direction);
  const within = Math.min(query.limit, total - offset);
  // Rows read by a walk ≈ (offset + page) × all / matches; by a sort ≈ matches.
  const expected = filter === null ? 0 : ((offset + within) * all) / total;

  // Kysely writes an embedded query in parentheses: `AS MATERIALIZED (select …)`.
  let idsIn: ((eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>) | undefined;
  const sortedValues = await valuesOfSortedColumn(db, dialect, table, filter, sort, offset, query.limit);
  const pairedValues =
    sortedValues ??
    (await pairedValuesOfSortedColumn(db, dialect, table, filter, sort, offset, within, total));
  const withinValues =
    (sortedValues ?? pairedValues)
      ? undefined
      : await valuesSortedWithin(db, dialect, table, filter, sort, total);
  // SQLite, an e-mail fragment's ids from the trigram table without a row read (049): 'joshi''s
  // 42,424 in ~5 ms, where its 25,156 counted addresses looked up in the e-mail index took 31.
  const emailIds =
    dialect === 'sqlite' &&
    filter?.rule.match === 'contains' &&
    filter.rule.searchTable &&
    EMAIL_COLUMNS.includes(filter.rule.column)
      ? trigramMatchIds(table, filter.rule.searchTable, filter.rule.column, String(filter.value))
      : undefined;
  if (
    filter === null ||
    onSortedColumn(filter, sort) ||
    sortedValues !== undefined ||
    pairedValues !== undefined ||
    withinValues !== undefined
  ) {
    // No filter, or one that bounds the sorted column itself (country 91 by country, an end
    // bound by end time, 'toyota' by make), or whose matches are dense in a few values of it
    // (BMW by car model), or whose values order it (Toyota by VIN, 050's index): an index holds
    // the matches as ranges, in order. Skipped rows are stepped over in that index (ids only),
    // then the page's rows read.
    const inValues = (column: string, values: unknown[]) =>
      sql<SqlBool>`${sql.ref(column)} IN (${sql.join(values)})`;
    let bounded = base();
    if (sortedValues !== undefined) bounded = bounded.where(inValues(sort.column, sortedValues.values));
    else if (withinValues !== undefined && filter)
      bounded = bounded.where(inValues(filter.rule.column, withinValues));
    else if (pairedValues !== undefined)
      // The filter kept off its own indexes, the values' range the one read: SQLite's walk
      // conditions are written so; PostgreSQL ANDed the make's trigram bitmap (41,132 BMW rows,
      // 17 ms) with the few rows of the page's model ids, and cannot look up `(…) IS TRUE` (the
      // same rows: a null condition keeps none either way).
      bounded = bounded.where(inValues(sort.column, pairedValues.values)).where((eb) => {
        const tested = walkConditions<T, Q>(dialect, rules, query, p?.where)(eb);
        return dialect === 'postgres' ? sql<SqlBool>`(${tested}) IS TRUE` : tested;
      });
    else if (filter !== null) bounded = bounded.where(ruleWhere);
    const ids = ordered(bounded.select(sql.ref<number>('id').as('id')))
      .limit(query.limit)
      .offset(pairedValues?.skip ?? offset);
    idsIn = (eb) => eb(sql.ref('id'), 'in', ids as never);
  } else if (emailIds && sort.column === COUNTED_LISTS[table].sort.key) {
    // Sorted by the key: the fragment's ids, which the trigram table lists in their own order, are
    // the page's. 'joshi' by id, page 100: 0.7 ms, where walking the table's b-tree in id order
    // read ~70,000 rows to test their addresses (89 ms); 'gmail' page 1,000: 6 against 114.
    const sortedIds = sql<number>`SELECT id FROM (${emailIds}) ORDER BY id ${sql.raw(direction)} LIMIT ${query.limit} OFFSET ${offset}`;
    idsIn = () => sql<SqlBool>`${sql.ref('id')} IN (${sortedIds})`;
  } else {
    // The ids of the page found by walking the sorted column's index (at most `budget` entries,
    // reading `columns` from each) and testing `where`; undefined when the budget ran out first.
    const walk = (columns: Set<string>, where: unknown, budget: number) =>
      walkInOrder(db, { table, alias: table, key: 'id' }, columns, ordered, where, Math.min(all, budget), {
        limit: query.limit,
        offset,
        within,
      });
    // A walk testing each row it reads against the filters, reading at most `budget` entries.
    const rowWalk = (budget: number) => {
      const columns = new Set(['id', sort.column]);
      for (const [param, rule] of Object.entries(rules) as [string, FilterRule][]) {
        const value = (query as Filters)[param];
        if (value === undefined || value === null || value === '') continue;
        columns.add(rule.column);
        if (rule.match === 'within') columns.add(rule.to);
      }
      return walk(columns, walkConditions<T, Q>(dialect, rules, query, p?.where), budget);
    };
    let ids: number[] | undefined;
    // Not for a page so deep among so few matches that the walk would pass SEMI_JOIN_BUDGET
    // entries a match to reach it: sorting them costs less ('joshi1', 6,669 scans, by plate, page
    // 100: ~375,000 entries walked, 80–127 ms on PostgreSQL and ~50 on SQLite; sorted, 24–28).
    const semiJoin = total > SEMI_JOIN_FROM && total <= SEMI_JOIN_TO && expected <= SEMI_JOIN_BUDGET * total;
    // SQLite, sorted by the key (a filter other than an e-mail fragment, whose ids come sorted
    // above): the walk reads the table's own b-tree in its order, each entry the row itself, where
    // listing the matches' ids through their counted values costs ~1.3 µs a match. So
    // does a walk of the list's time order (oldest first) testing a column 004's time-order index
    // holds (the e-mail, the model): it reads that index alone ('joshi' from the oldest, page 100:
    // 8 ms walking, where listing its ids first and walking against them took 51).
    const walksTable =
      dialect === 'sqlite' &&
      (sort.column === COUNTED_LISTS[table].sort.key ||
        (sort.column === COUNTED_LISTS[table].counted.order &&
          !!filter &&
          heldByTimeIndex(table).includes(filter.rule.column)));
    const indexOnly = walkReadsIndexOnly(dialect, table, sort, rules, query);
    if (semiJoin && indexOnly)
      // Every filter tested in the sort index's own entries (044 on PostgreSQL, 051's time on
      // SQLite): the walk reads no row, so an entry costs what one tested against the matches' ids
      // does, and the ids need not be read first (Toyota's 50,513 on PostgreSQL: ~9 ms, then bound
      // as a 350 kB array). It gets the budget of a walk against the ids. The 111,851 scans since
      // 1 May by VIN descending, page 100, on SQLite: ~27,000 entries, where looking up each
      // one's row took 85–150 ms.
      ids = await rowWalk(Math.max(WALK_MARGIN * expected, SEMI_JOIN_BUDGET * total));
    else if (
      semiJoin &&
      (expected * WALK_MARGIN <= total || (walksTable && expected <= KEY_WALK_SHARE * total))
    )
      // Reading every match's id before such a walk (PostgreSQL ~2 µs each: 'generic''s 199,523,
      // 360-500 ms; SQLite: the 111,851 scans since 1 May sorted by id, 86 ms) costs more than a
      // walk testing rows when the page is near (the same pages by walking: 2-28 ms). So a short
      // walk goes first, and the ids are read only if it failed.
      ids = await rowWalk(Math.max(WALK_MARGIN * expected, Math.min(WALK_BUDGET * expected, total / 2)));
    if (!ids && semiJoin && !indexOnly) {
      // Matches a sort would pay for (thousands), too few for a walk that tests each row to meet
      // them soon: the walk reads the sorted column's index alone — (column, id) covers it, no
      // row is looked up — testing each id against the matches, found once through the filter's
      // own index. An entry costs ~0.15 µs against ~4.7 µs per sorted match (SQLite, 1,000,000
      // scans): Toyota (50,513) by VIN, model, e-mail or plate, page 100, 15–80 ms instead of
      // 120–450; the budget lets it read SEMI_JOIN_BUDGET entries per match.
      const budget = Math.max(WALK_MARGIN * expected, SEMI_JOIN_BUDGET * total);
      if (dialect === 'sqlite') {
        const condition = p?.where?.(false);
        const matches =
          emailIds ??
          base()
            .where(condition ? () => condition : ruleWhere)
            .select(sql.ref<number>('id').as('id'));
        ids = await walk(
          new Set(['id', sort.column]),
          () => sql<SqlBool>`${sql.ref('id')} IN (${matches})`,
          budget,
        );
      } else {
        // PostgreSQL turned `id IN (matches)` into a nested loop looking each walked id up in the
        // table (Toyota by VIN descending, page 100: 372,467 row lookups, 4.6 s). The matches'
        // ids are read first and bound as one array: `= ANY` of a constant array is hashed
        // (PostgreSQL 14+), and the walk stays an index-only scan in order; `id + 0` spares the
        // planner estimating each of the array's ids against the id's statistics (30 ms for
        // 50,000). A contains filter's counted values (list_totals, through its trigram index)
        // find the ids in the column's (column, id) index alone: 'joshi''s 42,424 in ~150 ms,
        // where ILIKE on the rows read 42,424 of them (650 ms); Toyota's 50,513 in ~12 ms. The
        // same values make the total, so rows and total agree. Only counters holding rows are
        // asked for (`t.n > 0`, which changes no answer): the primary key then no longer answers
        // alone, and an e-mail's addresses are found through 037's trigram index of the table's
        // own addresses ('joshi': 25,156 of 593,589 in ~80 ms, where testing each through the
        // primary key took ~300).
        // The ids travel as one array literal (`idArray`).
        const counted = filter && filter.rule.match === 'contains' && p?.where !== undefined;
        // A surname: its rows by folded address (045's index), fewer to look up than its addresses.
        const folded =
          counted && (await readsFolds(db, dialect, table, filter.rule.column, filter.value))
            ? await foldedAddressesHolding(db, table, filter.rule.column, String(filter.value))
            : undefined;
        const condition =
          folded ??
          (counted
            ? sql<SqlBool>`${sql.ref(filter.rule.column)} IN (${containingValues(dialect, table, filter.rule.column, filter.value, sql`t.val`, undefined, true)})`
            : p?.where?.(false));
        const matches = (await base()
          .where(condition ? () => condition : ruleWhere)
          .select(idArray(sql.ref('id')).as('ids'))
          .executeTakeFirst()) as { ids: string } | undefined;
        const matched = matches?.ids ?? '{}';
        ids = await walk(
          new Set(['id', sort.column]),
          () => sql<SqlBool>`${sql.ref('id')} + 0 = ANY(${matched}::int[])`,
          budget,
        );
      }
    } else if (!semiJoin && expected * WALK_MARGIN <= total) {
      // A walk, within a budget: the matches are spread evenly through the sorted column only when
      // the two columns are unrelated. Related ones (a VIN names its make; BMW's models are BMW's)
      // leave long stretches without a match, which an unbounded walk read through (12 s for BMW
      // actuations by model). So the walk reads at most WALK_BUDGET times the rows it expects (less
      // when that would pass half the matches, which a sort reads anyway; never below WALK_MARGIN),
      // or a SORT_COST-th of the matches when that is more, and only if that found the page is it
      // kept; otherwise the matches are sorted (below).
      ids = await rowWalk(
        Math.max(WALK_MARGIN * expected, Math.min(WALK_BUDGET * expected, total / 2), total / SORT_COST),
      );
    }
    if (ids) {
      const page = ids;
      idsIn = (eb) => eb(sql.ref('id'), 'in', page as never);
    }
  }
  if (!idsIn) {
    // The matches through the filter's index, materialised, then sorted: no index on the sorted
    // column can tempt the planner into walking it for a few matches.
    const condition = p?.where?.(false);
    const matches = base()
      .where(condition ? () => condition : ruleWhere)
      .select([sql.ref<number>('id').as('id'), sql.ref(sort.column).as('sort_value')])
      // The rows' own time, when no counter found the matches: see `matchCount`.
      .$if(!condition && findsByTrigrams(dialect, rules, query), (q) =>
        q.select(sql.ref(COUNTED_LISTS[table].counted.order).as('row_time')),
      );
    const nulls =
      dialect === 'postgres' && sort.nullable
        ? direction === 'asc'
          ? sql` NULLS FIRST`
          : sql` NULLS LAST`
        : sql``;
    const ids = sql<number>`WITH matches AS MATERIALIZED ${matches} SELECT id FROM matches ORDER BY sort_value ${sql.raw(direction)}${nulls}, id ${sql.raw(direction)} LIMIT ${query.limit} OFFSET ${offset}`;
    idsIn = () => sql<SqlBool>`${sql.ref('id')} IN (${ids})`;
  }
  const page = await ordered(select(base().where(idsIn as never)).clearOrderBy()).execute();
  return { rows: page as R[], total };
}
