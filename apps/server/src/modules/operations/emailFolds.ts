import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { sharedRead } from '../../lib/sharedReads.ts';
import { idArray, likePattern, withPlanPricedOut } from '../../lib/sql.ts';
import type { Plan } from './countPlan.ts';
import { type CountedTableName, EMAIL_COLUMNS } from './lists.ts';

/**
 * PostgreSQL: totals of an e-mail fragment holding no digit from the folded addresses' counters
 * of migration 035. An address folded has each run of ASCII digits replaced by one '0'; such a
 * fragment is in an address exactly when it is in its folded form, so its rows are the sums of
 * the folded counters whose value matches — ~20,000 folded addresses per table at a million runs
 * where 'kumar' alone is in ~25,000 addresses. The same ILIKE is applied to the folded values as to
 * the rows, so the totals are those of the rows.
 *
 * SQLite keeps no folded counters (035 says why).
 */

/**
 * The columns whose pairs with the e-mail are folded too (035's frozen list; the bulk seed
 * rebuilds them from this one, `test/seedBulk.test.ts` holds the two equal).
 */
export const FOLDED_WITH: readonly string[] = [
  'country_id',
  'type',
  'app_version',
  'module',
  'function_type',
  'command_type',
  'variant',
  'scan_ended',
  'hard_coded',
  'input',
  'actuation_type',
  'actuation_option',
];

/** Whether `fragment` on `column` can be totalled from the folded counters. */
export function foldable(dialect: Dialect, column: string, fragment: unknown): boolean {
  const text = String(fragment);
  return dialect === 'postgres' && EMAIL_COLUMNS.includes(column) && text !== '' && !/[0-9]/.test(text);
}

/** The counter column of `column`'s folded addresses (rows) and of their address counts. */
export const foldedColumn = (column: string) => `${column}#`;
export const foldedAddressesColumn = (column: string) => `${column}#addresses`;

/**
 * The folded value (`|| ''`: kept off 004's trigram index over every counter value, which 'gmail'
 * matches in 615,000 rows — 95 ms, where the table's own ~20,000 folded rows take a few).
 */
const matches = (fragment: string, value = sql.ref('val')) =>
  sql`(${value} || '') ILIKE ${likePattern(fragment)} ESCAPE '\\'`;

/** What the folded counters say of the addresses of a column holding a fragment (`foldedFacts`). */
export interface FoldedFacts {
  /** The rows whose address contains it. */
  rows: number;
  /** The addresses holding rows that contain it. */
  addresses: number;
  /** …of which contain it before their first '@' and not after it (027's local-only addresses). */
  localOnlyAddresses: number;
  /** The folded addresses holding it, when at most MAX_FOLDED_VALUES. */
  values: string[] | undefined;
}

/** Folded addresses a request may bind as one array (`foldedMonthRows`): ~150 KB of text. */
const MAX_FOLDED_VALUES = 5_000;

/**
 * The folded facts of `fragment` in `column` of `table`, read once per request (`sharedRead`): a
 * surname's plan asks for all three (`matchesTooMany`, `containingTotal`), which as three scans of
 * the table's ~20,000 folded addresses took ~30 ms at a million runs. As one statement, the folded
 * addresses holding it found through 038's trigram index ('kumar': 756) and the rows of each
 * looked up: ~4 ms. PostgreSQL prices ILIKE on each of the 20,000 entries of 035's covering index
 * as nearly free (13–23 ms in fact), so index-only scans are priced out for it. Folding keeps the
 * first '@' where it was, so the local-only test on the folded address is the addresses' own.
 * Every folded address with rows has addresses with rows, so the search starts from the address
 * counts. Without parallel workers: at three million scans the planner expects ~2,000 folded
 * addresses for 'joshi' (817 in fact) and starts one, 5.3 ms where the loop alone takes 2.8.
 */
