import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, type FilterRule, type FilterRules, whereFilters } from '../../lib/filters.ts';
import { likePattern } from '../../lib/sql.ts';
import {
  type Filters,
  MAX_PAIR_VALUES,
  matchesTooMany,
  rows,
  rowTest,
  tableTotal,
  valueCounts,
  valueList,
  WALK_SHARE,
} from './countPlan.ts';
import { dayAboveEndsBy } from './endPlan.ts';
import { COUNTED_LISTS, type CountedTableName, countedColumnsOf } from './lists.ts';

/**
 * Filters as the general path writes them (`countedValuesWhere`); `drives`: read through the index
 * of the one of the fewest rows (`postgresFewestDrive`), not found through a trigram index.
 */
export interface ValuesWhere {
  where: (eb: ExpressionBuilder<Database, CountedTableName>) => Expression<SqlBool>;
  /**
   * The rows of the filter whose index is read (the matches are among them), and whether that
   * index holds them in time order (a value's (value, time) index, the time's own); and whether
   * a fault code's scans are to be hashed beside them (read with nested loops priced out).
   */
  drives?: { rows: number; inTimeOrder: boolean; hashesCode?: boolean };
}

/**
 * SQLite, filters the counters cannot total together (three or more, a date with a value…): each
 * filter on a counted column as the exact values it matches (`col IN ('Toyota', 'TOYOTA')`, read
 * from `list_totals`), which migration 017's (value, time) indexes serve — counting a make within
 * a date range is then a range of one index, not a lookup of every Toyota through the FTS table.
 * The same rows as the rules select (the counted values are the column's own). On PostgreSQL its
 * trigram indexes and statistics plan these, but for fragments too short to hold a trigram
 * (`postgresShortFragments`). Undefined when no filter is counted.
 */
