import type { SortQuery } from '@obd/contract';
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
import { resolveSort, type SortShape } from '../../lib/sort.ts';
import { likePattern } from '../../lib/sql.ts';
import { codePairTotal } from './codePairs.ts';
import {
  codeEntries,
  type Filters,
  matchesTooMany,
  type Plan,
  pageOfEntries,
  rows,
  rowTest,
  scansReporting,
  sumOf,
  valueCounts,
  valueList,
} from './countPlan.ts';
import { dayAboveEndsBy } from './endPlan.ts';
import { COUNTED_LISTS, type CountedTableName, countedColumnsOf, heldByTimeIndex } from './lists.ts';

/**
 * Scans reporting a fault code (`dtc`, migration 011's `scan_dtcs`) with one other filter; SQLite
 * below, PostgreSQL in `postgresCodePlan`.
 *
 * - **Since a start time**: one range of the index (dtc, scan_start_time, scan_id) — the total
 *   from the index alone, the page's ids stepped over in it (scan_dtcs keeps each scan's start
 *   with its codes, by 011's triggers). SQLite otherwise walked the time index from the bound,
 *   probing the code's list for every scan since (P0300 since a date at a million scans: 0.3 s
 *   for 4,000 matches).
 * - **An e-mail or model fragment, an end bound, a country, make, type or app version**: each of
 *   the code's entries is joined on (start, id) to an index holding the other column — 004's
 *   time-order index (start, id, e-mail, model, end), or the value's (value, start) index — and
 *   tested there, no table row read; the page walked newest first along the code's entries (page 1
 *   of 'gmail' reads ~90 entries, not a sort of 6,000 matches). SQLite's own plan read each of the
 *   code's scans from the table to test them (P0300, ~18,000 scans at a million: 110–190 ms for
 *   the count, as much again for the page). When the other filter has fewer rows than the code has
 *   scans (model 'city': 2,000 rows), its own index drives instead, each row probing scan_dtcs's
 *   key, and the few matches are sorted — on SQLite read once for both total and page
 *   (`readOnce`) when no counter totals them.
 * - **The total**: migration 043's counters where they count the other filter (`codePairs.ts`),
 *   else a count over the matches as found above.
 *
 * - **A plate fragment** (SQLite): its trigram index's candidates, each probing the code's key in
 *   scan_dtcs, the few matches sorted; PostgreSQL's general path does that already.
 *
 * Undefined otherwise (decided at once).
 */
type Counted = Plan & { where: (walk: boolean) => Expression<SqlBool> };

/**
 * The scans that ended by the end of `bound`'s day (004's counters per end day): at least those an
 * end bound keeps, enough to tell whether it or the code is the rarer. Counting the ended scans
 * themselves up to the code's number read 53,000 index entries at three million scans.
 */
async function endedByDay(db: Kysely<Database>, bound: string): Promise<number> {
  const [found] = await rows<{ n: unknown }>(
    db,
    sql`SELECT coalesce(sum(n), 0) AS n FROM list_totals WHERE tbl = 'scans' AND col = 'scan_end_time' AND val <= ${bound.slice(0, 10)}`,
  );
  return Number(found?.n ?? 0);
}

/** At most this many matches are read into memory at once by `readOnce` (ids only, ~8 bytes each). */
const READ_ONCE_MAX = 50_000;

/**
 * SQLite, fewer matches than the code has scans, which no counter totals (a model fragment with
 * a code): their ids read once in the list's order (`from`: the scans `s` that match), the total their
 * number and a page a slice of them. Counting them and then sorting them again for the page read
 * each twice (model 'city' with P0300: ~2,000 scans at a million, ~6,000 at three million). The
 * order is kept off the time index (`+`) so the filter's own index finds the matches, as for a
 * count.
 */
async function readOnce(db: Kysely<Database>, from: RawBuilder<unknown>): Promise<Counted> {
  const ids = (
    await rows<{ id: unknown }>(
      db,
      sql`SELECT s.id AS id FROM ${from} ORDER BY +s.scan_start_time DESC, +s.id DESC`,
    )
  ).map((r) => Number(r.id));
  const n = ids.length;
  return {
    total: n,
    walk: true,
    where: () => sql<SqlBool>`${sql.ref('id')} IN (SELECT s.id FROM ${from})`,
    ids: (direction, limit, offset) => {
      const page =
        direction === 'desc'
          ? ids.slice(offset, offset + limit)
          : ids.slice(Math.max(0, n - offset - limit), Math.max(0, n - offset)).reverse();
      // Literal integers, read from the database just now (a page's worth, not one parameter
      // each).
      return page.length === 0
        ? sql`SELECT 0 WHERE 1 = 0`
        : sql`VALUES ${sql.join(page.map((id) => sql`(${sql.lit(id)})`))}`;
    },
  };
}

