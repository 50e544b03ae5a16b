import type { SortQuery } from '@obd/contract';
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
import {
  activeRules,
  type FilterRule,
  type FilterRules,
  trigramCandidates,
  usesTrigramIndex,
  whereFilters,
} from '../../lib/filters.ts';
import { fetchPage, type Page } from '../../lib/list.ts';
import { withSharedReads } from '../../lib/sharedReads.ts';
import { resolveSort, type SortShape } from '../../lib/sort.ts';
import { inIndexOrder, type PlannerMethod, withPlanPricedOut } from '../../lib/sql.ts';
import { findsByTrigrams, matchCount, plan, singleFilter, tableTotal, WALK_SHARE } from './countPlan.ts';
import { heldByDomain, splitsAtDomain } from './emailDomains.ts';
import { COUNTED_LISTS, type CountedTableName, countedColumnsOf } from './lists.ts';
import { sortedPage } from './sortedList.ts';
import { twoFilterPlan } from './twoFilters.ts';
import { countedValuesWhere, type ValuesWhere } from './valuesWhere.ts';

/**
 * Pages of the activity lists (scans, special-function runs, actuation runs) at a million rows,
 * with the exact total (decisions §1), without counting or skipping a million rows per request.
 *
 * With no filter or one filter, the total comes from the counters the database keeps (`countPlan.ts`; the
 * columns of `lists.ts`, counted by the triggers of migrations 004 and 007):
 * - no filter: the table's row count;
 * - contains / exact on a counted column: the sum over that column's distinct values that match
 *   (a LIKE over a few thousand values at most, with the same semantics as on the rows);
 * - start ≥ from: whole days after `from` from the day counts, plus one exact count within
 *   `from`'s day; end ≤ to: whole end-days before `to`, plus one exact count within `to`'s day.
 * A page past the total is empty without a query. A deeper page starts from the day its first row
 * is in: the day counts say how many matching rows lie after each day, so the query reads from
 * that day's upper bound with an offset below one day's rows, not 300,000.
 * Two or more filters, or a filter on an uncounted column (licence plate), take the general path
 * (`fetchPage`: COUNT and OFFSET), which the trigram indexes keep fast for selective filters.
 */

/** PostgreSQL: a walk of two filters is read in index order while it reads at most 1/8 of the rows. */
const INDEX_ORDER_READS = 8;
/**
 * PostgreSQL: a walk of one filter expected to read at most this many index entries runs alone
 * (`inIndexOrder`'s `serial`): a worker's start and its share read past the page cost more than
 * the walk ('joshi' page 100, ~14,000 entries: 11–20 ms in parallel, 5 alone). At three million
 * scans the same page lies in the newest month, ~71,000 entries from its start: 66–98 ms with two
 * workers on this 2-core machine, 44 alone (the singles at 3M summed: 705 → 514 ms; at 1M 760 →
 * 685). A walk starts at most a month of rows before its page (the month counters), so this is
 * about every single filter's walk here; the bound keeps workers for a walk of a larger table's.
 */
const SERIAL_WALK = 400_000;
/**
 * A page is read from its buckets' matches alone (`Plan.bucketIds`) when that costs less than
 * the walk to it, in µs as measured for a surname's month at three million scans: a walked
 * entry (an index-only entry and the fragment's test on it), a range looked up, and a match read
 * and sorted.
 */
const WALKED_ENTRY_US = 0.34;
const BUCKET_PROBE_US = 3;
const BUCKET_MATCH_US = 0.5;

/**
 * One page and the exact total of a counted list, on the database or a transaction (`db`).
 * `base` selects from the table; `select` adds
 * the columns and the order (the table's sort column descending, then id descending).
 * Its planners share the reads they ask alike (`sharedReads.ts`).
 */
export function countedPage<T extends CountedTableName, Q extends { page: number; limit: number }, R>(
  ...args: Parameters<typeof countedPageOf<T, Q, R>>
): Promise<Page<R>> {
  return withSharedReads(() => countedPageOf(...args));
}