export function foldedFacts(
  db: Kysely<Database>,
  table: string,
  column: string,
  fragment: string,
): Promise<FoldedFacts> {
  return sharedRead(JSON.stringify(['foldedFacts', table, column, fragment]), async () => {
    const pattern = likePattern(fragment);
    const { rows } = await withPlanPricedOut(
      db,
      'postgres',
      ['enable_indexonlyscan', 'max_parallel_workers_per_gather'],
      (trx) =>
        sql<Record<keyof FoldedFacts, unknown>>`SELECT
        coalesce(sum(r.n), 0) AS "rows", coalesce(sum(a.n), 0) AS addresses,
        coalesce(sum(a.n) FILTER (WHERE split_part(a.val, '@', 1) ILIKE ${pattern} ESCAPE '\\'
          AND NOT (CASE WHEN strpos(a.val, '@') > 0 THEN substr(a.val, strpos(a.val, '@') + 1) ELSE '' END ILIKE ${pattern} ESCAPE '\\')), 0) AS "localOnlyAddresses",
        CASE WHEN count(*) <= ${MAX_FOLDED_VALUES} THEN array_agg(a.val) END AS "values"
      FROM list_totals a
      LEFT JOIN list_totals r ON r.tbl = a.tbl AND r.col = ${foldedColumn(column)} AND r.val = a.val
      WHERE a.tbl = ${table} AND a.col = ${foldedAddressesColumn(column)} AND a.val ILIKE ${pattern} ESCAPE '\\'`.execute(
          trx,
        ),
    );
    const found = rows[0];
    return {
      rows: Number(found?.rows ?? 0),
      addresses: Number(found?.addresses ?? 0),
      localOnlyAddresses: Number(found?.localOnlyAddresses ?? 0),
      values: Array.isArray(found?.values) ? (found.values as string[]) : undefined,
    };
  });
}

/**
 * The rows whose address in `column` holds `fragment`, as their folded addresses (035's fold,
 * written as 045's index of it is, so that the planner matches it: the pattern a literal) among
 * the fragment's folded addresses — the same rows as ILIKE on the addresses — read from that
 * index alone ('joshi''s 42,424 ids through ~750 folded addresses: ~10 ms, where its 25,156
 * addresses took 55–70). Undefined when more folded addresses hold it than are worth binding.
 */
export async function foldedAddressesHolding(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  fragment: string,
): Promise<RawBuilder<SqlBool> | undefined> {
  const { values } = await foldedFacts(db, table, column, fragment);
  if (values === undefined) return undefined;
  return sql<SqlBool>`regexp_replace(${sql.ref(column)}, '[0-9]+', '0', 'g') = ANY(${values})`;
}

/**
 * The ids of a page among the rows holding `fragment` in `column` within a range of the list's
 * time column `order` (a bucket of its folded months: from a month's key on, below a newer
 * month's), by folded address — 045's index of (folded address, time, id): one range per folded
 * address, read from the index alone, newest first, at most the page's depth from each, then
 * sorted — instead of a walk of the time index testing every row's address. 'joshi' page 100 at
 * three million scans: the newest month's 7,107 matches through its 817 folded addresses in
 * ~7 ms, where the walk stepped over ~70,000 entries (24 ms in-process).
 *
 * One range per folded address (a lateral subquery with a LIMIT, which the planner cannot fold
 * into the outer query): as one `= ANY` the plan rests on the statistics of the folded address,
 * which exist only once the table was analysed since 045; without them PostgreSQL walked the
 * month in the time index computing every entry's folded address instead (74 ms).
 *
 * `probes`: the ranges read (folded addresses). Undefined when more folded addresses hold it
 * than are worth binding.
 */
export async function foldedBucketIds(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  order: string,
  fragment: string,
): Promise<NonNullable<Plan['bucketIds']> | undefined> {
  const { values } = await foldedFacts(db, table, column, fragment);
  if (values === undefined) return undefined;
  return {
    probes: values.length,
    ids: ({ from, below }, direction, limit, offset) => {
      const dir = sql.raw(direction);
      const time = sql.ref(order);
      return sql`SELECT s.id FROM unnest(${values}::text[]) AS f(val) CROSS JOIN LATERAL (
          SELECT id, ${time} AS t FROM ${sql.table(table)}
          WHERE regexp_replace(${sql.ref(column)}, '[0-9]+', '0', 'g') = f.val AND ${time} >= ${from}${below === undefined ? sql`` : sql` AND ${time} < ${below}`}
          ORDER BY ${time} ${dir}, id ${dir} LIMIT ${offset + limit}
        ) s
        ORDER BY s.t ${dir}, s.id ${dir} LIMIT ${limit} OFFSET ${offset}`;
    },
  };
}

/**
 * The ids of the rows whose address in `column` holds `fragment`, by folded address
 * (`foldedAddressesHolding`), as one array literal (`idArray`); undefined as that is.
 */
export async function foldedIds(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  fragment: string,
): Promise<string | undefined> {
  const holding = await foldedAddressesHolding(db, table, column, fragment);
  if (!holding) return undefined;
  const { rows } = await sql<{ ids: string }>`SELECT ${idArray(sql.ref('id'))} AS ids FROM ${sql.table(table)}
    WHERE ${holding}`.execute(db);
  return rows[0]?.ids ?? '{}';
}