/**
 * An end bound's `endedByDay`, and the condition that keeps a walk of the code's entries below the
 * first start day after every scan that ends by the bound's day (`dayAboveEndsBy`): newest first,
 * the walk otherwise met every entry of the code started since the bound first, none of them a
 * match (a number that grows with the table: P0300 ended by 31 March, three times as many at three
 * million scans as at one).
 */
async function endedByDayAndBelow(
  db: Kysely<Database>,
  bound: string,
): Promise<[number, RawBuilder<unknown>]> {
  const [ended, above] = await Promise.all([
    endedByDay(db, bound),
    dayAboveEndsBy(db, 'scans', bound.slice(0, 10)),
  ]);
  return [ended, above === undefined ? sql`` : sql` AND d.scan_start_time < ${above}`];
}

export function codePlan<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): (() => Promise<Counted>) | undefined {
  if (table !== 'scans') return undefined;
  const spec = COUNTED_LISTS[table].counted;
  const active = activeRules(rules, query);
  if (active.length !== 2) return undefined;
  const codeAt = active.findIndex(([, r]) => r.match === 'reportedCode');
  if (codeAt < 0) return undefined;
  const [[codeParam], [otherParam, other]] = (codeAt === 0 ? active : [...active].reverse()) as [
    [string, FilterRule],
    [string, FilterRule],
  ];
  const code = String((query as Filters)[codeParam])
    .trim()
    .toUpperCase();
  const value = (query as Filters)[otherParam];

  if (other.column === spec.order && other.match === 'atLeast')
    return async () => {
      const from = String(value);
      const entries = codeEntries(code, from);
      const [counted] = await rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM ${entries}`);
      const inEntries = sql<SqlBool>`${sql.ref('id')} IN (SELECT d.scan_id FROM ${entries})`;
      return {
        total: Number(counted?.n ?? 0),
        // The page's ids step over the code's entries since `from` in that index alone, from the
        // nearer end (sorting every match read them all: P0300 since March, page 100, 85 ms at
        // three million scans); a list sorted by another column reads `where`.
        walk: true,
        ids: pageOfEntries(entries),
        ...(dialect === 'sqlite'
          ? { sorts: true, where: () => sql<SqlBool>`(${inEntries} AND +${sql.ref(spec.order)} >= ${from})` }
          : { where: () => inEntries }),
      };
    };
  // Only the list's own order (newest first) is planned below: a list sorted by another column
  // (sortedList.ts) keeps its count over the rows.
  if (resolveSort(COUNTED_LISTS[table].sort as SortShape<string>, query as SortQuery)) return undefined;
  if (dialect === 'postgres') return postgresCodePlan(db, code, other, value);

  const ending = other.column === spec.end && other.match === 'atMost';
  // Country, make, type, app version: 043 totals them, the walk probes their (value, time) index.
  const paired =
    (spec.byDay as readonly string[]).includes(other.column) &&
    (other.match === 'exact' || other.match === 'contains');
  const searchTable = other.match === 'contains' ? other.searchTable : undefined;
  if (searchTable && !countedColumnsOf(table).includes(other.column) && usesTrigramIndex(String(value)))
    return async () => {
      // A plate fragment (uncounted, found by its FTS5 trigram index): each candidate probes the
      // code's key in scan_dtcs before its row is read for the LIKE, and the few matches are
      // sorted. SQLite's own plan listed every scan of the code first (P0300's 53,000 at three
      // million scans: 71 ms for the count, as much for the page; this 13).
      const fragment = String(value);
      const matches = sql`SELECT s.id FROM scans s WHERE s.id IN (SELECT f.rowid FROM ${sql.table(searchTable)} f WHERE ${trigramPhrase(`f.${other.column}`, fragment)} AND EXISTS (SELECT 1 FROM scan_dtcs d WHERE d.scan_id = f.rowid AND d.dtc = ${code})) AND ${sql.ref(`s.${other.column}`)} LIKE ${likePattern(fragment)} ESCAPE '\\'`;
      const [counted] = await rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM (${matches})`);
      const where = () => sql<SqlBool>`${sql.ref('id')} IN (${matches})`;
      return { total: Number(counted?.n ?? 0), walk: false, sorts: true, where };
    };
  if (!ending && !paired && !(other.match === 'contains' && heldByTimeIndex(table).includes(other.column)))
    return undefined;
  return async () => {
    const column = sql.ref(`s.${other.column}`);
    const [ofCode, pairTotal] = await Promise.all([
      scansReporting(db, dialect, code),
      codePairTotal(db, dialect, code, other, value),
    ]);
    const totalOf = async (matches: RawBuilder<unknown>) =>
      pairTotal ??
      Number((await rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM (${matches})`))[0]?.n ?? 0);
    // The other filter tested on a scan `s`, and how many scans it matches (at most the code's).
    let test: RawBuilder<SqlBool>;
    let otherRows: number;
    let below = sql``;
    if (ending) {
      test = sql<SqlBool>`${column} <= ${String(value)}`;
      [otherRows, below] = await endedByDayAndBelow(db, String(value));
    } else if (other.match === 'contains' && (await matchesTooMany(db, dialect, table, other, value))) {
      // 'gmail': more addresses than are worth listing, tested on each entry (the same LIKE as
      // the counters'), and frequent enough to walk.
      test = rowTest(`s.${other.column}`, value, dialect);
      otherRows = Number.POSITIVE_INFINITY;
    } else {
      // The counted values themselves (binary: as stored), so rows and total agree exactly.
      const found = await valueCounts(db, table, [
        {
          column: other.column,
          matching:
            other.match === 'exact'
              ? sql`n > 0 AND val = ${String(value)}`
              : sql`n > 0 AND val LIKE ${likePattern(String(value))} ESCAPE '\\'`,
        },
      ]);
      const values = found.filter((v) => v.col === other.column);
      otherRows = sumOf(values);
      test =
        values.length === 0
          ? sql<SqlBool>`0`
          : other.match === 'exact'
            ? sql<SqlBool>`${column} = ${value}`
            : sql<SqlBool>`${column} IN (${valueList(values.map((v) => v.val))})`;
    }
    if (otherRows < ofCode) {
      // Few rows of the other filter: its own index drives (CROSS JOIN keeps SQLite's join order),
      // each row probing scan_dtcs's key (scan_id, dtc); the matches are sorted.
      const from = sql`scans s CROSS JOIN scan_dtcs d ON d.scan_id = s.id AND d.dtc = ${code} WHERE ${test}`;
      if (pairTotal === undefined && otherRows <= READ_ONCE_MAX) return readOnce(db, from);
      const matches = sql`SELECT s.id FROM ${from}`;
      const where = () => sql<SqlBool>`${sql.ref('id')} IN (${matches})`;
      return { total: await totalOf(matches), walk: false, sorts: true, where };
    }
    // The code's entries newest first, each joined on (start, id) to an index holding the other
    // column — the time-order index for an e-mail, a model or the end, the value's (value, time)
    // index for a country, make, type or version: `+` keeps the id off the rowid (SQLite otherwise
    // reads the table row), and CROSS JOIN keeps scan_dtcs outside.
    const joined = sql`scan_dtcs d CROSS JOIN scans s ON s.scan_start_time = d.scan_start_time AND +s.id = d.scan_id WHERE d.dtc = ${code}${below} AND ${test}`;
    return {
      total: await totalOf(sql`SELECT 1 FROM ${joined}`),
      walk: true,
      where: () => sql<SqlBool>`${sql.ref('id')} IN (SELECT d.scan_id FROM ${joined})`,
      ids: pageOfEntries(joined),
    };
  };
}

/**
 * PostgreSQL, a fault code with one other filter: the code's entries of `scan_dtcs` (dtc, start,
 * scan_id) joined on (start, id) to the scans, the other filter tested on the joined scan — so
 * the join can probe an index holding both: the value's (value, time, id) index (003's for a
 * country, 025's for make, type, app version), or 004's time-order index (start, id, e-mail,
 * model, end) for an end bound or an e-mail / model fragment. The total is a count over that
 * join, the page's ids walk the code's entries newest first (page 1 of a code with Generic reads
 * ~150 of them). (Since a start time: `codePlan` itself, on both.) Its general path
 * counted `id IN (the code's scans)` over every row the other filter matched: 0.2–1.3 s at a
 * million scans. A licence plate or a list sorted by another column: undefined (the general path).
 */
function postgresCodePlan(
  db: Kysely<Database>,
  code: string,
  other: FilterRule,
  value: unknown,
): (() => Promise<Counted>) | undefined {
  const table = 'scans';
  const spec = COUNTED_LISTS[table].counted;
  const column = other.column;
  const ending = column === spec.end && other.match === 'atMost';
  const counted = countedColumnsOf(table).includes(column);
  if (!ending && !(counted && (other.match === 'contains' || other.match === 'exact'))) return undefined;
  return async () => {
    const ref = sql.ref(`s.${column}`);
    // The code's scans, and below how many scans the other filter matches (at most one more
    // than those).
    const [ofCode, pairTotal] = await Promise.all([
      scansReporting(db, 'postgres', code),
      codePairTotal(db, 'postgres', code, other, value),
    ]);
    const totalOf = async (matches: RawBuilder<unknown>) =>
      pairTotal ??
      Number((await rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM (${matches}) m`))[0]?.n ?? 0);
    let test: RawBuilder<SqlBool>;
    let otherRows: number;
    let below = sql``;
    if (ending) {
      test = sql<SqlBool>`${ref} <= ${String(value)}`;
      [otherRows, below] = await endedByDayAndBelow(db, String(value));
    } else if (other.match !== 'exact' && (await matchesTooMany(db, 'postgres', table, other, value))) {
      // 'gmail': tested on each joined entry (the same ILIKE as the counters').
      test = rowTest(`s.${column}`, value, 'postgres');
      otherRows = Number.POSITIVE_INFINITY;
    } else {
      // The counted values themselves: one is probed in its (value, time) index.
      const found = await valueCounts(db, table, [
        {
          column,
          matching:
            other.match === 'exact'
              ? sql`n > 0 AND val = ${String(value)}`
              : sql`n > 0 AND val ILIKE ${likePattern(String(value))} ESCAPE '\\'`,
        },
      ]);
      const values = found.filter((v) => v.col === column);
      const vals = values.map((v) => v.val);
      otherRows = sumOf(values);
      test =
        vals.length === 0
          ? sql<SqlBool>`1 = 0`
          : other.match === 'exact'
            ? sql<SqlBool>`${ref} = ${value}`
            : vals.length === 1
              ? sql<SqlBool>`${ref} = ${vals[0]}`
              : sql<SqlBool>`${ref} = ANY(${vals})`;
    }
    if (otherRows < ofCode) {
      // Fewer scans of the other filter than of the code (model 'city': 2,000 against P0300's
      // 18,000): found through its own index, each looked up among the code's, and sorted.
      // (Read once, as on SQLite, it cost more than it saved: PostgreSQL hash-joins the code's
      // entries for the count and the page alike, and a page past the total needs no page.)
      const matches = sql`SELECT s.id FROM scans s WHERE ${test} AND s.id IN (SELECT scan_id FROM scan_dtcs WHERE dtc = ${code})`;
      return {
        total: await totalOf(matches),
        walk: false,
        where: () => sql<SqlBool>`${sql.ref('id')} IN (${matches})`,
      };
    }
    // Each entry probes one index for its scan (LATERAL … LIMIT 1 keeps it a nested loop):
    // PostgreSQL otherwise merge-joined every Generic scan's entry of 025's index (200,000, 110 ms
    // at a million scans) to the code's 18,000.
    const entries = sql`scan_dtcs d CROSS JOIN LATERAL (SELECT 1 FROM scans s WHERE s.scan_start_time = d.scan_start_time AND s.id = d.scan_id AND ${test} LIMIT 1) s WHERE d.dtc = ${code}${below}`;
    return {
      total: await totalOf(sql`SELECT 1 FROM ${entries}`),
      walk: true,
      where: () => sql<SqlBool>`${sql.ref('id')} IN (SELECT d.scan_id FROM ${entries})`,
      ids: pageOfEntries(entries),
    };
  };
}