async function countedPageOf<T extends CountedTableName, Q extends { page: number; limit: number }, R>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: T,
  rules: FilterRules<Q>,
  query: Q,
  base: () => SelectQueryBuilder<Database, T, object>,
  select: (q: SelectQueryBuilder<Database, T, object>) => SelectQueryBuilder<Database, T, R>,
): Promise<Page<R>> {
  // Another order than the list's own (decisions §9): the same totals, its own page query.
  const sort = resolveSort(COUNTED_LISTS[table].sort as SortShape<string>, query as SortQuery);
  if (sort) return sortedPage(db, dialect, table, rules, query, base, select, sort);
  const ruleWhere = (eb: ExpressionBuilder<Database, T>) => whereFilters(eb, dialect, rules, query);
  const filter = singleFilter(rules, query);
  const offset = (query.page - 1) * query.limit;
  const order = COUNTED_LISTS[table].counted.order;
  if (offset === 0 && filter && (await localDigitFragment(db, dialect, table, filter.rule, filter.value))) {
    const first = await rareMatchesFirstPage(db, table, base, ruleWhere, select, query.limit);
    if (first) return first;
  }
  // Two filters together (`twoFilters.ts`): the pair counters, an end or a start bound with a
  // counted value, a fault code since a date.
  const planned =
    plan(db, dialect, table, filter) ??
    (filter === undefined ? twoFilterPlan(db, dialect, table, rules, query) : undefined);
  if (!planned) {
    // A fragment of one or two characters ('MH', a state code: 40,201 scans) has no trigram to
    // find its matches by, and is frequent: it is counted and walked in time order below, where
    // one pass read and sorted every match's full row (SQLite 1–1.5 s → 54 ms, PostgreSQL 513 → 330).
    const foundByIndex = filter?.rule.match !== 'contains' || usesTrigramIndex(String(filter.value));
    // Several filters the counters cannot total: counted columns as their matching values.
    const valuesWhere =
      filter === undefined ? await countedValuesWhere(db, dialect, table, rules, query) : undefined;
    const filtered = base().where((valuesWhere?.where ?? ruleWhere) as typeof ruleWhere);
    const byTrigrams = !valuesWhere?.drives && findsByTrigrams(dialect, rules, query);
    if (valuesWhere?.drives)
      return drivenPage(db, dialect, table, filtered, base, select, query, valuesWhere.drives);
    if (offset === 0 && (filter ? foundByIndex : byTrigrams)) {
      // One uncounted filter (licence plate: trigram / FTS index), or on PostgreSQL filters a
      // trigram index finds (a plate fragment with a country): the page and its total from one
      // pass over the matches instead of two. The count visits every match anyway, so they are
      // best found through that index and sorted (a pair's matches are a subset of its
      // fragment's: no more to sort than the fragment alone): PostgreSQL, misjudging how many
      // plates match, walked the whole time index instead (2.6 s for 738 of 1,000,000
      // special-function runs); an order it cannot take from that index keeps it off it. 'MH 12'
      // with country 91 at three million scans: the trigram index and 3,449 heap pages read
      // once, not twice (22 → 12 ms).
      return firstPageInOnePass(dialect, table, filtered, select, query.limit);
    }
    const candidatesCount =
      dialect === 'sqlite' ? amongCandidates(db, table, rules, query, filtered) : undefined;
    if (offset === 0 && !byTrigrams) return fetchPage(filtered, select, query, candidatesCount);
    // A deeper page: its ids stepped over in an index (late row lookup), then its rows — not the
    // full rows (their scan JSON) of every skipped match ('gmail' since a date, page 100: the
    // 2,970 rows before it were read whole). On PostgreSQL page 1 too when a trigram index can
    // find the matches: the total decides whether to walk or to sort (below).
    const [total, all] = await Promise.all([
      candidatesCount?.() ??
        filtered
          .select(matchCount(table, byTrigrams).as('total'))
          .execute()
          .then(([counted]) => Number((counted as { total?: unknown } | undefined)?.total ?? 0)),
      tableTotal(db, table),
    ]);
    if (offset >= total) return { rows: [], total };
    // Fewer matches than a walk of the time index would read to reach the page, (offset + page) ×
    // rows / matches, are sorted instead: on PostgreSQL, an order it cannot take from that index
    // keeps it on the filter's own (a plate's 752 scans, page 2: 313 ms walking 86,000 entries,
    // 8 ms sorted; its 611 ended by March, page 1: 776 ms walking 208,000). SQLite finds them
    // through its FTS5 table either way.
    const sorts = byTrigrams && total * total < (offset + query.limit) * all;
    const ids = filtered
      .select(sql.ref<number>('id').as('id'))
      .orderBy(sorts ? sql`${sql.ref(order)} || ''` : sql.ref(order), 'desc')
      .orderBy(sql.ref('id'), 'desc')
      .limit(query.limit)
      .offset(offset);
    const rows = await select(base().where((eb) => eb(sql.ref<number>('id'), 'in', ids))).execute();
    return { rows: rows as R[], total };
  }
  const parallel = filter === null || filter?.rule.match === 'exact' || filter?.rule.match === 'flag';
  if (dialect === 'postgres' && offset === 0 && parallel) {
    // Page 1 does not depend on the counts here (the exact filters have their (value, time)
    // indexes): ask for both at once, on two pooled connections.
    const [p, page] = await Promise.all([
      planned(),
      select(base().where(ruleWhere)).limit(query.limit).execute(),
    ]);
    return { rows: page as R[], total: p.total };
  }
  const p = await planned();
  if (offset >= p.total) return { rows: [], total: p.total };

  // pg_trgm has no trigram to look up for fragments under three characters ('x5'): sorting
  // would scan the table (600 ms), walking the time index meets the matches soon enough.
  const shortFragment =
    dialect === 'postgres' && filter?.rule.match === 'contains' && String(filter.value).length < 3;
  const walk = p.walk || shortFragment;
  const condition = p.where?.(walk, true);
  let q = condition ? base().where(() => condition) : base().where(ruleWhere);
  let skip = offset;
  let olderEndOf: [string, number] | undefined;
  // The rows of a page whose ids were read first, newest first (`select` orders them).
  const rowsOf = async (found: number[]) =>
    found.length === 0 ? [] : select(base().where((eb) => eb(sql.ref<number>('id'), 'in', found))).execute();
  if (p.days && walk && (offset > 0 || filter?.rule.match === 'atMost' || p.boundsFirstPage)) {
    // Newest day first: find the day holding row `offset`, read from the bound above it.
    // Days with no match still bound the walk when skipped (none of their rows match).
    const days = [...(await p.days(offset + query.limit)).entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1));
    let after = 0;
    let bound: string | undefined;
    let holding: [string, number] | undefined;
    let at = 0;
    for (const [day, n] of days) {
      if (after + n > offset) {
        holding = [day, n];
        break;
      }
      after += n;
      bound = day;
      at += 1;
    }
    if (holding && p.bucketIds) {
      const read = bucketRead(days, at, offset - after, query.limit, bound);
      const walked = ((offset - after + query.limit) * (await tableTotal(db, table))) / Math.max(p.total, 1);
      if (walked * WALKED_ENTRY_US > p.bucketIds.probes * BUCKET_PROBE_US + read.held * BUCKET_MATCH_US) {
        const found = await p.bucketIds.ids(read.range, read.direction, read.limit, read.offset).execute(db);
        return {
          rows: (await rowsOf((found.rows as { id: number }[]).map((r) => r.id))) as R[],
          total: p.total,
        };
      }
    }
    if (bound !== undefined) {
      // Every row of a later day has that day as its first ten characters, so it sorts at or
      // above `bound`; every row of this day or an earlier one sorts below it. (Month buckets
      // are the first seven characters: the same holds.)
      const upper = bound;
      q = q.where(sql<SqlBool>`${sql.ref(order)} < ${upper}`);
      skip = offset - after;
    }
    // The page lies in the older half of the bucket holding it (a month holds ~19,000 of the
    // 337,000 'gmail' scans): it is read from that bucket's older end, where fewer matches lie
    // before it (below). The bucket's rows sort at or above its key, and there are n of them.
    if (holding && skip > holding[1] / 2 && skip + query.limit <= holding[1]) olderEndOf = holding;
  }
  // Skipped rows are stepped over in an index only (late row lookup): the ids of the page first,
  // then those 30 rows — never the full rows of the skipped ones.
  const pageOf = async (direction: 'asc' | 'desc', limit: number, from: number) => {
    if (!walk && dialect === 'postgres') {
      // Sorting few matches: an order PostgreSQL cannot take from the time index (the same
      // order: the time is never null) makes it use the filter's index. Their ids first, then
      // the page's rows: where that index carries the time, no match's row is read to sort it.
      const sorted = q
        .select(sql.ref<number>('id').as('id'))
        .orderBy(sql`${sql.ref(order)} || ''`, direction)
        .orderBy(sql.ref('id'), direction)
        .limit(limit)
        .offset(from);
      return select(base().where((eb) => eb(sql.ref<number>('id'), 'in', sorted))).execute();
    }
    const planned = p.ids;
    if (planned && walk && !p.days) {
      if (p.idsInIndexOrder)
        return rowsOf(
          await inIndexOrder(db, dialect, async (trx) =>
            (await planned(direction, limit, from).execute(trx)).rows.map((r) => (r as { id: number }).id),
          ),
        );
      return select(
        base().where(() => sql<SqlBool>`${sql.ref('id')} IN (${planned(direction, limit, from)})`),
      ).execute();
    }
    // Sorting few matches on SQLite (`sorts`): `+time` keeps the order off the time index.
    const sorting = p.sorts === true && !walk && dialect === 'sqlite';
    const key = sorting ? sql`+${sql.ref(order)}` : sql.ref(order);
    if (from === 0 && direction === 'desc')
      return (
        sorting ? select(q).clearOrderBy().orderBy(key, 'desc').orderBy(sql.ref('id'), 'desc') : select(q)
      )
        .limit(limit)
        .execute();
    const ids = q
      .select(sql.ref<number>('id').as('id'))
      .orderBy(key, direction)
      .orderBy(sql.ref('id'), direction)
      .limit(limit)
      .offset(from);
    // One filter: its ids walked in the time index, then their rows (see `inIndexOrder`). Two
    // only while the walk reads at most an eighth of the rows (it reads about (skip + page) × rows
    // / matches, each a random read, where the scan PostgreSQL chooses reads them all in order):
    // 'kumar' with Diesel tests the variant on each row the walk meets (1.7 % match), where the
    // table scan is the cheaper (372 ms walking against 289); Diesel ended by mid-2025 (127,721
    // matches), page 100, was read by a scan and a sort (200–320 ms) for a walk of ~9,000 rows.
    if (walk && dialect === 'postgres' && (filter || p.total >= INDEX_ORDER_READS * (from + limit))) {
      // One filter's walk of at most SERIAL_WALK entries runs without parallel workers.
      const serial =
        !!filter && ((from + limit) * (await tableTotal(db, table))) / Math.max(p.total, 1) <= SERIAL_WALK;
      return rowsOf(
        (
          await inIndexOrder(db, dialect, (trx) => trx.executeQuery(ids.compile()).then((r) => r.rows), {
            serial,
          })
        ).map((r) => r.id),
      );
    }
    return select(base().where((eb) => eb(sql.ref<number>('id'), 'in', ids))).execute();
  };
  if (olderEndOf) {
    const [first, n] = olderEndOf;
    q = q.where(sql<SqlBool>`${sql.ref(order)} >= ${first}`);
    return { rows: (await pageOf('asc', query.limit, n - skip - query.limit)) as R[], total: p.total };
  }
  if (skip === offset && offset > p.total / 2) {
    // No day bound, and the page is in the older half: read it from the oldest end instead, so
    // the offset skipped is total − offset rather than offset (page 10,000 of 337,000 skips
    // 37,000 rows, not 300,000). The outer query restores the newest-first order.
    const end = Math.min(offset + query.limit, p.total);
    return { rows: (await pageOf('asc', end - offset, p.total - end)) as R[], total: p.total };
  }
  return { rows: (await pageOf('desc', query.limit, skip)) as R[], total: p.total };
}