export async function countedValuesWhere<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): Promise<ValuesWhere | undefined> {
  if (dialect !== 'sqlite') {
    const where =
      (await postgresShortFragments(db, table, rules, query)) ??
      postgresThroughUncounted(table, rules, query);
    return where ? { where } : postgresFewestDrive(db, table, rules, query);
  }
  const spec = COUNTED_LISTS[table].counted;
  const countedColumns = countedColumnsOf(table);
  const active = activeRules(rules, query);
  const isCounted = (rule: FilterRule) => countedColumns.includes(rule.column) && rule.match === 'contains';
  const counted = active.filter(([, rule]) => isCounted(rule));
  // "End ≤ to" matches most rows: kept off its index (end, start), which SQLite chose to look up
  // 700,000 rows for 'gmail' before to (29 s), or to count a month's range (start ≥ and end ≤:
  // 587 → 127 ms); the time-order index holds the end time too.
  const isEnd = (rule: FilterRule) => 'end' in spec && rule.column === spec.end && rule.match === 'atMost';
  const ends = active.filter(([, rule]) => isEnd(rule));
  if (counted.length === 0 && (ends.length === 0 || active.length < 2)) return undefined;
  // A fragment matching more values than a list carries ('gmail': ~300,000 addresses at a million
  // scans) is tested on each row the other filters select, like the values would be: listing or
  // looking them up cost 2–18 s with a second filter (a plate: 17.9 s → 60 ms of CPU).
  const rowTested = new Set<string>();
  for (const [param, rule] of counted)
    if (await matchesTooMany(db, dialect, table, rule, (query as Filters)[param])) rowTested.add(rule.column);
  const listed = counted.filter(([, rule]) => !rowTested.has(rule.column));
  // Three filters or more: an exact value of a counted column (country 91) is counted too, so
  // that the filter matching the fewest rows can be told (below).
  const exacts =
    active.length >= 3
      ? active.filter(([, rule]) => rule.match === 'exact' && countedColumns.includes(rule.column))
      : [];
  const found =
    listed.length + exacts.length === 0
      ? []
      : await valueCounts(db, table, [
          ...listed.map(([param, rule]) => ({
            column: rule.column,
            matching: sql`n > 0 AND val LIKE ${likePattern(String((query as Filters)[param]))} ESCAPE '\\'`,
          })),
          ...exacts.map(([param, rule]) => ({
            column: rule.column,
            matching: sql`val = ${String((query as Filters)[param])}`,
          })),
        ]);
  const rowsOf = (column: string) =>
    found.filter((v) => v.col === column).reduce((sum, v) => sum + Number(v.n), 0);
  // A rare value of a column of many values (model 'city': 0.2 % of the rows) is read through its
  // own index, and a start bound kept off the time index, which SQLite otherwise walked from the
  // bound, testing every row since (1.2 s for 'city' since a date at 100,000 scans).
  const all = Number(found.find((v) => v.col === '')?.n ?? 0);
  const byDay = (column: string) => (spec.byDay as readonly string[]).includes(column);
  const rareColumn = listed.find(
    ([, rule]) => !byDay(rule.column) && rowsOf(rule.column) < WALK_SHARE * all,
  )?.[1].column;
  // Of three filters or more, the one of the fewest rows alone is left to its index, the others
  // tested on its rows (on the scans in that index itself: 054's carry every filtered column):
  // without statistics SQLite took the first equality it met, country 91 (542,856 rows) before
  // Toyota (50,513), reading every country-91 row for 'gmail' with Toyota in country 91 (8.2 s
  // cold). With a start bound, a value's (value, time) index reads its rows
  // since the bound alone, so those are its rows (the day counters'); the bound's own are every
  // row since its day.
  const startBound = active.find(([, rule]) => rule.column === spec.order && rule.match === 'atLeast');
  const since = startBound ? String((query as Filters)[startBound[0]]).slice(0, 10) : undefined;
  const valuesOf = (column: string) => found.filter((v) => v.col === column).map((v) => v.val);
  const timed = [...listed.filter(([, rule]) => byDay(rule.column)), ...exacts].map(
    ([, rule]) => rule.column,
  );
  const candidates: { column: string; rows: number }[] = [];
  if (active.length >= 3) {
    for (const column of timed)
      candidates.push({
        column,
        rows: since ? await rowsSince(db, table, column, valuesOf(column), since) : rowsOf(column),
      });
    if (rareColumn !== undefined) candidates.push({ column: rareColumn, rows: rowsOf(rareColumn) });
    if (since) candidates.push({ column: spec.order, rows: await rowsSince(db, table, '', [''], since) });
  }
  const driver = candidates.reduce<(typeof candidates)[number] | undefined>(
    (best, c) => (best === undefined || c.rows < best.rows ? c : best),
    undefined,
  )?.column;
  const leftToIndex = (column: string) => driver === undefined || column === driver;
  // The bound is tested on the rows of a rare value of many (below), and read with a value's time.
  const isStart = (rule: FilterRule) =>
    rule.column === spec.order &&
    rule.match === 'atLeast' &&
    (driver === undefined ? rareColumn !== undefined : driver === rareColumn);
  const starts = active.filter(([, rule]) => isStart(rule));
  const offIndexExacts = exacts.filter(([, rule]) => !leftToIndex(rule.column));
  // Every row ending by an end bound starts before the day `dayAboveEndsBy` finds: the driver's
  // range stops there, on its (value, time) index or the time's own, not at the newest rows,
  // which all end later ('generic' in country 91 ending by March: 'generic''s 199,523 entries
  // tested, where ~90,000 start early enough).
  const endBound = driver !== undefined ? ends[0] : undefined;
  const above = endBound
    ? await dayAboveEndsBy(db, table, String((query as Filters)[endBound[0]]).slice(0, 10))
    : undefined;
  const startsBefore =
    above === undefined
      ? []
      : [
          driver === spec.order || timed.includes(driver as string)
            ? sql<SqlBool>`${sql.ref(spec.order)} < ${above}`
            : sql<SqlBool>`+${sql.ref(spec.order)} < ${above}`,
        ];
  const others = Object.fromEntries(
    active.filter(
      ([, rule]) =>
        !isCounted(rule) && !isEnd(rule) && !isStart(rule) && !offIndexExacts.some(([, r]) => r === rule),
    ),
  ) as FilterRules<Q>;
  const where = (eb: ExpressionBuilder<Database, CountedTableName>) =>
    eb.and([
      whereFilters(eb, dialect, others, query),
      ...starts.map(
        ([param, rule]) => sql<SqlBool>`+${sql.ref(rule.column)} >= ${(query as Filters)[param]}`,
      ),
      ...ends.map(([param, rule]) => sql<SqlBool>`+${sql.ref(rule.column)} <= ${(query as Filters)[param]}`),
      ...startsBefore,
      ...offIndexExacts.map(
        ([param, rule]) => sql<SqlBool>`+${sql.ref(rule.column)} = ${(query as Filters)[param]}`,
      ),
      ...counted.map(([param, rule]) => {
        if (rowTested.has(rule.column)) return rowTest(rule.column, (query as Filters)[param]);
        const vals = found.filter((v) => v.col === rule.column).map((v) => v.val);
        if (vals.length === 0) return sql<SqlBool>`0`;
        // Columns of many values (e-mail, model) are tested in the time-order index that holds
        // them (004's order_filters; on the scans, since 054, every value's (value, time) index),
        // not looked up through their own: 700 'gmail' addresses through the e-mail index under a
        // date took 25 s.
        return (byDay(rule.column) || rule.column === rareColumn) && leftToIndex(rule.column)
          ? sql<SqlBool>`${sql.ref(rule.column)} IN (${valueList(vals)})`
          : sql<SqlBool>`+${sql.ref(rule.column)} IN (${valueList(vals)})`;
      }),
    ]);
  return { where };
}

