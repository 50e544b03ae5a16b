import type { UserQuery } from '@obd/contract';
import { type Expression, expressionBuilder, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, isSet, usesTrigramIndex, whereFilters } from '../../lib/filters.ts';
import { type ResolvedSort, sortModifiers } from '../../lib/sort.ts';
import { likePattern } from '../../lib/sql.ts';
import { rows, WALK_SHARE } from './countPlan.ts';
import { users } from './lists.ts';
import { type InOrder, walkInOrder } from './sortedList.ts';
import type { UsersDb, UsersFrom } from './usersList.ts';

/** A walk looking up each user's row should read at most this many of them (~1.7 µs each)… */
const ROW_WALK_ENTRIES = 5_000;
/** …WALK_MARGIN times the entries it expects to read before its page. */
const WALK_MARGIN = 3;
/**
 * SQLite, index entries a walk against the ids may read per match before the matches are sorted
 * instead: an entry costs ~0.13 µs, a sorted match ~1.5 µs (its row looked up), so a walk that
 * runs out costs under half the sort it then falls back to. Country descending, page 100, reads
 * ~180,000 entries for 'sharma''s 42,430 matches.
 */
const ID_WALK_PER_MATCH = 5;
/** Matches past this are frequent enough to be met soon by the plain walk; their ids cost more. */
const ID_WALK_MATCHES = 200_000;
/**
 * PostgreSQL, matches past this are not sorted from 047's index (~0.5 µs each): a tenth of the
 * users or more are met within ~20,000 entries of any sort index for page 100.
 */
const FOLDED_SORT_MATCHES = 100_000;

/** The column's name without the list's alias (`u.phone` → `phone`). */
const bare = (column: string) => column.replace(/^u\./, '');

/**
 * The Users Table sorted by a column (decisions §9) under an e-mail fragment: the page's ids, or
 * undefined where the plain sorted query does well (no fragment, a fragment sorted by the address
 * itself, whose index holds what it tests; a fragment most users hold, met at once walking).
 *
 * 'sharma' (42,430 of a million users) sorted by another column was read by walking that column's
 * index and looking each user up to test the address (SQLite) — right when the matches come soon,
 * but the column may follow the name: sorted by country descending the first 'sharma' is 149,765
 * users in, by phone descending page 100 took 226 ms — or by sorting every match (PostgreSQL, a
 * heap page each: 75–230 ms for page 100). Now, as the activity lists do (`sortedList.ts`),
 * bounded walks first and the sort only if they ran out:
 * - a walk testing each user's row, when the page should be met within a few thousand users;
 * - SQLite: a walk of the sorted column's index alone, each id tested against the fragment's ids
 *   from 020's trigram table (`emailMatches`, listed once): ~0.13 µs an entry against ~1.7 µs a
 *   row looked up ('sharma' by phone descending, page 100: 226 → ~20 ms);
 * - the matches sorted, from the same ids;
 * - PostgreSQL, a fragment without a digit: the matches read from 047's index by folded address
 *   alone (it carries every sortable column) and sorted, ~25 ms for 'sharma' at any page;
 * - PostgreSQL, a fragment with a digit held by under WALK_SHARE of the users: its trigram
 *   candidates read and sorted ('sharma1', 7,446 users: ~15 ms).
 */