/**
 * SQLite, several filters, one of them a fragment of a column no counter holds (a plate) that
 * its FTS5 trigram table finds: their total counted over that table's candidates, each one's row
 * looked up by its id and tested. SQLite's own count read every entry of the other filter's index
 * against the candidates' ids: 'MH 12' in country 91 at three million scans, 1.29 million entries
 * (85 ms) for 2,335 candidates (12 ms looked up; at a million, page 1 28 → 6 ms); 'MH ' (117,643
 * candidates) 390 → 239 ms. Beside a rare value it costs a row read per candidate where SQLite
 * sought the value's index (~1 ms at a million; Toyota's 'MH 12' at three million, 13 → 24).
 * Each candidate is one rowid, so each match is counted once.
 */
function amongCandidates<T extends CountedTableName, Q extends object>(
  db: Kysely<Database>,
  table: T,
  rules: FilterRules<Q>,
  query: Q,
  filtered: SelectQueryBuilder<Database, T, object>,
): (() => Promise<number>) | undefined {
  const active = activeRules(rules, query);
  if (active.length < 2) return undefined;
  const searched = active.find(
    ([param, rule]) =>
      rule.match === 'contains' &&
      rule.searchTable !== undefined &&
      !countedColumnsOf(table).includes(rule.column) &&
      usesTrigramIndex(String((query as Record<string, unknown>)[param])),
  );
  const [param, rule] = searched ?? [];
  if (!param || rule?.match !== 'contains' || rule.searchTable === undefined) return undefined;
  const fragment = String((query as Record<string, unknown>)[param]);
  const candidates = trigramCandidates(rule.searchTable, rule.column, fragment);
  const matching = filtered
    .select(sql.lit(1).as('one'))
    .where((eb) => eb(sql.ref('id'), '=', sql.ref('m.id')));
  return async () => {
    const { rows } = await sql<{
      total: unknown;
    }>`SELECT count(*) AS total FROM (${candidates}) m WHERE EXISTS ${matching}`.execute(db);
    return Number(rows[0]?.total ?? 0);
  };
}

