import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { trigramMatchIds, trigramPhrase, usesTrigramIndex } from '../../lib/filters.ts';
import { sharedRead } from '../../lib/sharedReads.ts';
import { likePattern } from '../../lib/sql.ts';
import { foldable, foldedEndedBefore, foldedFacts, foldedMonthRows } from './emailFolds.ts';
import {
  COUNTED_LISTS,
  type CountedTableName,
  EMAIL_COLUMNS,
  SEARCH_TABLES,
  sortIndexSqlite,
} from './lists.ts';

/**
 * Exact totals of a contains filter on an e-mail column that matches a large part of the
 * addresses ('gmail': ~200,000 of ~600,000 at a million scans), from the domain counters of
 * migrations 027 (totals, pairs), 028 (end months), 029 (start days) and 031 (end days).
 * A fragment without '@' is in an address exactly when it is in the domain (after the first '@')
 * or in the local part (before it), so its rows are
 *   the domain counters whose domain contains it (a handful of rows), plus
 *   the address counters whose local part contains it and whose domain does not (found through
 *   027's trigram index over the local parts: for 'gmail', next to none).
 * Each address found is tested with the dialect's LIKE / ILIKE again, as `containingValues` does:
 * the totals are those of the same test on the rows.
 */

/** Whether `fragment` on `column` can be totalled from the domain and local-part counters. */
export function splitsAtDomain(column: string, fragment: unknown): boolean {
  const text = String(fragment);
  return EMAIL_COLUMNS.includes(column) && !text.includes('@') && usesTrigramIndex(text);
}

/** The counter column holding `column`'s domains. */
export const domainColumn = (column: string) => `${column}@`;

/**
 * A domain counter's value, tested by LIKE: on PostgreSQL kept off 026's trigram index of every
 * counter's value, where a fragment's candidates are the addresses holding it ('joshi': ~80,000,
 * 4–12 ms a request), while the domains are one short range of the primary key (ten in the seed:
 * 0.1 ms).
 */
const domainValue = (dialect: Dialect) => (dialect === 'postgres' ? sql`(val || '')` : sql`val`);

/**
 * PostgreSQL: whether `fragment` is best answered from 035's folded counters — it has no digit,
 * and no domain holds it, so its matches are local parts spread thin among the addresses (a
 * surname: 'kumar' in ~25,000 of 594,000, which the trigram index finds only through 75,000
 * candidates' heap rows). A fragment some domain holds ('gmail') matches densely: the address
 * counters give its answers in a few ms, where testing the ~20,000 folded addresses takes ~20.
 */
export async function readsFolds(
  db: Kysely<Database>,
  dialect: Dialect,
  table: string,
  column: string,
  fragment: unknown,
): Promise<boolean> {
  return foldable(dialect, column, fragment) && !(await heldByDomain(db, dialect, table, column, fragment));
}

/** Whether some domain of `column` (with rows) holds `fragment`: one counter row read, shared. */
export async function heldByDomain(
  db: Kysely<Database>,
  dialect: Dialect,
  table: string,
  column: string,
  fragment: unknown,
): Promise<boolean> {
  return sharedRead(JSON.stringify(['heldByDomain', table, column, fragment]), async () => {
    const { rows } =
      await sql`SELECT 1 FROM list_totals WHERE tbl = ${table} AND col = ${domainColumn(column)} AND n > 0 AND ${domainValue(dialect)} ${like(dialect)} ${likePattern(String(fragment))} ESCAPE '\\' LIMIT 1`.execute(
        db,
      );
    return rows.length > 0;
  });
}

/**
 * The address counter rows (`list_totals` as `t`) of `column` whose local part contains
 * `fragment` and whose domain does not, `selected` from each.
 */
export function localOnlyValues(
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  fragment: string,
  selected: RawBuilder<unknown>,
) {
  const pattern = likePattern(fragment);
  if (dialect === 'postgres')
    // 027's partial trigram index on split_part(val, '@', 1): its predicate is repeated so the
    // planner sees that it holds.
    return sql`SELECT ${selected} FROM list_totals t
      WHERE t.col IN ('email', 'user_email') AND t.tbl = ${table} AND t.col = ${column}
        AND split_part(t.val, '@', 1) ILIKE ${pattern} ESCAPE '\\'
        AND NOT (CASE WHEN strpos(t.val, '@') > 0 THEN substr(t.val, strpos(t.val, '@') + 1) ELSE '' END ILIKE ${pattern} ESCAPE '\\')`;
  return sql`SELECT ${selected} FROM list_locals_search l CROSS JOIN list_totals t ON t.rowid = l.rowid
    WHERE ${trigramPhrase('l.local', fragment)} AND t.tbl = ${table} AND t.col = ${column}
      AND t.val LIKE ${pattern} ESCAPE '\\'
      AND NOT (CASE WHEN instr(t.val, '@') > 0 THEN substr(t.val, instr(t.val, '@') + 1) ELSE '' END LIKE ${pattern} ESCAPE '\\')`;
}

