import type { AuditQuery } from '@obd/contract';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { whereFilters } from '../../lib/filters.ts';
import type { Page } from '../../lib/list.ts';
import { orderBySort, type ResolvedSort, resolveSort } from '../../lib/sort.ts';
import { containsCI } from '../../lib/sql.ts';
import { auditEvents } from './lists.ts';
import type { AuditRow } from './mapper.ts';

type Executor = Kysely<Database>;
type Filters = Partial<Omit<AuditQuery, 'page' | 'limit'>>;
type Eb = ExpressionBuilder<Database & { e: Database['audit_events'] }, 'e'>;

/** The ids of the operators whose e-mail contains the fragment (a few rows: the operators table). */
async function operatorIdsMatching(db: Executor, dialect: Dialect, fragment: string): Promise<number[]> {
  const rows = await db
    .selectFrom('operators')
    .select('id')
    .where((eb) => containsCI(eb, dialect, 'email', fragment))
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The WHERE of the filters, `operator` given as the ids it matched. `byTime`: the operator test
 * is written so that no database serves it from the (operator_id, at, id) index (`+column`), and
 * the page walks the time index instead, testing each event (see `pageRows`).
 */
function where(
  eb: Eb,
  dialect: Dialect,
  q: Filters,
  operatorIds: number[] | undefined,
  byTime = false,
  walk = false,
): Expression<SqlBool> {
  // Walking a sort column's index (SQLite): no filter may be served from its own index instead.
  // A filter on the sorted column itself stays indexable: its sort index is (column, id), the order.
  if (walk && dialect === 'sqlite') {
    const sorted = q.sort;
    const plus = (column: string) => (sorted === column ? sql`` : sql`+`);
    const tests = [
      ...(q.action ? [sql<SqlBool>`${plus('action')}${sql.ref('e.action')} = ${q.action}`] : []),
      ...(q.target ? [sql<SqlBool>`${plus('target')}${sql.ref('e.target')} = ${q.target}`] : []),
      ...(q.from ? [sql<SqlBool>`+${sql.ref('e.at')} >= ${q.from}`] : []),
      ...(q.to ? [sql<SqlBool>`+${sql.ref('e.at')} <= ${q.to}`] : []),
      ...(operatorIds
        ? [
            operatorIds.length === 0
              ? sql<SqlBool>`0`
              : sql<SqlBool>`+${sql.ref('e.operator_id')} IN (${sql.join(operatorIds)})`,
          ]
        : []),
    ];
    return eb.and(tests);
  }
  const conditions = [whereFilters(eb, dialect, auditEvents.rules, q)];
  if (operatorIds) {
    conditions.push(
      operatorIds.length === 0
        ? eb.or([])
        : byTime
          ? sql<SqlBool>`+${sql.ref('e.operator_id')} IN (${sql.join(operatorIds)})`
          : operatorIds.length === 1
            ? eb('e.operator_id', '=', operatorIds[0] as number)
            : eb('e.operator_id', 'in', operatorIds),
    );
  }
  return eb.and(conditions);
}

function selected(
  db: Executor,
  dialect: Dialect,
  q: Filters,
  operatorIds: number[] | undefined,
  byTime = false,
  walk = false,
) {
  return orderBySort(
    db
      .selectFrom('audit_events as e')
      .leftJoin('operators as o', 'o.id', 'e.operator_id')
      .select(auditEvents.columns)
      .where((eb) => where(eb as unknown as Eb, dialect, q, operatorIds, byTime, walk)),
    dialect,
    auditEvents.sort,
    q,
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (iso: string) => iso.slice(0, 10);
const dayStart = (day: string) => `${day}T00:00:00.000Z`;
const addDays = (day: string, n: number) =>
  new Date(Date.parse(dayStart(day)) + n * DAY_MS).toISOString().slice(0, 10);

/** Σ n of the counter rows `(col, val)` (optionally within days [fromDay, toDay]). */
async function sumCounts(
  db: Executor,
  col: string,
  vals: string[],
  days?: { from?: string; to?: string },
): Promise<number> {
  let q = db
    .selectFrom('audit_counts')
    .select((eb) => eb.fn.sum<number | string>('n').as('n'))
    .where('col', '=', col)
    .where('val', vals.length === 1 ? '=' : 'in', vals.length === 1 ? (vals[0] as string) : vals);
  if (days?.from) q = q.where('day', '>=', days.from);
  if (days?.to) q = q.where('day', '<=', days.to);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function countWhere(db: Executor, dialect: Dialect, q: Filters, operatorIds: number[] | undefined) {
  const row = await db
    .selectFrom('audit_events as e')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => where(eb as unknown as Eb, dialect, q, operatorIds))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The exact number of events under the filters. A single filter (or none) is answered from the
 * counters the database keeps (`audit_counts`, migration 010): a sum of at most a few hundred
 * rows instead of a count of up to a million events. A time range sums its whole days and
 * counts only the events of its partial first and last day from the (at) index. Several filters
 * together count the events themselves, through the index of the most selective one.
 */
async function countEvents(db: Executor, dialect: Dialect, q: Filters, operatorIds: number[] | undefined) {
  const timed = q.from !== undefined || q.to !== undefined;
  const used = [q.action, operatorIds, q.target].filter((v) => v !== undefined).length + (timed ? 1 : 0);
  if (used > 1) return countWhere(db, dialect, q, operatorIds);
  if (q.action) return sumCounts(db, 'action', [q.action]);
  if (operatorIds)
    return operatorIds.length === 0 ? 0 : sumCounts(db, 'operator_id', operatorIds.map(String));
  if (q.target) return sumCounts(db, 'target', [q.target]);
  if (!timed) return sumCounts(db, '', ['']);
  // Whole days inside [from, to]: from the first day starting at or after `from` to the last day
  // ending at or before `to`.
  const firstFull = q.from
    ? q.from === dayStart(dayOf(q.from))
      ? dayOf(q.from)
      : addDays(dayOf(q.from), 1)
    : undefined;
  const lastFull = q.to
    ? q.to.endsWith('T23:59:59.999Z')
      ? dayOf(q.to)
      : addDays(dayOf(q.to), -1)
    : undefined;
  if (firstFull && lastFull && firstFull > lastFull) return countWhere(db, dialect, q, undefined);
  const [days, head, tail] = await Promise.all([
    sumCounts(db, '', [''], { from: firstFull, to: lastFull }),
    q.from && firstFull !== dayOf(q.from)
      ? countWhere(
          db,
          dialect,
          { from: q.from, to: new Date(Date.parse(dayStart(firstFull as string)) - 1).toISOString() },
          undefined,
        )
      : 0,
    q.to && lastFull !== dayOf(q.to)
      ? countWhere(db, dialect, { from: dayStart(addDays(lastFull as string, 1)), to: q.to }, undefined)
      : 0,
  ]);
  return days + head + tail;
}

/**
 * The rows of one page. Several operators (an e-mail fragment matching many) are read one of two
 * ways, chosen by how common their events are (their total against all events, both sums of
 * counters): common ones (≥ 5 %) by walking the time index newest first and testing each event,
 * which meets a page's rows within 20 × its size; rare ones as one query per operator, each
 * walking that operator's (operator_id, at, id) index for its first `offset + limit` events, then
 * merged. A plain `IN` list made both databases sort every event of those operators (most of the
 * log, for a fragment like the company's domain) to find the newest fifty.
 */
function pageRows(
  db: Executor,
  dialect: Dialect,
  q: AuditQuery,
  operatorIds: number[] | undefined,
  common = false,
) {
  const offset = (q.page - 1) * q.limit;
  if (!operatorIds || operatorIds.length < 2 || common) {
    return selected(db, dialect, q, operatorIds, common).limit(q.limit).offset(offset).execute() as Promise<
      AuditRow[]
    >;
  }
  const each = operatorIds.map(
    (id, i) =>
      sql`SELECT * FROM (${selected(db, dialect, q, [id]).limit(offset + q.limit)}) ${sql.raw(`s${i}`)}`,
  );
  return sql<AuditRow>`SELECT * FROM (${sql.join(each, sql` UNION ALL `)}) merged ORDER BY merged.at DESC, merged.id DESC LIMIT ${q.limit} OFFSET ${offset}`
    .execute(db)
    .then((r) => r.rows);
}

/** Matches at or below which a sorted page sorts them rather than walk the sorted column's index. */
const SORT_MATCHES_UP_TO = 20_000;

/**
 * A page in another order than newest first, with its exact total (counted as for any page). The
 * cheaper of two reads, chosen from the total as the activity lists do (operations/sortedList.ts):
 * walking the sorted column's index (migration 019) and testing each event reads about
 * (offset + page) × all / matches events; sorting the matches, read through the filter's index,
 * reads the matches. A rare filter (role changes, one operator) takes the second.
 */
async function sortedPage(
  db: Executor,
  dialect: Dialect,
  q: AuditQuery,
  operatorIds: number[] | undefined,
  sort: ResolvedSort,
): Promise<Page<AuditRow>> {
  const offset = (q.page - 1) * q.limit;
  const filtered = Boolean(operatorIds || q.action || q.target || q.from || q.to);
  const [total, all] = await Promise.all([
    countEvents(db, dialect, q, operatorIds),
    filtered ? sumCounts(db, '', ['']) : 0,
  ]);
  if (offset >= total) return { rows: [], total };
  const within = Math.min(q.limit, total - offset);
  // Up to twenty thousand matches sort in a few milliseconds, where a walk's estimate can be
  // far off: a filter's events cluster in the sorted order (every role change's target is an
  // operator's e-mail), so the walk may step over most of the log before its first match.
  if (!filtered || (total > SORT_MATCHES_UP_TO && ((offset + within) * all) / total <= total)) {
    const rows = await selected(db, dialect, q, operatorIds, false, true)
      .limit(q.limit)
      .offset(offset)
      .execute();
    return { rows: rows as AuditRow[], total };
  }
  // Materialised, so that no index on the sorted column can tempt the planner into walking it.
  const matches = db
    .selectFrom('audit_events as e')
    .where((eb) => where(eb as unknown as Eb, dialect, q, operatorIds))
    .select([sql.ref<number>('e.id').as('id'), sql.ref(sort.column).as('sort_value')]);
  const direction = sql.raw(sort.order);
  const nulls =
    dialect === 'postgres' && sort.nullable
      ? sort.order === 'asc'
        ? sql` NULLS FIRST`
        : sql` NULLS LAST`
      : sql``;
  const ids = sql<number>`WITH matches AS MATERIALIZED ${matches} SELECT id FROM matches ORDER BY sort_value ${direction}${nulls}, id ${direction} LIMIT ${q.limit} OFFSET ${offset}`;
  const rows = await orderBySort(
    db
      .selectFrom('audit_events as e')
      .leftJoin('operators as o', 'o.id', 'e.operator_id')
      .select(auditEvents.columns)
      .where(sql<SqlBool>`${sql.ref('e.id')} IN (${ids})`),
    dialect,
    auditEvents.sort,
    q,
  ).execute();
  return { rows: rows as AuditRow[], total };
}

/** Share of all events at or above which several operators' page walks the time index. */
const COMMON_SHARE = 0.05;

/** One page of the audit list, newest first or in the asked order, with its exact total. */
export async function listAuditEvents(
  db: Executor,
  dialect: Dialect,
  q: AuditQuery,
): Promise<Page<AuditRow>> {
  const operatorIds = q.operator ? await operatorIdsMatching(db, dialect, q.operator) : undefined;
  if (operatorIds?.length === 0) return { rows: [], total: 0 };
  const offset = (q.page - 1) * q.limit;
  const sort = resolveSort(auditEvents.sort, q);
  if (sort) return sortedPage(db, dialect, q, operatorIds, sort);
  if (operatorIds && operatorIds.length > 1) {
    const [total, all] = await Promise.all([
      countEvents(db, dialect, q, operatorIds),
      sumCounts(db, '', ['']),
    ]);
    const common = total >= all * COMMON_SHARE;
    return { rows: total > offset ? await pageRows(db, dialect, q, operatorIds, common) : [], total };
  }
  const page = () => pageRows(db, dialect, q, operatorIds);
  if (offset > 0) {
    const total = await countEvents(db, dialect, q, operatorIds);
    return { rows: total > offset ? await page() : [], total };
  }
  const [rows, total] = await Promise.all([page(), countEvents(db, dialect, q, operatorIds)]);
  return { rows, total };
}

/** Every event under the filters, in the list's order (newest first or the asked sort): the export streams it. */
export async function auditEventsQuery(db: Executor, dialect: Dialect, q: Filters) {
  const operatorIds = q.operator ? await operatorIdsMatching(db, dialect, q.operator) : undefined;
  return selected(db, dialect, q, operatorIds);
}

export function findAuditEvent(db: Executor, id: number) {
  return db
    .selectFrom('audit_events as e')
    .leftJoin('operators as o', 'o.id', 'e.operator_id')
    .select(auditEvents.columns)
    .where('e.id', '=', id)
    .executeTakeFirst() as Promise<AuditRow | undefined>;
}

/** Deletes events older than the retention (the purge job); returns how many went. */
export async function purgeAuditEvents(db: Executor, retentionDays: number, now = Date.now()) {
  const before = new Date(now - retentionDays * DAY_MS).toISOString();
  const result = await db.deleteFrom('audit_events').where('at', '<', before).executeTakeFirst();
  // Counter rows the deletions brought to nothing.
  await db.deleteFrom('audit_counts').where('n', '<=', 0).execute();
  return Number(result.numDeletedRows);
}
