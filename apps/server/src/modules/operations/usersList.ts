import type { UserQuery } from '@obd/contract';
import { expressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, isSet, trigramMatchIds, usesTrigramIndex, whereFilters } from '../../lib/filters.ts';
import type { Page } from '../../lib/list.ts';
import { orderBySort, type ResolvedSort, resolveSort, type SortShape } from '../../lib/sort.ts';
import { likePattern, withPlanPricedOut } from '../../lib/sql.ts';
import { rows, WALK_SHARE } from './countPlan.ts';
import { foldedAroundBound } from './emailFolds.ts';
import { users } from './lists.ts';
import { byMaterialisedValue, fragmentSortedIds, onSortedFacet } from './usersSortedList.ts';

/**
 * The Users Table at a million app users (issue 12 item 1). Its filters are few — an e-mail
 * fragment, a plan, a status, a creation range — and were answered by a COUNT and an OFFSET over
 * the rows: 0.1–0.15 s for one filter, 0.4–7 s for two (SQLite, measured in session 14). Now:
 * - the total: no filter, a plan or a status alone, or one creation bound alone or with a plan or
 *   status, from 020's and 034's counters (`user_counts`; a bound's own day from an index);
 *   anything else one count over one index range (032's indexes on the case-folded plan and
 *   status, with each other and with the creation time; 020's trigram index for the e-mail);
 * - the page: its 30 ids, then their rows. Frequent matches (2 % of the users or more) are met
 *   soon walking the ids newest first, so on SQLite the filters are tested on each row walked
 *   (`whereFilters(…, offIndexes)`): SQLite otherwise read every match through an index and
 *   sorted them all — with the subscription look-up of each — for 30 (`plan=premium`: 440 ms).
 *   Rare matches are read through the index and their ids sorted.
 * - SQLite, an e-mail fragment of ASCII characters: the ids of its users from 020's trigram table
 *   (newest first, as FTS5 gives them), the other filters tested in 033's narrow index by id, both
 *   the total and the page (`emailMatches`): no user's row read ('sharma': 167 → ~15 ms; with a
 *   status 277 → ~60 ms).
 * - PostgreSQL, an e-mail fragment without a digit alone or with one other filter: the total from
 *   036's counters per folded address (`foldedEmailTotal`), the page walked in 036's index of the
 *   ids with the address when that costs less than sorting the trigram candidates (`walksFragment`).
 * - PostgreSQL, an e-mail fragment with a digit alone: its trigram candidates sorted once give the
 *   page and the total (`digitFragmentPage`).
 * An explicit sort (decisions §9) takes the same total and its own page (`usersSortedList.ts` under
 * an e-mail fragment; else the filtered ids in that order, then their rows).
 */

type Filters = Omit<UserQuery, 'page' | 'limit'>;
const fromUsers = (db: Kysely<Database>) => db.selectFrom('app_users as u');
export type UsersFrom = ReturnType<typeof fromUsers>;
/** The database as the aliased query sees it (`u` is the app users). */
export type UsersDb = UsersFrom extends SelectQueryBuilder<infer D, infer _T, object> ? D : never;