/**
 * PostgreSQL: an e-mail fragment with a digit ('joshi1'), which no folded counter holds, found
 * in local parts alone (no '@', in no domain): its total is the sum of the counters of every
 * address holding it (~4,200 for 'joshi1', each a heap row of `list_totals`: 8 ms warm, twice
 * that cold), and its page 1, when it holds few rows, its matches found through the table's
 * trigram index and sorted (6,669 heap rows). Not a fragment of a domain ('r1@gmail.com',
 * '1@g'): its trigrams are in most addresses, where its few counted addresses are found soon.
 */
async function localDigitFragment(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rule: FilterRule,
  value: unknown,
): Promise<boolean> {
  return (
    dialect === 'postgres' &&
    rule.match === 'contains' &&
    /[0-9]/.test(String(value)) &&
    splitsAtDomain(rule.column, value) &&
    !(await heldByDomain(db, dialect, table, rule.column, value))
  );
}

/**
 * Page 1 and the exact total from one pass over the matches, while they are fewer than
 * WALK_SHARE of the rows, where the plan would sort them too: the matches' ids and times read
 * once (at most that share and one more), counted, and the newest page taken — no counter read.
 * Undefined past that share (the plan walks the time index instead: the read is lost, at most
 * a fiftieth of the table's rows). 'joshi1' at a million scans: 24 → 14 ms warm.
 */
