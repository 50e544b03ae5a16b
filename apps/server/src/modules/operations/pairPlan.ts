import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, type FilterRules } from '../../lib/filters.ts';
import { likePattern } from '../../lib/sql.ts';
import {
  type Filters,
  MAX_PAIR_VALUES,
  MAX_PROBED_VALUES,
  matchesTooMany,
  nocase,
  type Plan,
  rows,
  rowTest,
  sumOf,
  valueCounts,
  valueList,
  WALK_SHARE,
} from './countPlan.ts';
import {
  containingPairTotal,
  listedPage,
  manyLocalOnly,
  readsFolds,
  splitsAtDomain,
  surnamePairMatches,
  surnameRows,
} from './emailDomains.ts';
import { FOLDED_WITH, foldable, foldedFacts, foldedIds, foldedPairTotal } from './emailFolds.ts';
import {
  COUNTED_LISTS,
  type CountedTableName,
  countedColumnsOf,
  heldByTimeIndex,
  sortIndexSqlite,
} from './lists.ts';

/**
 * PostgreSQL: index entries of the time-order index tested for a fragment per table row looked
 * up, in time (~0.35 µs against ~3 µs at a million special-function runs).
 */
const INDEX_ENTRIES_PER_ROW = 8;

/** …and the rows the other filter's plan would read before walking a fragment first is worth asking. */
const ROWS_WORTH_A_FRAGMENT_WALK = 5_000;

/** PostgreSQL: a filter of at most this many values is walked value by value, merged. */
const MERGED_WALKS = 4;

/** SQLite: a surname's rows are looked up under at most this many listed values (`surnamePairMatches`). */
const PROBED_VALUES = 4;

/**
 * SQLite: a surname's matches beside listed values are read out whole (`surnamePairMatches`) up
 * to this many of its rows, while the values hold at most half the list's rows, for a page at
 * least LISTED_FROM_OFFSET deep.
 */
const MAX_LISTED_SURNAME_ROWS = 100_000;
const LISTED_FROM_OFFSET = 1_000;

/** A list's usual page size: what a walk is costed for. */
const PAGE = 30;
/**
 * A fragment tested on the pair counters' values reads at most the pairs of this many rows of
 * the listed values (each row is in one pair of the two columns): ~30 ms of LIKE at most.
 */
const PAIR_SCAN_ROWS = 150_000;

/**
 * Two filters on counted columns together (migration 017's `list_pairs`): the exact total as the
 * sum over the pairs of their matching values, and the row condition selecting exactly the rows
 * counted. `walk`: the matches are frequent enough to read in time order (conditions kept off
 * their indexes); otherwise `where(false)` reads the rarer filter through its own index and sorts.
 * Undefined when the filters are not exactly two counted-column filters (decided at once).
 */