/**
 * PostgreSQL: a fragment of an uncounted column (a licence plate, a VIN: near-unique values, so a
 * fragment long enough for a trigram is selective) with other filters. Those are tested on the
 * rows its trigram index finds, each written so that no index can serve it: PostgreSQL ANDed
 * their indexes with the fragment's, reading every entry of a broad one ('generic': 199,523;
 * 'gmail': 331,619; country 91: 542,856; a start bound's 223,394) into a bitmap for a few hundred
 * plates (50–80 ms, twice: the total and the page). Undefined when there is no such fragment.
 */
function postgresThroughUncounted<Q extends object>(
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): ((eb: ExpressionBuilder<Database, CountedTableName>) => Expression<SqlBool>) | undefined {
  const countedColumns = countedColumnsOf(table);
  const active = activeRules(rules, query);
  const finding = active.filter(
    ([param, rule]) =>
      rule.match === 'contains' &&
      !countedColumns.includes(rule.column) &&
      String((query as Filters)[param]).length >= 3,
  );
  if (finding.length === 0 || finding.length === active.length) return undefined;
  const tested = active.filter((entry) => !finding.includes(entry));
  const offIndex = ([param, rule]: (typeof active)[number]): Expression<SqlBool> | undefined => {
    const value = (query as Filters)[param];
    const column = sql.ref(rule.column);
    if (rule.match === 'contains') return rowTest(rule.column, value, 'postgres');
    if (rule.match === 'exact') return sql<SqlBool>`${column}::text = ${String(value)}`;
    if (rule.match === 'atLeast') return sql<SqlBool>`(${column} || '') >= ${value}`;
    if (rule.match === 'atMost') return sql<SqlBool>`(${column} || '') <= ${value}`;
    return undefined;
  };
  const kept = Object.fromEntries([
    ...finding,
    ...tested.filter((entry) => offIndex(entry) === undefined),
  ]) as FilterRules<Q>;
  return (eb) =>
    eb.and([
      whereFilters(eb, 'postgres', kept, query),
      ...tested.map(offIndex).filter((c): c is Expression<SqlBool> => c !== undefined),
    ]);
}

/**
 * PostgreSQL: a contains filter on a counted column with a fragment under three characters ('x5')
 * has no trigram for pg_trgm to look up, so ILIKE read the table or walked the time index with
 * another filter (`model=x5&created_from=…`: 0.3 s at a million actuation runs). Its counted values
 * instead (`= ANY`: exactly the rows ILIKE selects, the counters being exact), which the column's
 * btree (025's, 030's sort indexes) finds. Undefined when there is no such filter or it matches
 * more values than are worth listing.
 */