/**
 * The rows with `fragment` in `column` per month of the list's time column (035's `#month`
 * counters of its folded addresses), so a deep page of a surname starts its walk at the month
 * holding it ('kumar' page 100 stepped over ~75,000 index entries testing ILIKE on each). Undefined
 * when more folded addresses hold it than are worth binding.
 *
 * `newest`: only the newest months holding that many of its rows are needed (a page's offset and
 * size, newest first), and only they may be read: the months since the one where the table's own
 * rows reach twice the fragment's share of them — its rows spread over time about as the table's
 * do — and the rest only if those hold too few. 'joshi''s ~750 folded addresses × 18 months:
 * 6–9 ms; page 100's three newest months: ~3.
 */
export async function foldedMonthRows(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  fragment: string,
  newest?: number,
): Promise<Map<string, number> | undefined> {
  const { values, rows: total } = await foldedFacts(db, table, column, fragment);
  if (values === undefined) return undefined;
  // The addresses joined as rows: `val = ANY(…)` had the planner weigh each of ~750 values
  // against the column's statistics (~2.5 ms of ~6). Looked up one by one (a lateral subquery
  // kept apart by `OFFSET 0`): joined, at three million scans PostgreSQL sorted every folded
  // address's months since the bound (~120,000 counter rows) for a merge join, 62 ms.
  const months = async (range: RawBuilder<unknown>) =>
    (
      await sql<{
        day: string;
        n: unknown;
      }>`SELECT d.day, sum(d.n) AS n FROM unnest(${values}::text[]) AS f(val)
        CROSS JOIN LATERAL (SELECT d.day, d.n FROM list_days d
          WHERE d.tbl = ${table} AND d.col = ${`${column}#month`} AND d.val = f.val${range} OFFSET 0) d
        GROUP BY d.day`.execute(db)
    ).rows.map((r): [string, number] => [r.day, Number(r.n)]);
  const since =
    newest === undefined ? undefined : await monthHolding(db, table, (2 * newest) / Math.max(total, 1));
  if (since === undefined) return new Map(await months(sql``));
  const recent = await months(sql` AND d.day >= ${since}`);
  if (recent.reduce((sum, [, n]) => sum + n, 0) >= (newest ?? 0)) return new Map(recent);
  return new Map([...recent, ...(await months(sql` AND d.day < ${since}`))]);
}

/**
 * The newest month ('YYYY-MM') from which on the table holds at least `share` of its rows (its
 * whole-table day counters), or undefined when only all of them do.
 */
async function monthHolding(db: Kysely<Database>, table: CountedTableName, share: number) {
  if (share >= 1) return undefined;
  const { rows } = await sql<{ month: string; n: unknown }>`SELECT substr(day, 1, 7) AS month, sum(n) AS n
    FROM list_days WHERE tbl = ${table} AND col = '' AND val = '' GROUP BY substr(day, 1, 7)`.execute(db);
  const all = rows.reduce((sum, r) => sum + Number(r.n), 0);
  let held = 0;
  for (const r of rows.sort((a, b) => (a.month < b.month ? 1 : -1))) {
    held += Number(r.n);
    if (held >= share * all) return r.month === rows.at(-1)?.month ? undefined : r.month;
  }
  return undefined;
}

/**
 * The rows of `table` with `fragment` in the e-mail column `pair[tested]` and one of `listed` in
 * the other (a column of FOLDED_WITH), from 035's folded pairs (`a` < `b` by name): the pairs of
 * the fragment's folded addresses (`foldedFacts`, read once per request) with the listed values,
 * one index range per folded address ('kumar''s 756 with Diesel's two values: 3.6 ms), where
 * testing the fragment on every folded pair of the listed values read ~27,000 of them (14 ms). One
 * range each through a lateral sub-query the planner cannot flatten (`OFFSET 0`): as one `= ANY`
 * it filtered every folded pair of the column instead (15 ms), its estimate of a folded pair's
 * rows being off. Every folded pair's address has its folded address counted (035 keeps both
 * from the same address rows), so the sum is the same; ILIKE where too many folded addresses
 * hold the fragment to bind.
 */
export async function foldedPairTotal(
  db: Kysely<Database>,
  table: CountedTableName,
  pair: { a: string; b: string },
  tested: 'a' | 'b',
  listed: readonly string[],
  fragment: string,
): Promise<number> {
  const [a, b] = tested === 'a' ? [foldedColumn(pair.a), pair.b] : [pair.a, foldedColumn(pair.b)];
  const [testedValue, listedValue] = tested === 'a' ? ['av', 'bv'] : ['bv', 'av'];
  const pairsOf = (holding: RawBuilder<unknown>) =>
    sql`SELECT n FROM list_pairs WHERE tbl = ${table} AND a = ${a} AND b = ${b}
      AND ${sql.ref(listedValue)} IN (${sql.join(listed)}) AND ${holding}`;
  const { values } = await foldedFacts(db, table, pair[tested], fragment);
  const { rows } = await sql<{ n: unknown }>`SELECT coalesce(sum(p.n), 0) AS n FROM ${
    values === undefined
      ? sql`(${pairsOf(sql`${sql.ref(testedValue)} ILIKE ${likePattern(fragment)} ESCAPE '\\'`)}) p`
      : sql`unnest(${values}::text[]) AS f(val) CROSS JOIN LATERAL (${pairsOf(sql`${sql.ref(testedValue)} = f.val`)} OFFSET 0) p`
  }`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The counters of `family` ('#' in `list_end_days`, '#month' in `list_days`) of the folded
 * addresses holding `fragment`, found through their `list_totals` rows (~20,000 per table, against
 * ~20 months each), summed where `day` holds.
 */
async function foldedSum(
  db: Kysely<Database>,
  counters: 'list_days' | 'list_end_days',
  table: CountedTableName,
  column: string,
  family: string,
  fragment: string,
  day: RawBuilder<SqlBool>,
): Promise<number> {
  const { rows } = await sql<{ n: unknown }>`SELECT coalesce(sum(e.n), 0) AS n FROM list_totals t
    JOIN ${sql.table(counters)} e ON e.tbl = t.tbl AND e.col = ${`${column}${family}`} AND e.val = t.val AND ${day}
    WHERE t.tbl = ${table} AND t.col = ${foldedColumn(column)} AND ${matches(fragment, sql.ref('t.val'))}`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The rows with `fragment` in `column` ending in a month before `month` ('YYYY-MM'). */
export function foldedEndedBefore(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  fragment: string,
  month: string,
): Promise<number> {
  return foldedSum(db, 'list_end_days', table, column, '#', fragment, sql<SqlBool>`e.day < ${month}`);
}

/**
 * The rows with `fragment` in `column` in the months of the time column that compare to `month`
 * ('YYYY-MM') as `op` says.
 */
export function foldedMonths(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  fragment: string,
  op: MonthOp,
  month: string,
): Promise<number> {
  return foldedSum(
    db,
    'list_days',
    table,
    column,
    '#month',
    fragment,
    sql<SqlBool>`e.day ${sql.raw(op)} ${month}`,
  );
}

/** The month after `month` ('YYYY-MM'), as 'YYYY-MM': every time of `month` sorts before it. */
function monthAfter(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 12
    ? `${String(year + 1).padStart(4, '0')}-01`
    : `${String(year).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}`;
}

export type MonthOp = '<' | '<=' | '>' | '>=';

/**
 * The rows since `from` or up to `to` on the time column `order`: the whole months beyond the
 * bound's (`months`, from folded counters per month), and the bound's own month counted in the
 * rows (`edgeRows` of a range of `order`) from its nearer end — none for a bound on the 1st or at
 * the end of its month. A month is summed whole when its part beyond the bound is the smaller
 * one, that part then taken off.
 */
export async function foldedAroundBound(
  bound: { from: string } | { to: string },
  order: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  months: (op: MonthOp, month: string) => Promise<number>,
  edgeRows: (range: RawBuilder<SqlBool>) => Promise<number>,
): Promise<number> {
  const at = 'from' in bound ? bound.from : bound.to;
  const [month, next] = [at.slice(0, 7), monthAfter(at.slice(0, 7))];
  const whole = 'from' in bound === Number(at.slice(8, 10)) <= 15;
  const [op, edge]: [MonthOp, RawBuilder<SqlBool>] =
    'from' in bound
      ? whole
        ? ['>=', sql<SqlBool>`${order} >= ${month} AND ${order} < ${bound.from}`]
        : ['>', sql<SqlBool>`${order} >= ${bound.from} AND ${order} < ${next}`]
      : whole
        ? ['<=', sql<SqlBool>`${order} > ${bound.to} AND ${order} < ${next}`]
        : ['<', sql<SqlBool>`${order} >= ${month} AND ${order} <= ${bound.to}`];
  const [summed, n] = await Promise.all([months(op, month), edgeRows(edge)]);
  return whole ? summed - n : summed + n;
}