export async function fragmentSortedIds(
  db: Kysely<Database>,
  dialect: Dialect,
  query: UserQuery,
  sort: ResolvedSort,
  counts: { total: number; all: number },
  matches: { ids: RawBuilder<unknown> } | undefined,
): Promise<number[] | RawBuilder<number> | undefined> {
  const { total, all } = counts;
  const offset = (query.page - 1) * query.limit;
  const within = Math.min(query.limit, total - offset);
  if (within <= 0) return undefined;
  const folded =
    dialect === 'postgres' && total <= FOLDED_SORT_MATCHES ? await foldedAddresses(db, query) : undefined;
  const trigrams = !folded && dialect === 'postgres' && rareTrigramFragment(query, total, all);
  // SQLite sorted by the address: its own index holds what a walk of it tests ('sharma': ~2 ms).
  if (
    !folded &&
    !trigrams &&
    (!matches || sort.column === users.rules.email.column || total > ID_WALK_MATCHES)
  )
    return undefined;
  // Entries a walk reads before its page's end, if the matches are spread through the order.
  const expected = ((offset + within) * all) / total;
  const ordered: InOrder = (q) =>
    q.orderBy(sql.ref(sort.column), sortModifiers(dialect, sort)).orderBy(sql.ref('u.id'), sort.order);
  const source = { table: 'app_users', alias: 'u', key: 'u.id' };
  const page = { limit: query.limit, offset, within };
  const direction = sql.raw(sort.order);
  let ids: number[] | undefined;
  if (WALK_MARGIN * expected <= ROW_WALK_ENTRIES) {
    const columns = new Set(['id', bare(sort.column)]);
    for (const [, rule] of activeRules(users.rules, query)) columns.add(bare(rule.column));
    ids = await walkInOrder(
      db,
      source,
      columns,
      ordered,
      (eb: never) => whereFilters(eb, dialect, users.rules, query, true),
      WALK_MARGIN * expected,
      page,
    );
  }
  if (ids) return ids;
  // The matches materialised with the sorted column, then sorted: no sort index can tempt the
  // planner into walking it for a few thousand matches.
  const sortedMatches = (where: RawBuilder<unknown> | Expression<SqlBool>) =>
    sql<number>`(WITH m AS MATERIALIZED (SELECT u.id, ${sql.ref(sort.column)} AS sort_value FROM app_users u WHERE ${where})
      SELECT id FROM m ORDER BY ${byMaterialisedValue(sort)} LIMIT ${query.limit} OFFSET ${offset})`;
  const eb = expressionBuilder<UsersDb, 'u'>();
  if (folded) {
    // The matches from 047's index alone — one range per folded address, each entry carrying the
    // sorted column and every other filter's — then sorted: 'sharma' by phone descending, page
    // 100, ~25 ms (the walk: 228).
    const { email: _, ...others } = users.rules;
    const tested = activeRules(others, query).length > 0;
    return sortedMatches(
      sql`${FOLDED_EMAIL} = ANY(${folded})${tested ? sql` AND ${whereFilters(eb, dialect, others, query)}` : sql``}`,
    );
  }
  // PostgreSQL, a fragment no folded address holds (one with a digit: 'sharma1', 7,446 users),
  // rarer than WALK_SHARE: its trigram candidates, each read from the heap, sorted. PostgreSQL's
  // own plan walked the sorted column's index testing each user (by country descending, page 1,
  // 186 ms; by creation, page 100, 147), where the candidates sort in ~20 ms.
  if (trigrams) return sortedMatches(whereFilters(eb, dialect, users.rules, query));
  if (!matches) return undefined;
  // Sorted by the id: the trigram table gives the ids in that order ('sharma' by id ascending,
  // page 100: 50 ms walking the table's b-tree against them, 10 as they come).
  if (sort.column === users.sort.key)
    return sql<number>`(${matches.ids} ORDER BY id ${direction} LIMIT ${query.limit} OFFSET ${offset})`;
  ids = await walkInOrder(
    db,
    source,
    ['id', bare(sort.column)],
    ordered,
    () => sql`${sql.ref('u.id')} IN (${matches.ids})`,
    Math.max(WALK_MARGIN * expected, ID_WALK_PER_MATCH * total),
    page,
  );
  if (ids) return ids;
  // The matches sorted: `+` keeps the order off the sorted column's index, which SQLite would
  // otherwise walk testing each id (the walk above, unbounded).
  return sql<number>`(SELECT u.id FROM app_users u WHERE u.id IN (${matches.ids})
    ORDER BY +${sql.ref(sort.column)} ${direction}, u.id ${direction} LIMIT ${query.limit} OFFSET ${offset})`;
}

/**
 * PostgreSQL: the order of matches materialised as (id, sort_value), the sorted column's value
 * as the list sorts it (its nulls where `sortModifiers` puts them), then the id.
 */
export function byMaterialisedValue(sort: ResolvedSort): RawBuilder<unknown> {
  const direction = sql.raw(sort.order);
  const nulls = sort.nullable ? sql.raw(sort.order === 'asc' ? ' NULLS FIRST' : ' NULLS LAST') : sql``;
  return sql`sort_value ${direction}${nulls}, id ${direction}`;
}

/** An e-mail fragment its trigram index finds, held by fewer than WALK_SHARE of the users. */
function rareTrigramFragment(query: UserQuery, total: number, all: number): boolean {
  return isSet(query.email) && usesTrigramIndex(String(query.email)) && total < WALK_SHARE * all;
}

/** 036's fold of an address, written as 047's index is (so that the planner matches it). */
const FOLDED_EMAIL = sql`regexp_replace(u.email, '[0-9]+', '0', 'g')`;

/** Folded addresses a request binds as one array (~150 KB of text), as `emailFolds.ts` does. */
const MAX_FOLDED_VALUES = 5_000;

/**
 * PostgreSQL: the folded addresses holding the query's e-mail fragment (036's counters, through
 * 039's trigram index: 'sharma', 821 in ~3 ms), or undefined — no fragment, a fragment with a
 * digit (whose folded form differs), or more folded addresses than are worth binding.
 */
async function foldedAddresses(db: Kysely<Database>, query: UserQuery): Promise<string[] | undefined> {
  const fragment = String(query.email ?? '');
  if (!isSet(query.email) || /[0-9]/.test(fragment)) return undefined;
  const found = await rows<{ val: string }>(
    db,
    sql`SELECT val FROM user_counts WHERE col = 'email#' AND day = '' AND n > 0
      AND val ILIKE ${likePattern(fragment)} ESCAPE '\\' LIMIT ${MAX_FOLDED_VALUES + 1}`,
  );
  return found.length > MAX_FOLDED_VALUES ? undefined : found.map((r) => r.val);
}

/**
 * Sorted by the plan or the status while filtered by it: its users are one range of that column's
 * sort index (015's (column, id)) when a single spelling holds the folded value (020's counters per
 * value say which), and the walk of that range gives the page in order. The rule's own
 * `lower(plan) = …` let PostgreSQL read them through 032's case-folded index and sort them all
 * (`plan=premium` by plan, page 1: 364 ms for 99,975 users; by the range, ~1 ms).
 */
export async function onSortedFacet(
  db: Kysely<Database>,
  query: UserQuery,
  column: string,
  filtered: UsersFrom,
): Promise<UsersFrom> {
  const facet = (['plan', 'status'] as const).find(
    (f) => users.rules[f].column === column && isSet(query[f]),
  );
  if (!facet) return filtered;
  const spellings = await rows<{ val: string }>(
    db,
    sql`SELECT val FROM user_counts WHERE col = ${facet} AND day = '' AND n > 0 AND lower(val) = ${String(query[facet]).toLowerCase()}`,
  );
  const [only] = spellings;
  return spellings.length === 1 && only ? filtered.where(sql.ref(column), '=', only.val) : filtered;
}