export async function usersPage<R>(
  db: Kysely<Database>,
  dialect: Dialect,
  query: UserQuery,
  select: (q: UsersFrom) => SelectQueryBuilder<UsersDb, 'u', R>,
): Promise<Page<R>> {
  const filtered = (offIndexes = false) =>
    fromUsers(db).where((eb) => whereFilters(eb, dialect, users.rules, query, offIndexes));
  const matches = emailMatches(dialect, query);
  // SQLite, a fragment's users counted from 020's trigram table without a row read
  // (`emailMatches`: 'sharma' 7 ms, where a count of the rows holding it took 68).
  const matchesTotal = async (ids: RawBuilder<unknown>) =>
    Number((await rows<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM (${ids}) m`))[0]?.n ?? 0);
  // The same total in any order: another order needs only its own page.
  const totalOf = async () =>
    activeRules(users.rules, query).length === 0
      ? await allUsers(db)
      : matches
        ? await matchesTotal(matches.ids)
        : ((dialect === 'postgres' ? await foldedEmailTotal(db, query) : undefined) ??
          (await usersTotal(db, query, filtered)));
  const offset = (query.page - 1) * query.limit;
  const sort = resolveSort(users.sort as SortShape<string>, query);
  if (sort) {
    const page =
      dialect === 'postgres' ? await digitFragmentPage(db, query, filtered, offset, sort) : undefined;
    if (page)
      return {
        rows:
          page.ids.length === 0 ? [] : await select(fromUsers(db).where('u.id', 'in', page.ids)).execute(),
        total: page.total,
      };
    const [total, all] = await Promise.all([totalOf(), allUsers(db)]);
    if (offset >= total) return { rows: [], total };
    // Frequent matches are met soon walking the sorted column's index: on SQLite the filters are
    // then tested on each row walked (`offIndexes`), where it read every match through a filter's
    // index and sorted them all (status=active by country, page 100: 1.27 s at a million users).
    const walks = dialect === 'sqlite' && total >= WALK_SHARE * all;
    const sorted = async () => (await onSortedFacet(db, query, sort.column, filtered(walks))).select('u.id');
    // The page's ids first, then their rows: PostgreSQL built each skipped row whole, its
    // subscription looked up, before the offset dropped it (premium by phone, page 100: 2,000).
    const ids =
      (await fragmentSortedIds(db, dialect, query, sort, { total, all }, matches)) ??
      orderBySort(await sorted(), dialect, users.sort, query)
        .limit(query.limit)
        .offset(offset);
    return { rows: await select(fromUsers(db).where('u.id', 'in', ids)).execute(), total };
  }
  if (matches) {
    // With other filters, one pass over the candidates gives the page and the total (each is
    // tested once: `sharma` with a plan, page 100, 120 → 63 ms); alone, the phrase counts its
    // matches without visiting them (6 ms) and the page stops at its rows.
    const paged = sql`(${matches.ids} ORDER BY id DESC)`;
    const found = matches.tested
      ? await rows<{ id: number; n: unknown }>(
          db,
          sql`SELECT id, count(*) OVER () AS n FROM ${paged} m LIMIT ${query.limit} OFFSET ${offset}`,
        )
      : [];
    const total = found.length > 0 ? Number(found[0]?.n ?? 0) : await matchesTotal(matches.ids);
    if (offset >= total) return { rows: [], total };
    const ids = matches.tested
      ? found.map((r) => r.id)
      : sql<number>`(${matches.ids} ORDER BY id DESC LIMIT ${query.limit} OFFSET ${offset})`;
    return { rows: await select(fromUsers(db).where(sql.ref('u.id'), 'in', ids)).execute(), total };
  }
  if (dialect === 'postgres') {
    const page = await digitFragmentPage(db, query, filtered, offset);
    if (page)
      return {
        rows:
          page.ids.length === 0 ? [] : await select(fromUsers(db).where('u.id', 'in', page.ids)).execute(),
        total: page.total,
      };
  }
  const all = await allUsers(db);
  const total = await totalOf();
  if (offset >= total || total === 0) return { rows: [], total };
  const walk =
    total >= WALK_SHARE * all ||
    (dialect === 'postgres' && (await walksFragment(db, query, total, all, offset)));
  // Rare matches on PostgreSQL: an order it cannot take from the primary key makes it find them
  // through the filters' indexes and sort them; it walked the key instead, testing 600,000 rows
  // for page 100 of 4,270 (`email=sharma&plan=premium`: 0.72 s).
  const order = walk || dialect !== 'postgres' ? sql.ref('u.id') : sql`u.id + 0`;
  // A page in the older half is read from the oldest end, so the offset skipped is total − offset
  // rather than offset (page 10,000 of the 330,000 users created since 2025 steps over 130,000
  // entries, not 200,000); `select` restores the newest-first order.
  const end = Math.min(offset + query.limit, total);
  const fromOldest = offset > total / 2;
  const skipped = fromOldest ? total - end : offset;
  const block =
    skipped >= ID_BLOCK ? await pageBlock(db, dialect, query, skipped, total, fromOldest) : undefined;
  const ids = filtered(walk)
    .select('u.id')
    .$if(block !== undefined, (q) => q.where('u.id', fromOldest ? '>=' : '<', block?.edge ?? 0))
    .orderBy(order, fromOldest ? 'asc' : 'desc')
    .limit(fromOldest ? end - offset : query.limit)
    .offset(block?.skip ?? skipped);
  const page = (trx: Kysely<Database>) => select(fromUsers(trx).where('u.id', 'in', ids)).execute();
  // Sorted, PostgreSQL ANDs the filters' bitmaps: at three million users 'sharma' (126,779) with
  // premium (299,757) outgrew 4 MB and turned lossy, 864,203 rows tested again (535–840 ms for
  // page 100); exact, 73 ms.
  return { rows: walk ? await page(db) : await withPlanPricedOut(db, dialect, 'work_mem', page), total };
}

/** Ids per block of 040's counters per block of ids (`col = '<facet>#ids'`; frozen there). */
export const ID_BLOCK = 1024;

/** 040's key of the block holding the id `id` (its number, 12 digits: text order is number order). */
export const idBlockKey = (dialect: Dialect, id: RawBuilder<unknown>) =>
  dialect === 'postgres'
    ? sql`lpad((${id} / ${sql.lit(ID_BLOCK)})::text, 12, '0')`
    : sql`printf('%012d', ${id} / ${sql.lit(ID_BLOCK)})`;

/** A creation time's month as 040 counts it ('YYYY-MM'), if the bound has one. */
const MONTH = /^\d{4}-\d{2}-/;

/**
 * A creation bound's page starts from its block when it lies past this share of its matches (from
 * the nearer end): walking then steps over that share of all users (100,000 at a million), where
 * the block costs reading the bound's months' counters (~1,000 a month at a million users, ~5 ms
 * for 22 months on PostgreSQL) and up to half a month of users — both growing with the users too.
 */
const BOUND_BLOCK_SHARE = 0.1;

/**
 * One plan, one status or one creation bound alone, `skipped` of its `total` matches stepped over
 * in id order (newest first, or oldest first for a page in the older half): the edge of the block
 * of ids holding the next match, from 040's counters per block, and how many matches to step over
 * from that edge (fewer than ID_BLOCK). `status=active&page=10000` on PostgreSQL walked ~300,000
 * rows of the primary key (94–119 ms), a creation bound's page 10,000 ~400,000 entries (31–40 ms).
 * Undefined for other filters, or if the counters do not reach `skipped`.
 */
async function pageBlock(
  db: Kysely<Database>,
  dialect: Dialect,
  query: UserQuery,
  skipped: number,
  total: number,
  fromOldest: boolean,
): Promise<{ edge: number; skip: number } | undefined> {
  const blocks = matchesPerBlock(query, skipped / total);
  if (!blocks) return undefined;
  const direction = sql.raw(fromOldest ? 'ASC' : 'DESC');
  // PostgreSQL read the months' counters by a parallel scan of all of 040's counters at three
  // million users (a creation bound since January 2025: 35,160 of 667,000 rows, estimated at
  // 96,670; 110–260 ms), where their key's range takes 5–14 ms: the scan is priced out.
  const [found] = await withPlanPricedOut(
    db,
    dialect,
    ['enable_seqscan', 'max_parallel_workers_per_gather'],
    (trx) =>
      rows<{ block: unknown; before: unknown }>(
        trx,
        sql`SELECT block, through - n AS before FROM (
        SELECT block, n, sum(n) OVER (ORDER BY block ${direction}) AS through
        FROM (SELECT block, sum(n) AS n FROM (${blocks}) p GROUP BY block) b) w
      WHERE through > ${skipped} ORDER BY block ${direction} LIMIT 1`,
      ),
  );
  if (!found) return undefined;
  const number = Number(found.block);
  return {
    edge: (fromOldest ? number : number + 1) * ID_BLOCK,
    skip: skipped - Number(found.before),
  };
}

/**
 * The one filter's matches per block of ids (`block` its number, `n`; a block may come more than
 * once), as SQL. A creation bound: its months beyond its own from the counters, and its own month
 * from the users on the bound's nearer side of it — those past the bound added, or the whole
 * month's counters with those before the bound taken off (none when the bound is the month's
 * edge: `created_from=2025-01-01`).
 */
function matchesPerBlock(query: UserQuery, skippedShare: number): RawBuilder<unknown> | undefined {
  const params = activeRules(users.rules, query).map(([param]) => param);
  const [param] = params;
  if (params.length !== 1) return undefined;
  const block = sql`CAST(day AS integer)`;
  if (param === 'plan' || param === 'status')
    return sql`SELECT ${block} AS block, n FROM user_counts WHERE col = ${`${param}#ids`} AND val = ${String(query[param]).toLowerCase()}`;
  if (param !== 'created_from' && param !== 'created_to') return undefined;
  const bound = String(query[param]);
  if (!MONTH.test(bound) || skippedShare < BOUND_BLOCK_SHARE) return undefined;
  const month = bound.slice(0, 7);
  const after = param === 'created_from';
  // The month's counters whole less its users the bound leaves out, when the bound keeps more than
  // half of its month; else the month's users it keeps. Every creation time of the month starts
  // with it, so sorts from it up to it followed by '~' (as `usersTotal` reads a bound's day).
  const whole = Number(bound.slice(8, 10)) <= 15 === after;
  const months = sql.raw(after ? (whole ? '>=' : '>') : whole ? '<=' : '<');
  const [sign, own] = whole
    ? [
        '-',
        after
          ? sql`created_at >= ${month} AND created_at < ${bound}`
          : sql`created_at > ${bound} AND created_at < ${`${month}~`}`,
      ]
    : [
        '',
        after
          ? sql`created_at >= ${bound} AND created_at < ${`${month}~`}`
          : sql`created_at >= ${month} AND created_at <= ${bound}`,
      ];
  return sql`SELECT ${block} AS block, n FROM user_counts WHERE col = 'created#ids' AND val ${months} ${month}
    UNION ALL SELECT id / ${sql.lit(ID_BLOCK)} AS block, ${sql.raw(sign)}count(*) AS n FROM app_users WHERE ${own} GROUP BY 1`;
}

/**
 * SQLite, an e-mail fragment of printable ASCII that 020's trigram table answers (three or more
 * characters, no wildcard): the ids of the users matching every filter, as a statement, without a
 * table row read (migration 033): the fragment's from the trigram table (`trigramMatchIds`, exact
 * there), the other filters tested in 033's index by id, named because SQLite would rather seek
 * each candidate's (wide) row: 140 against 50 ms for 42,000 candidates. Undefined otherwise (the
 * rows' own filters then).
 */
function emailMatches(dialect: Dialect, query: UserQuery) {
  const fragment = query.email;
  if (dialect !== 'sqlite' || !isSet(fragment)) return undefined;
  const found = trigramMatchIds('app_users', 'app_users_search', 'email', String(fragment));
  if (!found) return undefined;
  const { email: _, ...others } = users.rules;
  const tested = activeRules(others, query).length > 0;
  const ids = tested
    ? sql`SELECT m.id AS id FROM (${found}) m CROSS JOIN app_users u INDEXED BY app_users_id_filters ON u.id = m.id WHERE ${whereFilters(expressionBuilder<UsersDb, 'u'>(), dialect, others, query)}`
    : found;
  return { ids, tested };
}

/** Every app user: 020's counters per creation day, summed (no count over the table: 35 ms). */
async function allUsers(db: Kysely<Database>): Promise<number> {
  const [found] = await rows<{ n: unknown }>(
    db,
    sql`SELECT coalesce(sum(n), 0) AS n FROM user_counts WHERE col = 'created' AND val = ''`,
  );
  return Number(found?.n ?? 0);
}

/** Walking the ids costs about this many times less a user than sorting a trigram candidate. */
const WALK_OVER_SORT = 3;

/**
 * PostgreSQL, an e-mail fragment with a digit alone ('sharma1': 7,446 of a million users), which
 * no folded counter totals: its trigram candidates, read once into a materialised set, give both
 * the total and the page, where counting them and then sorting them for the page read each twice
 * (35 → 19–21 ms at pages 1, 100 and past the end). A frequent one too: its count read every candidate
 * anyway, and sorting their ids costs about what walking to the page did ('1@g', 35,847 users:
 * 245–255 ms either way; bounding the sort to WALK_SHARE of the users and counting past it read
 * them twice, 500). Sorted by a column (`sort`), the same with that column's value. Undefined for
 * any other query.
 */
async function digitFragmentPage(
  db: Kysely<Database>,
  query: UserQuery,
  filtered: () => UsersFrom,
  offset: number,
  sort?: ResolvedSort,
): Promise<{ ids: number[]; total: number } | undefined> {
  const fragment = String(query.email ?? '');
  const alone = activeRules(users.rules, query).length === 1;
  if (!alone || !isSet(query.email) || !/[0-9]/.test(fragment) || !usesTrigramIndex(fragment))
    return undefined;
  // Sorted, not a fragment reaching into the domains ('1@g', 35,847 users): sorting them all cost
  // more than walking the sorted column's index to the page (231 → 329 ms by country).
  if (sort && fragment.includes('@')) return undefined;
  // `u.id + 0`: the candidates through the trigram index, not the primary key walked. (The set is
  // sorted again for the page; for a few thousand ids that second sort costs well under a ms.)
  // Sorted by a column, each candidate carries its value ('sharma1' by country, page 1: 33 → 19
  // ms; by creation, page 100: 34 → 23), where the count and the sorted page each read them.
  const candidates = sort
    ? filtered().select(['u.id', sql.ref(sort.column).as('sort_value')])
    : filtered().select('u.id').orderBy(sql`u.id + 0`, 'desc');
  const order = sort ? byMaterialisedValue(sort) : sql`id DESC`;
  // Materialised once: its number, and the page's ids (none past the matches).
  const [found] = await withPlanPricedOut(db, 'postgres', 'work_mem', (trx) =>
    rows<{ n: unknown; ids: unknown[] }>(
      trx,
      sql`WITH c AS MATERIALIZED (${candidates})
        SELECT (SELECT count(*) FROM c) AS n,
          (SELECT coalesce(array_agg(id), '{}') FROM (SELECT id FROM c ORDER BY ${order} LIMIT ${query.limit} OFFSET ${offset}) p) AS ids`,
    ),
  );
  return { ids: (found?.ids ?? []).map(Number), total: Number(found?.n ?? 0) };
}

/**
 * PostgreSQL, an e-mail fragment without a digit and rarer than WALK_SHARE: whether walking the
 * ids newest first (036's index by id holds the address, tested there) costs less than sorting the
 * fragment's candidates, each read from the heap ('sharma' since a date, page 100: 14,162 matches;
 * ~70,000 addresses tested walking, 84 ms, against 42,430 rows read, 200 ms). The walk tests about
 * (offset + page) × users / the fragment's users addresses beside a creation bound (the ids rise
 * with the creation time: the bound's users lie together, newest first); beside a plan or a
 * status, which the ids do not follow, (offset + page) × users / the pair's users — every one
 * tested on both ('sharma' with premium, page 100: 4,270 matches, ~470,000 rows walked, 150–216
 * ms, against 30 sorted).
 */
async function walksFragment(
  db: Kysely<Database>,
  query: UserQuery,
  total: number,
  all: number,
  offset: number,
): Promise<boolean> {
  const fragment = String(query.email ?? '');
  if (!isSet(query.email) || /[0-9]/.test(fragment) || total === 0) return false;
  const alone = activeRules(users.rules, query).length === 1;
  const ofFragment = alone ? total : await foldedEmailTotal(db, { email: fragment } as Filters);
  if (!ofFragment) return false;
  const bounded = isSet(query.created_from) || isSet(query.created_to);
  return ((offset + query.limit) * all) / (bounded ? ofFragment : total) <= WALK_OVER_SORT * ofFragment;
}

/**
 * PostgreSQL, an e-mail fragment without a digit alone or with one plan, status or creation
 * bound: from 036's counters per folded address (the same ILIKE on the folded addresses as on
 * the users' own), a bound's own month counted in the users from its nearer end. Undefined
 * otherwise. 'sharma' with `status=active`: 140 ms of pg_trgm re-checks on the heap before.
 */
async function foldedEmailTotal(db: Kysely<Database>, query: Filters): Promise<number | undefined> {
  const params = activeRules(users.rules, query).map(([param]) => param);
  const fragment = String(query.email ?? '');
  const others = params.filter((p) => p !== 'email');
  if (!params.includes('email') || /[0-9]/.test(fragment) || others.length > 1) return undefined;
  // The folded addresses holding the fragment (`email#`, ~22,000 rows at a million users), then
  // their rows of `col` (scanning `email#month`'s 290,000 rows with the ILIKE instead: 70 ms).
  const summed = async (col: string, day: RawBuilder<unknown>) => {
    const [found] = await rows<{ n: unknown }>(
      db,
      sql`SELECT coalesce(sum(c.n), 0) AS n FROM user_counts f
        JOIN user_counts c ON c.col = ${col} AND c.val = f.val AND ${day}
        WHERE f.col = 'email#' AND f.day = '' AND f.val ILIKE ${likePattern(fragment)} ESCAPE '\\'`,
    );
    return Number(found?.n ?? 0);
  };
  const [other] = others;
  if (other === undefined) return summed('email#', sql`c.day = ''`);
  if (other === 'status' || other === 'plan')
    return summed(`email#${other}`, sql`c.day = ${String(query[other]).toLowerCase()}`);
  const bound = String(query[other as 'created_from' | 'created_to']);
  return foldedAroundBound(
    other === 'created_from' ? { from: bound } : { to: bound },
    sql.ref('created_at'),
    (op, month) => summed('email#month', sql`c.day ${sql.raw(op)} ${month}`),
    async (range) => {
      // The bound's side of its month, a range of the creation index that carries the address
      // (046), each address tested there: `|| ''` keeps the fragment off its trigram index, whose
      // bitmap PostgreSQL ANDed with the range, reading ~10,700 heap pages at three million users
      // ('sharma' up to 15 June 2024: 100–120 ms, against 18).
      const [found] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM app_users WHERE ${range} AND (email || '') ILIKE ${likePattern(fragment)} ESCAPE '\\'`,
      );
      return Number(found?.n ?? 0);
    },
  );
}

/**
 * The exact total: a plan or a status alone from 020's counters per value; a creation bound
 * alone, or with a plan or a status, from the whole days beyond its own (020's counters per
 * creation day; 034's per folded plan or status and day) and the users of its own day counted in
 * an index (the creation index; 032's with the plan or status); else a count of the filtered rows.
 */
async function usersTotal(db: Kysely<Database>, query: Filters, filtered: () => UsersFrom): Promise<number> {
  const params = activeRules(users.rules, query).map(([param]) => param);
  const boundParam = params.find((p) => p === 'created_from' || p === 'created_to');
  const others = params.filter((p) => p !== boundParam);
  const facet =
    others.length === 1 && (others[0] === 'plan' || others[0] === 'status') ? others[0] : undefined;
  if (facet && !boundParam) {
    // A plan or a status alone: 020's counters per value, folded (a handful of rows, where the
    // index range of 'active' holds 690,000 entries: 30 ms).
    const [found] = await rows<{ n: unknown }>(
      db,
      sql`SELECT coalesce(sum(n), 0) AS n FROM user_counts WHERE col = ${facet} AND day = '' AND lower(val) = ${String(query[facet]).toLowerCase()}`,
    );
    return Number(found?.n ?? 0);
  }
  if (boundParam && (others.length === 0 || facet)) {
    const bound = String(query[boundParam as 'created_from' | 'created_to']);
    const day = bound.slice(0, 10);
    const after = boundParam === 'created_from';
    const value = facet ? String(query[facet]).toLowerCase() : '';
    const [col, ofValue] = facet
      ? [`${facet}@day`, sql` AND lower(${sql.ref(facet)}) = ${value}`]
      : ['created', sql``];
    const [[days], [edge]] = await Promise.all([
      rows<{ n: unknown }>(
        db,
        sql`SELECT coalesce(sum(n), 0) AS n FROM user_counts WHERE col = ${col} AND val = ${value} AND day ${sql.raw(after ? '>' : '<')} ${day}`,
      ),
      // The bound's own day: every creation time on it starts with the day, and sorts below the
      // day followed by any later character ('~' sorts after the digits, 'T' and 'Z').
      rows<{ n: unknown }>(
        db,
        after
          ? sql`SELECT count(*) AS n FROM app_users WHERE created_at >= ${bound} AND created_at < ${`${day}~`}${ofValue}`
          : sql`SELECT count(*) AS n FROM app_users WHERE created_at >= ${day} AND created_at <= ${bound}${ofValue}`,
      ),
    ]);
    return Number(days?.n ?? 0) + Number(edge?.n ?? 0);
  }
  const counted = await filtered()
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(counted.n);
}
