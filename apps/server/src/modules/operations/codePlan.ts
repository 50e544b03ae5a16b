import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { activeRules, type FilterRule, type FilterRules } from '../../lib/filters.ts';
import { type Filters, type Plan, rows } from './countPlan.ts';
import { COUNTED_LISTS, type CountedTableName } from './lists.ts';

/**
 * SQLite, scans reporting a fault code (`dtc`, migration 011's `scan_dtcs`) since a start time:
 * one range of the index (dtc, scan_start_time, scan_id) — the total from the index alone, the
 * page's ids from it (scan_dtcs keeps each scan's start with its codes, by 011's triggers), the
 * matches sorted. SQLite otherwise walked the time index from the bound, probing the code's list
 * for every scan since (P0300 since a date at a million scans: 0.3 s for 4,000 matches).
 * A code with any other filter: SQLite's own plan (the other column's (value, rowid) index probed
 * for the code's scans, from the index alone) does well. Undefined otherwise (decided at once).
 */
type Counted = Plan & { where: (walk: boolean) => Expression<SqlBool> };

export function codePlan<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
): (() => Promise<Counted>) | undefined {
  if (dialect !== 'sqlite' || table !== 'scans') return undefined;
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
  const start = sql.ref(spec.order);

  if (other.column !== spec.order || other.match !== 'atLeast') return undefined;
  return async () => {
    const from = String(value);
    const ids = sql`SELECT scan_id FROM scan_dtcs WHERE dtc = ${code} AND scan_start_time >= ${from}`;
    const [counted] = await rows<{ n: unknown }>(
      db,
      sql`SELECT count(*) AS n FROM scan_dtcs WHERE dtc = ${code} AND scan_start_time >= ${from}`,
    );
    return {
      total: Number(counted?.n ?? 0),
      walk: false,
      sorts: true,
      where: () => sql<SqlBool>`(${sql.ref('id')} IN (${ids}) AND +${start} >= ${from})`,
    };
  };
}