async function sumOf(db: Kysely<Database>, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await query.execute(db);
  return Number((rows[0] as { n?: unknown } | undefined)?.n ?? 0);
}

/** Local-only addresses whose rows per day are counted from the rows (else: no days). */
export const MAX_LOCAL_ADDRESSES = 200;

const like = (dialect: Dialect) => (dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`);

/**
 * SQLite: the rows of `table` whose `column` holds an e-mail fragment no domain holds (a surname),
 * counted in the trigram table (`trigramMatchIds`, exact: 'reddy''s 42,554 actuation runs in
 * ~15 ms); undefined when a domain holds it or the trigram table cannot answer it. Every address
 * holding such a fragment holds it in its local part alone and holds one of these rows at least,
 * so they bound its addresses too — without counting them through the local parts of every
 * table's addresses (5,001 of 'reddy''s ~25,000: 13–22 ms; then 201 local-only ones: 10–18 more).
 * Shared by the statements of a request and the requests of a burst.
 */
export async function surnameRows(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  fragment: string,
): Promise<number | undefined> {
  if (dialect !== 'sqlite' || !splitsAtDomain(column, fragment)) return undefined;
  const ids = trigramMatchIds(table, SEARCH_TABLES[table], column, fragment);
  if (!ids || (await heldByDomain(db, dialect, table, column, fragment))) return undefined;
  return sharedRead(JSON.stringify(['surnameRows', table, column, fragment]), () =>
    sumOf(db, sql`SELECT count(*) AS n FROM (${ids}) m`),
  );
}

/**
 * SQLite: the rows of `table` holding a surname (`surnameRows`) in `column` whose `listed` column
 * meets `listedCondition` (written on `r`): each of the surname's rows' ids from the trigram table
 * looked up under the listed values in that column's sort index (030/051: column, id, time, …),
 * which holds them and their time without their rows. 'reddy' with Cycle, 42,554 ids: ~50 ms,
 * where listing its ~25,000 local-only addresses and summing their pairs with Cycle took ~105
 * (and 19 more to learn that they are over 200). Undefined when the listed column has no such
 * index (the list's time).
 * With `readIds`, the matches' ids in the list's order (newest first, ties: the higher id first):
 * the same lookups give the total and every page at once. Else their number alone.
 */
export async function surnamePairMatches(
  db: Kysely<Database>,
  table: CountedTableName,
  column: string,
  fragment: string,
  listed: string,
  listedCondition: RawBuilder<unknown>,
  readIds: boolean,
): Promise<{ total: number; ids?: number[] } | undefined> {
  const { counted } = COUNTED_LISTS[table];
  const indexName = sortIndexSqlite(table, listed);
  if (indexName === undefined) return undefined;
  const ids = trigramMatchIds(table, SEARCH_TABLES[table], column, fragment);
  if (!ids) return undefined;
  const index = sql.id(indexName);
  if (!readIds)
    return {
      total: await sumOf(
        db,
        sql`SELECT count(*) AS n FROM (${ids}) m
          WHERE EXISTS (SELECT 1 FROM ${sql.table(table)} r INDEXED BY ${index} WHERE ${listedCondition} AND r.id = m.id)`,
      ),
    };
  // CROSS JOIN keeps the ids outside: a seek in the index per id, its time read there.
  const order = sql.ref(`r.${counted.order}`);
  const { rows: found } = await sql<{ id: number }>`SELECT m.id FROM (${ids}) m
    CROSS JOIN ${sql.table(table)} r INDEXED BY ${index} ON ${listedCondition} AND r.id = m.id
    ORDER BY ${order} DESC, m.id DESC`.execute(db);
  return { total: found.length, ids: found.map((r) => r.id) };
}

/**
 * The ids of a page (`direction` and `offset` as a plan's `ids` takes them) of matches listed
 * newest first, as a SELECT of them.
 */
export function listedPage(
  newestFirst: readonly number[],
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
) {
  // Oldest first: the same slice counted from the older end.
  const end = Math.max(0, newestFirst.length - offset);
  const page =
    direction === 'desc'
      ? newestFirst.slice(offset, offset + limit)
      : newestFirst.slice(Math.max(0, end - limit), end).reverse();
  return sql`SELECT value AS id FROM json_each(${JSON.stringify(page)})`;
}

/**
 * The rows of `table` whose `column` contains `fragment` (see `splitsAtDomain`), and how many
 * addresses hold it in their local part alone — on SQLite, one more than MAX_LOCAL_ADDRESSES when
 * they are not all counted: past that many, or when no domain holds it and more rows than that
 * do (`surnameRows`; on SQLite this is asked only of fragments of thousands of rows).
 */
export async function containingTotal(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  fragment: string,
): Promise<{ total: number; localAddresses: number }> {
  return sharedRead(JSON.stringify(['containingTotal', table, column, fragment]), () =>
    readContainingTotal(db, dialect, table, column, fragment),
  );
}

async function readContainingTotal(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  fragment: string,
): Promise<{ total: number; localAddresses: number }> {
  // PostgreSQL, no digit, held by many local parts alone ('kumar': 25,000 addresses, found
  // through 75,000 trigram candidates' heap rows, 230 ms): 035's folded counters. A fragment of few
  // local-only addresses ('gmail') reads its domains and those few, as below.
  if (await readsFolds(db, dialect, table, column, fragment)) {
    const folded = await foldedFacts(db, table, column, fragment);
    if (folded.localOnlyAddresses > MAX_LOCAL_ADDRESSES)
      return { total: folded.rows, localAddresses: folded.localOnlyAddresses };
  }
  // SQLite, no domain holds it: its rows, counted in the trigram table.
  const surname = await surnameRows(db, dialect, table, column, fragment);
  if (surname !== undefined && surname > MAX_LOCAL_ADDRESSES)
    return { total: surname, localAddresses: MAX_LOCAL_ADDRESSES + 1 };
  // SQLite, held by many local parts alone (a surname: 'kumar' in ~25,000 addresses, summed through
  // their counters in 17–32 ms): the rows holding it anywhere, counted in the trigram table
  // (`trigramMatchIds`, exact: 42,155 scans in ~10 ms). The few-address case reads as below.
  const ids =
    dialect === 'sqlite' ? trigramMatchIds(table, SEARCH_TABLES[table], column, fragment) : undefined;
  if (ids) {
    const { rows: local } = await sql<{ n: unknown }>`SELECT count(*) AS n FROM (${localOnlyValues(
      dialect,
      table,
      column,
      fragment,
      sql`1`,
    )} LIMIT ${MAX_LOCAL_ADDRESSES + 1}) l`.execute(db);
    if (Number(local[0]?.n) > MAX_LOCAL_ADDRESSES)
      return {
        total: await sumOf(db, sql`SELECT count(*) AS n FROM (${ids}) m`),
        localAddresses: MAX_LOCAL_ADDRESSES + 1,
      };
  }
  const [domains, { rows: locals }] = await Promise.all([
    sumOf(
      db,
      sql`SELECT coalesce(sum(n), 0) AS n FROM list_totals WHERE tbl = ${table} AND col = ${domainColumn(column)} AND ${domainValue(dialect)} ${like(dialect)} ${likePattern(fragment)} ESCAPE '\\'`,
    ),
    localOnlyValues(
      dialect,
      table,
      column,
      fragment,
      sql`coalesce(sum(t.n), 0) AS n, count(*) AS addresses`,
    ).execute(db),
  ]);
  const found = locals[0] as { n?: unknown; addresses?: unknown } | undefined;
  return { total: domains + Number(found?.n ?? 0), localAddresses: Number(found?.addresses ?? 0) };
}

/**
 * The addresses holding `fragment` in their local part alone, if at most MAX_LOCAL_ADDRESSES
 * (their rows are then counted through the column's index); undefined when more.
 */
export async function fewLocalOnlyValues(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  fragment: string,
): Promise<string[] | undefined> {
  // PostgreSQL, no digit in the fragment: 035's address counts per folded address say when there
  // are more at once ('reddy': ~25,000 addresses, where listing 201 of them took 120–150 ms).
  if (
    (await readsFolds(db, dialect, table, column, fragment)) &&
    (await foldedFacts(db, table, column, fragment)).localOnlyAddresses > MAX_LOCAL_ADDRESSES
  )
    return undefined;
  // Addresses holding rows only, as the folded counts count them (an address counter left at 0
  // by deletions has no rows to count either way).
  const { rows } = await sql<{
    val: string;
  }>`SELECT val FROM (${localOnlyValues(dialect, table, column, fragment, sql`t.val, t.n`)}) l WHERE l.n > 0 LIMIT ${MAX_LOCAL_ADDRESSES + 1}`.execute(
    db,
  );
  return rows.length > MAX_LOCAL_ADDRESSES ? undefined : rows.map((r) => r.val);
}

/** Whether more than MAX_LOCAL_ADDRESSES addresses hold `fragment` in their local part alone. */
export async function manyLocalOnly(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  fragment: string,
): Promise<boolean> {
  return (await fewLocalOnlyValues(db, dialect, table, column, fragment)) === undefined;
}

/**
 * The rows whose `column` is one of `vals`, addresses found by LIKE / ILIKE: they include every
 * ASCII case variant of each other, so SQLite's NOCASE index (001's, on both e-mail columns)
 * selects exactly their rows.
 */
export function addressesAre(dialect: Dialect, column: string, vals: readonly string[]) {
  return dialect === 'postgres'
    ? sql`${sql.ref(column)} = ANY(${vals})`
    : sql`${sql.ref(column)} COLLATE NOCASE IN (${sql.join(vals)})`;
}

/**
 * The rows of `table` with `fragment` in `column` per day of its time column `order` (from
 * `fromDay` on, when given): the domains' days (migration 029) plus the local-only addresses'
 * rows, counted through the column's index; when more than MAX_LOCAL_ADDRESSES addresses hold
 * the fragment in their local part alone ('joshi': ~20,000), PostgreSQL's folded months when it
 * reads folds and no `fromDay` is asked for, else undefined.
 */
export async function containingDays(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  order: string,
  fragment: string,
  fromDay?: string,
  newest?: number,
): Promise<Map<string, number> | undefined> {
  const vals = await fewLocalOnlyValues(db, dialect, table, column, fragment);
  if (vals === undefined)
    // PostgreSQL, a surname: its folded addresses' months (a month is no day bound for `fromDay`),
    // the newest holding `newest` rows when only they are needed.
    return fromDay === undefined && (await readsFolds(db, dialect, table, column, fragment))
      ? foldedMonthRows(db, table, column, fragment, newest)
      : undefined;
  const since = (ref: RawBuilder<unknown>) =>
    fromDay === undefined ? sql`` : sql` AND ${ref} >= ${fromDay}`;
  const [domains, locals] = await Promise.all([
    sql<{
      day: string;
      n: unknown;
    }>`SELECT day, sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = ${domainColumn(column)} AND val ${like(dialect)} ${likePattern(fragment)} ESCAPE '\\'${since(sql.ref('day'))} GROUP BY day`.execute(
      db,
    ),
    vals.length === 0
      ? { rows: [] }
      : sql<{
          day: string;
          n: unknown;
        }>`SELECT substr(${sql.ref(order)}, 1, 10) AS day, count(*) AS n FROM ${sql.table(table)}
          WHERE ${addressesAre(dialect, column, vals)}${since(sql.ref(order))}
          GROUP BY substr(${sql.ref(order)}, 1, 10)`.execute(db),
  ]);
  const days = new Map<string, number>();
  for (const r of [...domains.rows, ...locals.rows]) days.set(r.day, (days.get(r.day) ?? 0) + Number(r.n));
  return days;
}

/**
 * The rows of `table` with `fragment` in the e-mail column `pair[tested]` and one of `listed` in
 * the other column, from 017's pair counters (`a` < `b` by name; `email@` sorts where `email`
 * does among the counted columns): the domains' pairs plus the local-only addresses' pairs.
 */
export async function containingPairTotal(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  pair: { a: string; b: string },
  tested: 'a' | 'b',
  listed: readonly string[],
  fragment: string,
): Promise<number> {
  const emailColumn = pair[tested];
  const [testedValue, listedValue] =
    tested === 'a' ? [sql.ref('av'), sql.ref('bv')] : [sql.ref('bv'), sql.ref('av')];
  const [domainA, domainB] = tested === 'a' ? [domainColumn(pair.a), pair.b] : [pair.a, domainColumn(pair.b)];
  const [domains, locals] = await Promise.all([
    sumOf(
      db,
      sql`SELECT coalesce(sum(n), 0) AS n FROM list_pairs WHERE tbl = ${table} AND a = ${domainA} AND b = ${domainB} AND ${listedValue} IN (${sql.join(listed)}) AND ${testedValue} ${like(dialect)} ${likePattern(fragment)} ESCAPE '\\'`,
    ),
    localPairsTotal(),
  ]);
  return domains + locals;

  // The local-only addresses' pairs. A few of them (MAX_LOCAL_ADDRESSES) are looked up by name:
  // joined instead, PostgreSQL read every pair of the listed value (Toyota: 48,723) and probed
  // the address counters for each, to find none ('gmail' with Toyota: 190–280 ms, now ~2 ms).
  // A fragment no domain holds (a surname, on PostgreSQL) has thousands: joined at once, without
  // first asking the folded counters how many (+20 ms for 'kumar' with Hyundai).
  async function localPairsTotal(): Promise<number> {
    const surname = await readsFolds(db, dialect, table, emailColumn, fragment);
    const vals = surname ? undefined : await fewLocalOnlyValues(db, dialect, table, emailColumn, fragment);
    if (vals?.length === 0) return 0;
    if (vals !== undefined)
      return sumOf(
        db,
        sql`SELECT coalesce(sum(n), 0) AS n FROM list_pairs WHERE tbl = ${table} AND a = ${pair.a} AND b = ${pair.b} AND ${testedValue} IN (${sql.join(vals)}) AND ${listedValue} IN (${sql.join(listed)})`,
      );
    return sumOf(
      db,
      sql`SELECT coalesce(sum(p.n), 0) AS n FROM (${localOnlyValues(dialect, table, emailColumn, fragment, sql`t.val`)}) h
        JOIN list_pairs p ON p.tbl = ${table} AND p.a = ${pair.a} AND p.b = ${pair.b} AND p.${sql.raw(tested === 'a' ? 'av' : 'bv')} = h.val
        WHERE p.${sql.raw(tested === 'a' ? 'bv' : 'av')} IN (${sql.join(listed)})`,
    );
  }
}

/**
 * The rows of `table` with `fragment` in `column` ending in a month before `month` ('YYYY-MM'),
 * from 021's end months (`list_end_days`, e-mails per end month): the domains' months plus the
 * local-only addresses' months (028).
 */
export async function containingEndedBefore(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  fragment: string,
  month: string,
): Promise<number> {
  // PostgreSQL, no digit: 035's folded end months, not the local-only addresses' (25,000 for
  // 'kumar': 300 ms).
  if (foldable(dialect, column, fragment)) return foldedEndedBefore(db, table, column, fragment, month);
  const [domains, locals] = await Promise.all([
    sumOf(
      db,
      sql`SELECT coalesce(sum(n), 0) AS n FROM list_end_days WHERE tbl = ${table} AND col = ${domainColumn(column)} AND val ${like(dialect)} ${likePattern(fragment)} ESCAPE '\\' AND day < ${month}`,
    ),
    sumOf(
      db,
      sql`SELECT coalesce(sum(e.n), 0) AS n FROM (${localOnlyValues(dialect, table, column, fragment, sql`t.val`)}) h
        JOIN list_end_days e ON e.tbl = ${table} AND e.col = ${column} AND e.val = h.val AND e.day < ${month}`,
    ),
  ]);
  return domains + locals;
}

/**
 * The rows of `table` with `fragment` in `column` ending on a day before `day` ('YYYY-MM-DD'):
 * its domains' end days (migration 031) plus its local-only addresses' rows, counted through the
 * column's index. Undefined when more than MAX_LOCAL_ADDRESSES addresses hold the fragment in their
 * local part alone (then `containingEndedBefore` counts by month).
 */
export async function containingEndedBeforeDay(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  column: string,
  end: string,
  fragment: string,
  day: string,
): Promise<number | undefined> {
  const vals = await fewLocalOnlyValues(db, dialect, table, column, fragment);
  if (vals === undefined) return undefined;
  const [domains, locals] = await Promise.all([
    sumOf(
      db,
      sql`SELECT coalesce(sum(n), 0) AS n FROM list_end_days WHERE tbl = ${table} AND col = ${`${column}@day`} AND val ${like(dialect)} ${likePattern(fragment)} ESCAPE '\\' AND day < ${day}`,
    ),
    vals.length === 0
      ? 0
      : sumOf(
          db,
          sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${addressesAre(dialect, column, vals)} AND ${sql.ref(end)} < ${day}`,
        ),
  ]);
  return domains + locals;
}
