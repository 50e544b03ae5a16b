import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { FilterRules } from '../../lib/filters.ts';
import { codePlan } from './codePlan.ts';
import { endPlan } from './endPlan.ts';
import type { CountedTableName } from './lists.ts';
import { pairPlan } from './pairPlan.ts';
import { startPlan } from './startPlan.ts';

/**
 * The count plan of two filters together (issue 12 item 1), the first that applies: two counted
 * columns (the pair counters), an end bound with one other, a bound on the list's own time (start ≥,
 * created ≤) with a value counted per day, a fault code with one other. Undefined: the general
 * path (a count over the rows).
 */
export function twoFilterPlan<Q extends object>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: CountedTableName,
  rules: FilterRules<Q>,
  query: Q,
) {
  return (
    pairPlan(db, dialect, table, rules, query) ??
    endPlan(db, dialect, table, rules, query) ??
    startPlan(db, dialect, table, rules, query) ??
    codePlan(db, dialect, table, rules, query)
  );
}