async function postgresShortFragments<Q extends object>(
  db: Kysely<Database>,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): Promise<((eb: ExpressionBuilder<Database, CountedTableName>) => Expression<SqlBool>) | undefined> {
  const spec = COUNTED_LISTS[table].counted;
  const countedColumns = countedColumnsOf(table);
  const active = activeRules(rules, query);
  const short = active.filter(
    ([param, rule]) =>
      rule.match === 'contains' &&
      countedColumns.includes(rule.column) &&
      String((query as Filters)[param]).length < 3,
  );
  if (short.length === 0) return undefined;
  const found = await valueCounts(
    db,
    table,
    short.map(([param, rule]) => ({
      column: rule.column,
      matching: sql`n > 0 AND val ILIKE ${likePattern(String((query as Filters)[param]))} ESCAPE '\\'`,
    })),
  );
  const valuesOf = (column: string) => found.filter((v) => v.col === column).map((v) => v.val);
  if (short.some(([, rule]) => valuesOf(rule.column).length > MAX_PAIR_VALUES)) return undefined;
  // Rare values (x5: 0.8 % of the runs) are found through their btree alone and a start bound
  // tested on their rows: PostgreSQL otherwise ANDed them with the 330,000 entries of the bound's
  // index range (107 of 153 ms). Not an upper bound: page 1 would then walk the time index from
  // the newest rows, which all fail it (`model=x5&created_to=…`: 2.5 s).
  const all = Number(found.find((v) => v.col === '')?.n ?? 0);
  const rare = short.some(
    ([, rule]) =>
      found.filter((v) => v.col === rule.column).reduce((n, v) => n + Number(v.n), 0) < WALK_SHARE * all,
  );
  const isBound = (rule: FilterRule) => rule.match === 'atLeast' && rule.column === spec.order;
  const bounds = rare ? active.filter(([, rule]) => isBound(rule)) : [];
  const others = Object.fromEntries(
    active.filter(([param]) => !short.some(([p]) => p === param) && !bounds.some(([p]) => p === param)),
  ) as FilterRules<Q>;
  return (eb) =>
    eb.and([
      whereFilters(eb, 'postgres', others, query),
      ...bounds.map(
        ([param, rule]) => sql<SqlBool>`(${sql.ref(rule.column)} || '') >= ${(query as Filters)[param]}`,
      ),
      ...short.map(([, rule]) => sql<SqlBool>`${sql.ref(rule.column)} = ANY(${valuesOf(rule.column)})`),
    ]);
}

/**
 * SQLite: the rows of `table` holding one of `values` in `column` whose time is on or after `day`,
 * from the day counters (`''` and `['']`: every row).
 */
async function rowsSince(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  values: string[],
  day: string,
): Promise<number> {
  if (values.length === 0) return 0;
  const [found] = await rows<{ n: unknown }>(
    db,
    sql`SELECT coalesce(sum(n), 0) AS n FROM list_days WHERE tbl = ${table} AND col = ${column} AND val IN (${valueList(values)}) AND day >= ${day}`,
  );
  return Number(found?.n ?? 0);
}

/**
 * PostgreSQL, three filters or more on counted columns, exact values and a start bound: the one
 * the counters say holds the fewest rows is read through its index, the others written so that no
 * index serves them and tested on its entries. PostgreSQL ANDed the bitmaps of every broad one
 * instead ('gmail', 'generic' and country 91: 331,619, 199,523 and 542,856 entries, then 88,000
 * heap pages rechecked, 1.4 s), or walked the end bound's index testing 770,000 entries. The
 * scans' (value, time, id) indexes carry every other filtered column (025's, 054's): a value's
 * rows are tested there without a heap visit. With a start bound a value's rows are its rows
 * since the bound's day (the day counters), read as one range of that index. `drives`: the
 * filters are read so, not through a trigram index, and the driver's rows. Undefined below three
 * filters.
 */