async function rareMatchesFirstPage<T extends CountedTableName, R>(
  db: Kysely<Database>,
  table: T,
  base: () => SelectQueryBuilder<Database, T, object>,
  where: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>,
  select: (q: SelectQueryBuilder<Database, T, object>) => SelectQueryBuilder<Database, T, R>,
  limit: number,
): Promise<Page<R> | undefined> {
  const cap = Math.ceil(WALK_SHARE * (await tableTotal(db, table)));
  const matches = base()
    .where(where)
    .select([sql.ref<number>('id').as('id'), sql.ref<string>(COUNTED_LISTS[table].counted.order).as('t')])
    .limit(cap + 1);
  const found = await sql<{ id: number; total: unknown }>`WITH m AS MATERIALIZED (${matches})
    SELECT id, (SELECT count(*) FROM m) AS total FROM m ORDER BY t DESC, id DESC LIMIT ${limit}`.execute(db);
  const total = Number(found.rows[0]?.total ?? 0);
  if (total > cap) return undefined;
  const ids = found.rows.map((r) => r.id);
  const rows =
    ids.length === 0
      ? []
      : await select(base().where((eb) => eb(sql.ref<number>('id'), 'in', ids))).execute();
  return { rows: rows as R[], total };
}

/**
 * Where a page lies among the matches of a range of buckets (`Plan.bucketIds`): `days` newest
 * first, the page's first row `within` rows into bucket `at`, below the newer bucket `bound`. The
 * range runs from that bucket to the oldest one the page reaches (`held`: their matches), and is
 * read from its nearer end — a top-N sort keeps offset + page rows.
 */
