import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, type FilterRule, type FilterRules } from '../../lib/filters.ts';
import { likePattern } from '../../lib/sql.ts';
import {
  type Filters,
  type Plan,
  rows,
  sumOf,
  toMap,
  valueCounts,
  valueList,
  WALK_SHARE,
} from './countPlan.ts';
import { COUNTED_LISTS, type CountedTableName } from './lists.ts';

/** Sum day counts over at most this many matching values (else: a count over the rows). */
const MAX_DAY_VALUES = 200;

/**
 * SQLite, "start ≥ from" with a fragment of a column counted per day (make, type, app version):
 * the value's rows per day from `list_days` after from's day, plus its rows of from's own day
 * from `from` on, counted in migration 017's (value, time) index — the exact total without a
 * count over the matches (11,000–45,000 at a million scans), and the same day bounds for deep
 * pages as one filter has. The rows: the counted values themselves (`col IN`, binary: the
 * values as stored, so rows and total agree), one value read through its (value, time) index.
 * Undefined when the filters are not exactly those two (decided at once).
 */
export function startPlan<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): (() => Promise<Plan & { where: (walk: boolean) => Expression<SqlBool> }>) | undefined {
  if (dialect !== 'sqlite') return undefined;
  const spec = COUNTED_LISTS[table].counted;
  const active = activeRules(rules, query);
  if (active.length !== 2) return undefined;
  const startAt = active.findIndex(([, r]) => r.column === spec.order && r.match === 'atLeast');
  if (startAt < 0) return undefined;
  const [[startParam], [otherParam, other]] = (startAt === 0 ? active : [...active].reverse()) as [
    [string, FilterRule],
    [string, FilterRule],
  ];
  const column = other.column;
  if (other.match !== 'contains' || !(spec.byDay as readonly string[]).includes(column)) return undefined;
  const from = String((query as Filters)[startParam]);
  const fromDay = from.slice(0, 10);
  const value = String((query as Filters)[otherParam]);
  const ref = sql.ref(column);
  const order = sql.ref(spec.order);
  return async () => {
    const found = await valueCounts(db, table, [
      { column, matching: sql`n > 0 AND val LIKE ${likePattern(value)} ESCAPE '\\'` },
    ]);
    const vals = found.filter((v) => v.col === column).map((v) => v.val);
    const all = sumOf(found.filter((v) => v.col === ''));
    if (vals.length === 0) return { total: 0, walk: false, where: () => sql<SqlBool>`0` };
    const since = sql<SqlBool>`${order} >= ${from}`;
    const where = (walk: boolean) =>
      vals.length === 1
        ? sql<SqlBool>`(${ref} = ${vals[0]} AND ${since})`
        : walk
          ? sql<SqlBool>`(+${ref} IN (${valueList(vals)}) AND ${since})`
          : sql<SqlBool>`(${ref} IN (${valueList(vals)}) AND ${since})`;
    if (vals.length > MAX_DAY_VALUES) {
      const [counted] = await rows<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${where(false)}`,
      );
      return { total: Number(counted?.n ?? 0), walk: false, where };
    }
    const days = await rows<{ day: string; n: unknown }>(
      db,
      sql`SELECT day, sum(n) AS n FROM list_days WHERE tbl = ${table} AND col = ${column} AND val IN (${sql.join(vals)}) AND day >= ${fromDay} GROUP BY day`,
    );
    const later = days.filter((d) => d.day > fromDay);
    // From's own day from `from` on: up to the next day holding the values' rows (none between).
    const next = later.map((d) => d.day).sort()[0];
    const [edge] = await rows<{ n: unknown }>(
      db,
      sql`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${ref} IN (${valueList(vals)}) AND ${since}${next ? sql` AND ${order} < ${next}` : sql``}`,
    );
    const map = toMap(later);
    const first = Number(edge?.n ?? 0);
    if (first > 0) map.set(fromDay, first);
    const total = [...map.values()].reduce((s, n) => s + n, 0);
    // One value walks its own (value, time) index from the day bound: it reads only its rows.
    return { total, walk: vals.length === 1 || total >= WALK_SHARE * all, days: async () => map, where };
  };
}