async function postgresFewestDrive<Q extends object>(
  db: Kysely<Database>,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): Promise<ValuesWhere | undefined> {
  const spec = COUNTED_LISTS[table].counted;
  const countedColumns = countedColumnsOf(table);
  const active = activeRules(rules, query);
  if (active.length < 3) return undefined;
  const paramValue = (param: string) => (query as Filters)[param];
  const fragments = active.filter(
    ([, rule]) => rule.match === 'contains' && countedColumns.includes(rule.column),
  );
  const exacts = active.filter(([, rule]) => rule.match === 'exact' && countedColumns.includes(rule.column));
  const rowTested = new Set<string>();
  for (const [param, rule] of fragments)
    if (await matchesTooMany(db, 'postgres', table, rule, paramValue(param))) rowTested.add(rule.column);
  const listed = fragments.filter(([, rule]) => !rowTested.has(rule.column));
  const found = await valueCounts(db, table, [
    ...listed.map(([param, rule]) => ({
      column: rule.column,
      matching: sql`n > 0 AND val ILIKE ${likePattern(String(paramValue(param)))} ESCAPE '\\'`,
    })),
    ...exacts.map(([param, rule]) => ({
      column: rule.column,
      matching: sql`val = ${String(paramValue(param))}`,
    })),
  ]);
  const valuesOf = (column: string) => found.filter((v) => v.col === column).map((v) => v.val);
  for (const [, rule] of listed)
    if (valuesOf(rule.column).length > MAX_PAIR_VALUES) rowTested.add(rule.column);
  const startBound = active.find(([, rule]) => rule.column === spec.order && rule.match === 'atLeast');
  const since = startBound ? String(paramValue(startBound[0])).slice(0, 10) : undefined;
  const timed = (column: string) => (spec.byDay as readonly string[]).includes(column);
  const candidates: { column: string; rows: number }[] = [];
  for (const [, rule] of [...listed, ...exacts].filter(([, r]) => !rowTested.has(r.column))) {
    const values = valuesOf(rule.column);
    candidates.push({
      column: rule.column,
      rows:
        since && timed(rule.column)
          ? await rowsSince(db, table, rule.column, values, since)
          : found.filter((v) => v.col === rule.column).reduce((sum, v) => sum + Number(v.n), 0),
    });
  }
  if (since) candidates.push({ column: spec.order, rows: await rowsSince(db, table, '', [''], since) });
  // A fault code's scans (`scan_dtcs`, counted per month and day by 011's overview counters),
  // weighed as the heap rows they are: each is looked up by its id to test the other filters,
  // where a value's entries are tested in its index (054). P0300's 17,717 scans with Toyota and
  // 'generic': 17,717 heap rows, 190–400 ms; Toyota's 50,513 index entries, the code's scans
  // hashed: ~30 ms.
  const code = active.find(([, rule]) => rule.match === 'reportedCode');
  const codeScans = code ? await codeRows(db, String(paramValue(code[0])), since) : 0;
  if (code) candidates.push({ column: code[1].column, rows: codeScans * HEAP_ROW_WEIGHT });
  const driver = candidates.reduce<(typeof candidates)[number] | undefined>(
    (best, c) => (best === undefined || c.rows < best.rows ? c : best),
    undefined,
  )?.column;
  if (driver === undefined) return undefined;
  // Other values of few rows keep their indexes too: ANDed with the driver's, they leave few heap
  // rows to test where its own rows would all be read ('gmail' with Toyota and version 3.5:
  // 50,513 Toyota rows, 3,800 of them 3.5).
  const all = await tableTotal(db, table);
  const onIndex = new Set(
    candidates.filter((c) => c.column === driver || c.rows < FEW_ROWS_SHARE * all).map((c) => c.column),
  );
  // The bound rides with a value's time in its (value, time) index; beside another it is tested.
  const boundOnIndex = driver === spec.order || timed(driver);
  const written = new Set<string>();
  const conditions: Expression<SqlBool>[] = [];
  // Every row ending by an end bound starts before the day `dayAboveEndsBy` finds (whatever its
  // end): the walk of the driver's time starts there, not at the newest rows, which all end after
  // the bound ('generic' in country 91 ending by March, page 1: 33,000 rows passed, 297 ms).
  const endBound = active.find(
    ([, rule]) => 'end' in spec && rule.column === spec.end && rule.match === 'atMost',
  );
  const above = endBound
    ? await dayAboveEndsBy(db, table, String(paramValue(endBound[0])).slice(0, 10))
    : undefined;
  if (above !== undefined)
    conditions.push(
      boundOnIndex
        ? sql<SqlBool>`${sql.ref(spec.order)} < ${above}`
        : sql<SqlBool>`(${sql.ref(spec.order)} || '') < ${above}`,
    );
  for (const [param, rule] of active) {
    const column = sql.ref(rule.column);
    const value = paramValue(param);
    if (rule.column === spec.order && rule.match === 'atLeast') {
      conditions.push(
        boundOnIndex ? sql<SqlBool>`${column} >= ${value}` : sql<SqlBool>`(${column} || '') >= ${value}`,
      );
    } else if ('end' in spec && rule.column === spec.end && rule.match === 'atMost') {
      conditions.push(sql<SqlBool>`(${column} || '') <= ${value}`);
    } else if (rule.match === 'reportedCode' && rule.column === driver) {
      // Its scans looked up by id, in id order, from an array of them: written as `IN`,
      // PostgreSQL walked an index covering the other filters whole instead, probing
      // `scan_dtcs` for each entry ('gmail' in country 91: 1,000,000 entries, 1.5 s).
      const key = String(value).trim().toUpperCase();
      conditions.push(sql<SqlBool>`${column} = ANY(ARRAY(SELECT scan_id FROM scan_dtcs WHERE dtc = ${key}))`);
    } else if (rule.match === 'reportedCode') {
      // Off both ids' indexes (`+ 0`), read with nested loops priced out (`hashesCode`):
      // PostgreSQL otherwise looked each of the code's scans up by its id, or each entry of the
      // driver's walk up in `scan_dtcs` (16,696 probes, 185 ms for 'gmail' with Toyota), or
      // compared each entry with all the code's scans (2.6 s); so it hashes the code's scans.
      const key = String(value).trim().toUpperCase();
      conditions.push(
        sql<SqlBool>`(${column} + 0) IN (SELECT scan_id + 0 FROM scan_dtcs WHERE dtc = ${key})`,
      );
    } else if (rowTested.has(rule.column) && rule.match === 'contains') {
      conditions.push(rowTest(rule.column, value, 'postgres'));
    } else if (exacts.some(([p]) => p === param)) {
      conditions.push(
        onIndex.has(rule.column)
          ? sql<SqlBool>`${column} = ${value}`
          : sql<SqlBool>`${column}::text = ${String(value)}`,
      );
    } else if (listed.some(([p]) => p === param)) {
      const values = valuesOf(rule.column);
      // One value as `=`: its index then gives the time order (`= ANY` does not, before 17).
      conditions.push(
        values.length === 0
          ? sql<SqlBool>`false`
          : !onIndex.has(rule.column)
            ? sql<SqlBool>`(${column} || '') = ANY(${values})`
            : values.length === 1
              ? sql<SqlBool>`${column} = ${values[0]}`
              : sql<SqlBool>`${column} = ANY(${values})`,
      );
    } else continue;
    written.add(param);
  }
  const others = Object.fromEntries(active.filter(([param]) => !written.has(param))) as FilterRules<Q>;
  const driverRows =
    driver === code?.[1].column ? codeScans : candidates.find((c) => c.column === driver)?.rows;
  return {
    drives: {
      rows: driverRows ?? all,
      inTimeOrder: boundOnIndex,
      hashesCode: code !== undefined && driver !== code[1].column,
    },
    where: (eb) => eb.and([whereFilters(eb, 'postgres', others, query), ...conditions]),
  };
}