function bucketRead(
  days: readonly (readonly [string, number])[],
  at: number,
  within: number,
  limit: number,
  bound: string | undefined,
) {
  let oldest = at;
  let held = (days[at] as readonly [string, number])[1];
  while (held < within + limit && oldest + 1 < days.length)
    held += (days[++oldest] as readonly [string, number])[1];
  const range = { from: (days[oldest] as readonly [string, number])[0], ...(bound ? { below: bound } : {}) };
  return within > held / 2
    ? {
        range,
        held,
        direction: 'asc' as const,
        offset: Math.max(held - within - limit, 0),
        limit: Math.min(limit, held - within),
      }
    : { range, held, direction: 'desc' as const, offset: within, limit };
}

/**
 * Page 1 and its total from one pass over the matches (`count(*) over ()`), sorted: on PostgreSQL
 * by an order it cannot take from the time index, which keeps it on the filters' own indexes.
 */
async function firstPageInOnePass<T extends CountedTableName, R>(
  dialect: Dialect,
  table: T,
  filtered: SelectQueryBuilder<Database, T, object>,
  select: (q: SelectQueryBuilder<Database, T, object>) => SelectQueryBuilder<Database, T, R>,
  limit: number,
): Promise<Page<R>> {
  const order = COUNTED_LISTS[table].counted.order;
  let onePass = select(filtered);
  if (dialect === 'postgres')
    onePass = onePass
      .clearOrderBy()
      .orderBy(sql`${sql.ref(order)} || ''`, 'desc')
      .orderBy('id', 'desc');
  const counted = (await onePass
    .select(sql<number>`count(*) over ()`.as('total_rows'))
    .limit(limit)
    .execute()) as (R & { total_rows: unknown })[];
  return {
    rows: counted.map(({ total_rows: _, ...row }) => row as R),
    total: Number(counted[0]?.total_rows ?? 0),
  };
}

/**
 * PostgreSQL, filters read through the index of the one of the fewest rows (`valuesWhere.ts`
 * postgresFewestDrive), `driver.rows` of them. Few heap rows (a driver without time order): the
 * matches read once, sorted, with their total (a fault code's 17,717 scans with 'gmail' and
 * 'generic': each looked up once, not twice; 230 → 144 ms); beyond page 1 their ids alone (the
 * whole rows sorted took longer). Otherwise the total, then the page's ids in the driver's time
 * order — hidden from the planner's estimates, the matches looked few, and it read and sorted all
 * of them (42,572 for 'gmail', 'generic' and country 91: 700 ms) — then their rows.
 */