export function pairPlan<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): (() => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }>) | undefined {
  const spec = COUNTED_LISTS[table].counted;
  const countedColumns = countedColumnsOf(table);
  const active = activeRules(rules, query);
  if (active.length !== 2) return undefined;
  const filters = active.map(([param, rule]) => ({ rule, value: (query as Filters)[param] }));
  if (
    !filters.every(
      ({ rule }) =>
        countedColumns.includes(rule.column) &&
        (rule.match === 'contains' || rule.match === 'exact' || rule.match === 'flag'),
    )
  )
    return undefined;
  // The same column twice (not in the shapes today): the general path.
  if (filters[0]?.rule.column === filters[1]?.rule.column) return undefined;
  const [x, y] = filters.sort((p, q) => (p.rule.column < q.rule.column ? -1 : 1)) as [
    (typeof filters)[number],
    (typeof filters)[number],
  ];
  const matching = ({ rule, value }: (typeof filters)[number]) =>
    rule.match === 'contains'
      ? sql`val ${dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`} ${likePattern(String(value))} ESCAPE '\\'`
      : sql`val = ${rule.match === 'flag' ? (value ? '1' : '0') : String(value)}`;
  return async () => {
    // SQLite: a fragment matching too many values to list is tested on the rows the other
    // filter's index selects ('gmail' with 'toyota': 3.6 s → 0.25 s of CPU at a million scans);
    // its values are never read.
    const [testX, testY] = [
      await matchesTooMany(db, dialect, table, x.rule, x.value),
      await matchesTooMany(db, dialect, table, y.rule, y.value),
    ];
    const rowTested = (f: (typeof filters)[number]) => (f === x ? testX : testY);
    const listed = [x, y].filter((f) => !rowTested(f));
    const found = await valueCounts(
      db,
      table,
      listed.map((f) => ({ column: f.rule.column, matching: matching(f) })),
    );
    const all = sumOf(found.filter((v) => v.col === ''));
    const valuesOf = (c: string) => found.filter((v) => v.col === c && Number(v.n) > 0);
    const [xs, ys] = [valuesOf(x.rule.column), valuesOf(y.rule.column)];
    const { page = 1, limit = PAGE } = query as { page?: number; limit?: number };
    let total = 0;
    // SQLite, a surname beside values of many rows: its matches, newest first (`surnamePairMatches`).
    let probedIds: number[] | undefined;
    const many = (testX && testY) || xs.length > MAX_PAIR_VALUES || ys.length > MAX_PAIR_VALUES;
    if (!many && testX !== testY && (testX ? ys : xs).length > 0) {
      // One fragment tested, the other filter listed: its pairs with the listed values, the
      // fragment tested on the pair's own value (the row's, as text: the same LIKE as `rowTest`).
      // Whichever side the listed column is, one index range read alone (each holds n):
      // migration 024's (tbl, a, b, av, bv, n) or 023's (tbl, a, b, bv, av, n). 'gmail' with
      // 'toyota' at a million scans: the ~60,000 e-mail pairs of Toyota, not the 100,000 Toyota rows.
      const [listedSide, testedSide, listedVals, tested] = testX
        ? [sql.ref('bv'), sql.ref('av'), ys, x]
        : [sql.ref('av'), sql.ref('bv'), xs, y];
      const listedValues = listedVals.map((v) => v.val);
      // PostgreSQL, a fragment without a digit beside a column of few values: 035's folded pairs
      // ('kumar' with Diesel: ~40,000 folded pairs tested, where its 340,000 address pairs took
      // 150 ms and the local-only addresses' pairs 1.4 s).
      const listedFilter = testX ? y : x;
      const folded =
        foldable(dialect, tested.rule.column, tested.value) && FOLDED_WITH.includes(listedFilter.rule.column);
      // SQLite, a surname beside values of many rows (where the local-only addresses' pairs would
      // be summed, below): its rows' ids looked up under the few listed values instead — and,
      // where they are listed, the page taken from them too.
      const surname =
        !folded && sumOf(listedVals) > PAIR_SCAN_ROWS && listedValues.length <= PROBED_VALUES
          ? await surnameRows(db, dialect, table, tested.rule.column, String(tested.value))
          : undefined;
      const probed =
        surname !== undefined
          ? await surnamePairMatches(
              db,
              table,
              tested.rule.column,
              String(tested.value),
              listedFilter.rule.column,
              listedFilter.rule.match === 'contains'
                ? sql`r.${sql.ref(listedFilter.rule.column)} IN (${sql.join(listedValues)})`
                : sql`r.${sql.ref(listedFilter.rule.column)} = ${listedFilter.rule.match === 'flag' ? (listedFilter.value ? 1 : 0) : listedFilter.value}`,
              // The page comes from the matches too where a walk to a deep page would read
              // again much of what they were found in ('reddy' with Cycle, page 100: 75–100 →
              // 42–67 ms; 'kumar' with hard-coded false, 99 → 42). Not for a shallow page, which
              // the walk reaches soon (page 1 of the latter: 31 ms, listed 42), nor where nearly
              // every one of the surname's rows is a match: sorting them all cost more than the
              // walk ('kumar' with ended: 38,924 of its 41,908 runs, 99 ms against a count of 47
              // and a walk of 30).
              surname <= MAX_LISTED_SURNAME_ROWS &&
                2 * sumOf(listedVals) <= all &&
                (page - 1) * limit >= LISTED_FROM_OFFSET,
            )
          : undefined;
      probedIds = probed?.ids;
      // A surname ('kumar': ~25,000 addresses hold it before the '@') makes the local-only
      // addresses' pairs a join of thousands of them (110–170 ms at a million runs); the listed
      // values' own pairs, each tested, are fewer while those values hold few rows (Hyundai's
      // ~24,000 e-mail pairs: a few ms). 'gmail' is in the domains, with next to no local-only
      // addresses: its domains' pairs stay the cheaper.
      const byDomains =
        !folded &&
        probed === undefined &&
        splitsAtDomain(tested.rule.column, tested.value) &&
        (sumOf(listedVals) > PAIR_SCAN_ROWS ||
          !(await manyLocalOnly(db, dialect, table, tested.rule.column, String(tested.value))));
      if (probed !== undefined) total = probed.total;
      else if (folded) {
        total = await foldedPairTotal(
          db,
          table,
          { a: x.rule.column, b: y.rule.column },
          testX ? 'a' : 'b',
          listedValues,
          String(tested.value),
        );
      } else if (byDomains) {
        // An e-mail fragment without '@' ('gmail'): its domains' pairs and its local-only
        // addresses' pairs (027), not the pairs of every matching address.
        total = await containingPairTotal(
          db,
          dialect,
          table,
          { a: x.rule.column, b: y.rule.column },
          testX ? 'a' : 'b',
          listedValues,
          String(tested.value),
        );
      } else {
        const [summed] = await rows<{ n: unknown }>(
          db,
          sql`SELECT sum(n) AS n FROM list_pairs WHERE tbl = ${table} AND a = ${x.rule.column} AND b = ${y.rule.column} AND ${listedSide} IN (${sql.join(listedValues)}) AND ${testedSide} ${dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`} ${likePattern(String(tested.value))} ESCAPE '\\'`,
        );
        total = Number(summed?.n ?? 0);
      }
    } else if (xs.length > 0 && ys.length > 0 && !many) {
      const [summed] = await rows<{ n: unknown }>(
        db,
        sql`SELECT sum(n) AS n FROM list_pairs WHERE tbl = ${table} AND a = ${x.rule.column} AND b = ${y.rule.column} AND av IN (${sql.join(xs.map((v) => v.val))}) AND bv IN (${sql.join(ys.map((v) => v.val))})`,
      );
      total = Number(summed?.n ?? 0);
    }
    // The rarer filter drives a sort of few matches; the other is tested on its rows (and a
    // row-tested one never drives).
    const rarer =
      testX !== testY ? (testX ? y : x).rule.column : sumOf(xs) <= sumOf(ys) ? x.rule.column : y.rule.column;
    // A filter of one value whose column has a (value, time) index (every column counted per day:
    // 003's exact ones; 017's on SQLite, 025's on PostgreSQL) is walked in time order through it,
    // whatever the share: it reads (offset + page) × its matches / the pair's rows, never more
    // than the time index would, and sorts nothing. On PostgreSQL a filter of a few values too
    // (BMW's two makes), each value's index walked and the walks merged in time order (Merge
    // Append): 'reddy' with BMW, page 1, read BMW's 41,132 rows through its trigram bitmap and
    // sorted them (190 ms); merged, 30–55 ms.
    // SQLite merges only beside another listed filter (BMW's Cycle runs, page 100: each BMW
    // make's walk testing the option, 57 ms, where walking Cycle sought both makes per entry,
    // 175–200 ms); beside a fragment it walks the fragment first (below).
    const walkable = (f: (typeof filters)[number], vs: typeof xs) =>
      (vs.length === 1 ||
        (vs.length > 1 && vs.length <= MERGED_WALKS && (dialect === 'postgres' || testX === testY))) &&
      spec.byDay.includes(f.rule.column as never)
        ? { column: f.rule.column, n: sumOf(vs), merged: vs.length > 1 }
        : undefined;
    // The fewer rows drive; on PostgreSQL a single value first, merged or not: its (value, time,
    // id) indexes carry the other counted columns (025), so its walk may read the index alone
    // (BMW's cycle runs, page 100, walking Cycle: 70 ms; BMW's two makes merged, testing rows: 95).
    const drivers = [walkable(x, xs), walkable(y, ys)].filter((d) => d !== undefined);
    const singleFirst = dialect === 'postgres';
    const driver = drivers.sort(
      (a, b) => (singleFirst ? Number(a.merged) - Number(b.merged) : 0) || a.n - b.n,
    )[0]?.column;
    const condition = (f: (typeof filters)[number], vals: string[], walk: boolean) => {
      const column = f.rule.column;
      // Walking only: a rare pair (model 'city' with type 'Generic': 29 of 16,000 Generic rows)
      // read through the frequent value's index looks every one of its rows up (0.35–0.7 s).
      if (walk && driver === column && vals.length === 1)
        return sql<SqlBool>`${sql.ref(column)} = ${vals[0]}`;
      if (rowTested(f)) return rowTest(column, f.value, dialect);
      const indexed = !walk && column === rarer;
      if (vals.length === 0) return sql<SqlBool>`1 = 0`;
      if (dialect === 'postgres') {
        // The few matches sorted: only the rarer filter's index finds them, the other is tested
        // on their rows, written so that no index can serve it. PostgreSQL otherwise ANDed its
        // index with the rarer's ('city''s trigram bitmap, 6,013 rows, with country 91's 1.6
        // million entries at three million scans: 141 of 157 ms, twice).
        const tested = !walk && !indexed;
        if (f.rule.match !== 'contains') {
          const v = f.rule.match === 'flag' ? (f.value ? 1 : 0) : f.value;
          return tested
            ? sql<SqlBool>`${sql.ref(column)}::text = ${String(v)}`
            : sql<SqlBool>`${sql.ref(column)} = ${v}`;
        }
        // ILIKE where its trigram index should drive; the matched values (hashed) where tested, and
        // where a fragment under three characters has no trigram ('x5' with BMW: PostgreSQL read
        // every BMW row for ILIKE, 0.8 s; the values, through the column's btree, 9 ms). A few
        // values whose own index carries the other filter's column and the time (the scans' sort
        // indexes, 044; 025's) are read as those values: the matches are then found, tested and
        // sorted in that index alone, where the trigram index sent each to its heap page.
        const other = (f === x ? y : x).rule.column;
        if (
          indexed &&
          String(f.value).length >= 3 &&
          !(vals.length <= MAX_PROBED_VALUES && (spec.sortCarried as readonly string[]).includes(other))
        )
          return sql<SqlBool>`${sql.ref(column)} ILIKE ${likePattern(String(f.value))} ESCAPE '\\'`;
        return tested
          ? sql<SqlBool>`(${sql.ref(column)} || '') = ANY(${vals})`
          : sql<SqlBool>`${sql.ref(column)} = ANY(${vals})`;
      }
      // SQLite: the counted values themselves, so rows and total agree exactly; `+` keeps a
      // column off its index.
      if (f.rule.match !== 'contains') {
        const v = f.rule.match === 'flag' ? (f.value ? 1 : 0) : f.value;
        return indexed ? sql<SqlBool>`${sql.ref(column)} = ${v}` : sql<SqlBool>`+${sql.ref(column)} = ${v}`;
      }
      if (!indexed) return sql<SqlBool>`+${sql.ref(column)} IN (${valueList(vals)})`;
      return nocase.has(column)
        ? sql<SqlBool>`${sql.ref(column)} COLLATE NOCASE IN (${valueList(vals)})`
        : sql<SqlBool>`${sql.ref(column)} IN (${valueList(vals)})`;
    };
    const xv = xs.map((v) => v.val);
    const yv = ys.map((v) => v.val);
    const where = (walk: boolean) => sql<SqlBool>`(${condition(x, xv, walk)} AND ${condition(y, yv, walk)})`;
    if (many) {
      // Too many values to list (not with the seeded shapes): a count over the rows.
      const [counted] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${where(false)}`,
      );
      total = Number(counted?.n ?? 0);
    }
    // The driver's walk reads about a page × its rows / the pair's; the sort, the rarer's rows.
    const driverRows = drivers[0]?.n ?? 0;
    const rarerRows = testX ? sumOf(ys) : testY ? sumOf(xs) : Math.min(sumOf(xs), sumOf(ys));
    const driverCheap = driver !== undefined && total > 0 && (PAGE * driverRows) / total <= rarerRows;
    // SQLite, walking the driver's (value, time) index: the other filter is tested in its own
    // index — the table joined to itself on the id, a (value, id) seek per row in the column's
    // sort index, no row read. Page 100 of Toyota's Generic scans steps over ~30,000 Toyota
    // scans: 200 ms of row reads at a million scans, ~20 ms of seeks. Named (INDEXED BY): since
    // 051 gave those indexes an explicit id, SQLite looked the table row up by its id instead
    // (Toyota with app 3.5, page 100: 112 ms at a million scans, 134 at three; named, ~20).
    const other = driver === x.rule.column ? y : x;
    const otherVals = other === x ? xv : yv;
    const driverValues = driver === x.rule.column ? xv : yv;
    const driverValue = driverValues[0];
    // A row-tested fragment ('gmail') on a column 004's time-order index holds (every counted
    // list's e-mail and model) is tested there instead, joined on (time, id): `+b.id` keeps the
    // id off the rowid (the table row), CROSS JOIN keeps the driver outside. Page 100 of 'gmail'
    // in country 91 read ~3,000 table rows (30–70 ms at a million scans); a seek in that index
    // each, 5–20 ms. Special-function runs of 'kumar' of one function type, page 100: every
    // Reset run read and sorted (539 ms) before the other lists had it.
    const inTimeIndex =
      rowTested(other) && dialect === 'sqlite' && heldByTimeIndex(table).includes(other.rule.column);
    const join = (): RawBuilder<unknown> | undefined => {
      if (inTimeIndex)
        return sql`CROSS JOIN ${sql.table(table)} b ON ${sql.ref(`b.${spec.order}`)} = ${sql.ref(`a.${spec.order}`)} AND +b.id = a.id AND ${rowTest(`b.${other.rule.column}`, other.value, dialect)}`;
      if (rowTested(other) || otherVals.length === 0) return undefined;
      const tested = sql.ref(`b.${other.rule.column}`);
      const test =
        other.rule.match === 'contains'
          ? sql`${tested} IN (${valueList(otherVals)})`
          : sql`${tested} = ${other.rule.match === 'flag' ? (other.value ? 1 : 0) : other.value}`;
      // Not for several values, a seek each where the row is one lookup ('x5''s models beside
      // Horn, page 1: 5 → 10 ms named); nor for the ended flag, whose own index of 001 (the flag,
      // the rowid) is narrower than its sort index, and which SQLite seeks unasked (its diesel
      // runs, page 100: 11 ms; named, 19).
      const index =
        other.rule.column === 'scan_ended' || otherVals.length > 1
          ? undefined
          : sortIndexSqlite(table, other.rule.column);
      return sql`CROSS JOIN ${sql.table(table)} b${index ? sql` INDEXED BY ${sql.id(index)}` : sql``} ON b.id = a.id AND ${test}`;
    };
    // PostgreSQL: the other filter tested on the driver's own entries (025's scans indexes carry
    // the other counted columns of few values: the walk reads the index alone). Written plainly,
    // so the planner estimates the matches from its statistics: an expression it cannot estimate
    // ('gmail' as `(email || '') ILIKE`: 128 rows for 26,597) made the page look like reading
    // every entry, and it chose a bitmap scan and a sort (1.2 s) or parallel workers (+10 ms).
    // A value as `= ANY` of one: estimated as `=` is, but not a constant to PostgreSQL, so the
    // other filter's own (value, time) index cannot give the order too — it walked that instead
    // when its rows lay in heap order (module ABS with ended runs, page 100: ended's index,
    // ~28,000 rows tested for the module, 73 ms; ABS's, 3).
    const tested = (): RawBuilder<unknown> => {
      const column = sql.ref(other.rule.column);
      if (rowTested(other)) return sql`${column} ILIKE ${likePattern(String(other.value))} ESCAPE '\\'`;
      if (otherVals.length === 0) return sql`1 = 0`;
      if (other.rule.match === 'contains') return sql`${column} = ANY(${otherVals})`;
      return sql`${column} = ANY(${[other.rule.match === 'flag' ? (other.value ? 1 : 0) : other.value]})`;
    };
    // The driver's values walked in time order through their (value, time) indexes — SQLite
    // joined to the other filter's index, PostgreSQL testing it on the walked entries: one value's
    // walk read to the page; a few values' walks each going no further than the page's end, merged
    // (SQLite allows no LIMIT in a compound's member but in a sub-query; PostgreSQL plans the
    // parenthesised members as a Merge Append).
    const walkedIds =
      (from: RawBuilder<unknown>, test: RawBuilder<unknown> | undefined) =>
      (direction: 'asc' | 'desc', limit: number, offset: number) => {
        const [dir, order] = [sql.raw(direction), sql.ref(`a.${spec.order}`)];
        const walkOf = (value: string | undefined, selected: RawBuilder<unknown>) =>
          sql`SELECT ${selected} FROM ${from} WHERE ${sql.ref(`a.${driver}`)} = ${value}${test ? sql` AND ${test}` : sql``} ORDER BY ${order} ${dir}, a.id ${dir}`;
        if (driverValues.length === 1)
          return sql`${walkOf(driverValue, sql`a.id`)} LIMIT ${limit} OFFSET ${offset}`;
        const walks = driverValues.map((v) => {
          const walk = sql`${walkOf(v, sql`a.id AS id, ${order} AS t`)} LIMIT ${offset + limit}`;
          return dialect === 'sqlite' ? sql`SELECT * FROM (${walk})` : sql`(${walk})`;
        });
        return sql`SELECT id FROM (${sql.join(walks, sql` UNION ALL `)}) m ORDER BY t ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
      };
    const joined = driver !== undefined && dialect === 'sqlite' ? join() : undefined;
    const ids = joined
      ? walkedIds(sql`${sql.table(table)} a ${joined}`, undefined)
      : driver !== undefined && dialect === 'postgres'
        ? walkedIds(sql`${sql.table(table)} a`, tested())
        : undefined;
    // PostgreSQL, neither filter one value of a column counted per day (no (value, time) index to
    // walk): sorting reads every match's row (16,000 rows on 41,000 pages took 350 ms at a
    // million scans), walking the time index reads (offset + page) × all / total rows (page 1:
    // ~2,000, 10 ms). Walked while that is no more than the rarer filter's rows; deep pages sort.
    const walkRows = total > 0 ? (page * limit * all) / total : Number.POSITIVE_INFINITY;
    // SQLite the same when a fragment is tested on the rows in the time-order index that holds
    // it: the walk tests it on index entries and reads the rows of its matches alone, where the
    // sort read every row of the listed value ('kumar' in Diesel runs: ~300,000 rows read and
    // sorted, 1.07 s, for a page).
    const testedInTimeIndex = testX !== testY && heldByTimeIndex(table).includes((testX ? x : y).rule.column);
    const shallow = (dialect === 'postgres' || testedInTimeIndex) && walkRows <= rarerRows;
    // The fragment's matches in time order from the index holding it, then each match's row
    // for the other filter: a sub-query the planner may not flatten into the join (`LIMIT -1`,
    // no limit, on SQLite; `OFFSET 0` on PostgreSQL), walked lazily until the page is found
    // (SQLite's CROSS JOIN keeps it outside; PostgreSQL has no CROSS JOIN … ON).
    const [fragment, kept] = testX ? [x, y] : [y, x];
    const fragmentFirst = (direction: 'asc' | 'desc', limit: number, offset: number) => {
      const [dir, order] = [sql.raw(direction), sql.ref(spec.order)];
      return sql`SELECT s.id FROM (
          SELECT id, ${order} FROM ${sql.table(table)} WHERE ${rowTest(fragment.rule.column, fragment.value, dialect)}
          ORDER BY ${order} ${dir}, id ${dir} ${dialect === 'sqlite' ? sql`LIMIT -1` : sql`OFFSET 0`}
        ) s ${dialect === 'sqlite' ? sql`CROSS JOIN` : sql`JOIN`} ${sql.table(table)} r ON r.id = s.id
        WHERE ${condition(kept, kept === x ? xv : yv, true)}
        ORDER BY ${sql.ref(`s.${spec.order}`)} ${dir}, s.id ${dir} LIMIT ${limit} OFFSET ${offset}`;
    };
    // SQLite, no value to walk: written as one condition, SQLite walked the time column's own
    // index and read every row it met ('kumar' in Diesel runs, page 100: 171,000 rows for 17,476
    // matches, 410 ms; fragment first ~35 ms).
    // PostgreSQL, frequent values on the other side: the walk of a value's (value, time) index
    // reads a row per entry to test the fragment ('kumar' in ended runs, page 100: 71,700 rows,
    // 210–250 ms), and values without one (Diesel's two) were read by a scan of the table and a
    // sort (260–300 ms), where an entry of the time-order index costs ~1/8 of a row: fragment
    // first 37–100 ms for 'kumar' with any of five filters holding 39–93 % of the runs. Taken
    // while the index entries (all / 8) and the fragment's rows, per match, are under half the
    // other filter's rows; the fragment's rows come from the folded counters (a digit-free e-mail
    // fragment: ~10 ms, asked only when the other filter holds a quarter of the rows, below which
    // the walk cannot win, and its plan would read thousands of rows: page 1 of 'kumar' in Reset
    // runs reads ~700, 2 ms).
    // (SQLite walks so only where it walks at all: a rare pair, 'kumar' with the Creta, sorts.)
    let fragmentWalked = false;
    if (ids === undefined && driver === undefined && dialect === 'sqlite' && testedInTimeIndex)
      fragmentWalked = true;
    else if (
      dialect === 'postgres' &&
      total > 0 &&
      testedInTimeIndex &&
      4 * rarerRows >= all &&
      (page * limit * rarerRows) / total > ROWS_WORTH_A_FRAGMENT_WALK &&
      foldable(dialect, fragment.rule.column, fragment.value)
    ) {
      const fragmentRows = (await foldedFacts(db, table, fragment.rule.column, String(fragment.value))).rows;
      fragmentWalked = all / INDEX_ENTRIES_PER_ROW + fragmentRows <= rarerRows / 2;
    }
    // PostgreSQL, a surname beside a value with its (value, time) index, deep: the surname's ids
    // by folded address (045's index: ~0.25 µs an id), then the value's entries walked in time
    // order testing each id against them (index-only, ~0.15 µs an entry), where the surname's
    // walk tests ILIKE on (offset + page) × rows / pair entries of the time index (~0.3 µs each):
    // 'kumar' in Diesel runs, page 100, its 41,908 ids and ~71,000 Diesel entries against
    // ~171,000 entries. Taken when the surname's rows and half the value's entries are fewer.
    // The same where the fragment is not walked but tested on a row per entry of the value's
    // walk (INDEX_ENTRIES_PER_ROW entries' worth each): 'reddy' in Cycle runs, page 100, read
    // ~72,000 runs for 3,000 matches (247 ms; its 42,554 ids and the same entries index-only, ~25).
    // (A fragment some domain holds, 'gmail', is not a surname: its folded counters are not read.)
    let surnameIds: string | undefined;
    const surnameWalked =
      dialect === 'postgres' &&
      driver !== undefined &&
      total > 0 &&
      (fragmentWalked ||
        (testedInTimeIndex &&
          rowTested(fragment) &&
          (await readsFolds(db, dialect, table, fragment.rule.column, fragment.value))));
    if (surnameWalked) {
      const keptEntries = (page * limit * (drivers[0]?.n ?? 0)) / total;
      // What the plan would read otherwise, in index entries.
      const otherwise = fragmentWalked ? (page * limit * all) / total : keptEntries * INDEX_ENTRIES_PER_ROW;
      // The fragment's folded counters are asked for only where its rows could pay (it has at
      // least the pair's).
      if (total + keptEntries / 2 < otherwise) {
        const fragmentRows = (await foldedFacts(db, table, fragment.rule.column, String(fragment.value)))
          .rows;
        if (fragmentRows + keptEntries / 2 < otherwise)
          surnameIds = await foldedIds(db, table, fragment.rule.column, String(fragment.value));
      }
    }
    const listedIds = probedIds;
    const pageIds =
      listedIds !== undefined
        ? (direction: 'asc' | 'desc', limit: number, offset: number) =>
            listedPage(listedIds, direction, limit, offset)
        : surnameIds !== undefined
          ? walkedIds(sql`${sql.table(table)} a`, sql`a.id + 0 = ANY(${surnameIds}::int[])`)
          : fragmentWalked
            ? fragmentFirst
            : ids;
    return {
      total,
      walk:
        total >= WALK_SHARE * all ||
        driverCheap ||
        shallow ||
        surnameIds !== undefined ||
        probedIds !== undefined ||
        (fragmentWalked && dialect === 'postgres'),
      where,
      ...(pageIds ? { ids: pageIds } : {}),
      // PostgreSQL would sort the fragment's matches rather than walk them (see `inIndexOrder`).
      ...((fragmentWalked || surnameIds !== undefined) && dialect === 'postgres'
        ? { idsInIndexOrder: true }
        : {}),
    };
  };
}