/**
 * Of three filters or more on PostgreSQL, a value in under this share of the rows keeps its index
 * beside the driver's (`postgresFewestDrive`).
 */
const FEW_ROWS_SHARE = 0.1;

/**
 * PostgreSQL: a row the driver reads from the heap (a fault code's scan, by its id) weighs this
 * many entries of a walk whose index holds every column tested (a value's since 054; the time's
 * holds the e-mail, the model and the end, all a start bound drives beside). Measured at a
 * million scans with the default 128 MB of shared buffers: P0300's 17,717 scans looked up in
 * ~260 ms (~14 µs each, most read from the OS cache); 'generic''s 199,523 entries counted and
 * walked with country 91, each probed in a hash of those scans, in 41–50 ms for total and page.
 */
const HEAP_ROW_WEIGHT = 16;

/** The scans reporting fault code `code` (since `day`), from 011's overview counters. */
async function codeRows(db: Kysely<Database>, code: string, day: string | undefined): Promise<number> {
  const key = code.trim().toUpperCase();
  const [found] = await rows<{ n: unknown }>(
    db,
    day
      ? sql`SELECT coalesce(sum(n), 0) AS n FROM overview_days WHERE topic = 'dtc' AND key = ${key} AND day >= ${day}`
      : sql`SELECT coalesce(sum(n), 0) AS n FROM overview_months WHERE topic = 'dtc' AND key = ${key}`,
  );
  return Number(found?.n ?? 0);
}