async function drivenPage<T extends CountedTableName, Q extends { page: number; limit: number }, R>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: T,
  filtered: SelectQueryBuilder<Database, T, object>,
  base: () => SelectQueryBuilder<Database, T, object>,
  select: (q: SelectQueryBuilder<Database, T, object>) => SelectQueryBuilder<Database, T, R>,
  query: Q,
  driver: NonNullable<ValuesWhere['drives']>,
): Promise<Page<R>> {
  const order = COUNTED_LISTS[table].counted.order;
  const offset = (query.page - 1) * query.limit;
  const all = await tableTotal(db, table);
  // The rows of the page whose ids were read, newest first (`select` orders them).
  const pageOf = async (ids: number[], total: number): Promise<Page<R>> =>
    ids.length === 0
      ? { rows: [], total }
      : {
          rows: (await select(base().where((eb) => eb(sql.ref<number>('id'), 'in', ids))).execute()) as R[],
          total,
        };
  // Few heap rows (a fault code's scans, looked up by id; a rare model's): page 1 and its total
  // from one pass over them (`firstPageInOnePass`), a deeper page's ids and the total too, not
  // two (P0300's 17,717 with 'gmail' in country 91: 148 ms a pass), the total kept when the page
  // is past them. Not a driver in time order: its index holds every column tested (054), so it
  // is counted there and walked to the page ('gmail' with Toyota since 1 March, page 1, in one
  // pass: 11,203 rows on 10,878 heap pages, 28 ms warm, 312 cold).
  if (!driver.inTimeOrder && driver.rows < WALK_SHARE * all) {
    if (offset === 0) return firstPageInOnePass(dialect, table, filtered, select, query.limit);
    const matches = filtered.select([sql.ref<number>('id').as('id'), sql.ref<string>(order).as('t')]);
    const { rows: found } = await sql<{ id: number | null; n: unknown }>`WITH m AS MATERIALIZED (${matches})
      SELECT p.id, c.n FROM (SELECT count(*) AS n FROM m) c
      LEFT JOIN LATERAL (SELECT id FROM m ORDER BY t DESC, id DESC LIMIT ${query.limit} OFFSET ${offset}) p ON true`.execute(
      db,
    );
    return pageOf(
      found.flatMap((r) => (r.id === null ? [] : [r.id])),
      Number(found[0]?.n ?? 0),
    );
  }
  // A driver of up to SERIAL_WALK rows is counted without parallel workers: its index holds
  // every column tested (054), and on two cores starting and feeding the workers cost more than
  // the walk ('gmail' with Toyota in country 91, 50,513 index-only entries: counted in 64–90 ms
  // in parallel, 19 alone). A fault code's scans beside the driver are hashed (`hashesCode`),
  // not probed per entry.
  const few = driver.rows <= SERIAL_WALK;
  const hashing: PlannerMethod[] = driver.hashesCode ? ['enable_nestloop'] : [];
  const counting = filtered.select(sql<number>`count(*)`.as('total')).compile();
  const count = async (on: Kysely<Database>) =>
    Number(((await on.executeQuery(counting)).rows[0] as { total?: unknown } | undefined)?.total ?? 0);
  const total = await withPlanPricedOut(
    db,
    dialect,
    [...(few ? (['max_parallel_workers_per_gather'] as const) : []), ...hashing],
    count,
  );
  if (offset >= total) return { rows: [], total };
  const ids = filtered
    .select(sql.ref<number>('id').as('id'))
    .orderBy(sql.ref(order), 'desc')
    .orderBy(sql.ref('id'), 'desc')
    .limit(query.limit)
    .offset(offset)
    .compile();
  const read = async (on: Kysely<Database>) =>
    (await on.executeQuery(ids)).rows.map((r) => (r as { id: number }).id);
  // Walked in the driver's time order even for few matches (`enable_sort` priced out): the
  // entries read to reach the page are at most all of its own, which a sort reads (10,571 of
  // Toyota's 50,513 with 'gmail' in country 91: PostgreSQL, expecting one, read the e-mail's
  // covering index whole and sorted, 208 ms). A driver without that order (a fault code's scans)
  // is sorted: walking the time index instead took seconds. The walk reads about (offset + page)
  // × its rows / the matches: a short one runs alone too, however many rows the driver holds
  // ('gmail' in country 91 ending by March, page 1: ~80 of 91's entries, 84 ms with two workers
  // started; Toyota's page 1 ids with 'gmail' in 91: 58 ms, 2 alone).
  const shortWalk =
    few || (driver.inTimeOrder && (offset + query.limit) * driver.rows <= SERIAL_WALK * total);
  const found = await withPlanPricedOut(
    db,
    dialect,
    [
      ...(driver.inTimeOrder ? (['enable_sort'] as const) : []),
      ...(shortWalk ? (['max_parallel_workers_per_gather'] as const) : []),
      ...hashing,
    ],
    read,
  );
  return pageOf(found, total);
}
