import { type ExpressionBuilder, type Kysely, type ReferenceExpression, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** Escapes LIKE wildcards so a user's `%` or `_` matches itself. */
export function likePattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * "Contains, case-insensitive" (decisions §2) on either dialect: ILIKE on PostgreSQL (served by
 * the pg_trgm indexes), LIKE on SQLite, which is already case-insensitive for ASCII.
 */
export function containsCI<DB, TB extends keyof DB>(
  _eb: ExpressionBuilder<DB, TB>,
  dialect: Dialect,
  column: ReferenceExpression<DB, TB>,
  fragment: string,
) {
  const op = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
  return sql<boolean>`${sql.ref(column as string)} ${op} ${likePattern(fragment)} ESCAPE '\\'`;
}

/** Exact, case-insensitive equality (plans, statuses, makes of the catalogues). */
export function equalsCI<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  column: ReferenceExpression<DB, TB>,
  value: string,
) {
  return eb(eb.fn('lower', [column]), '=', value.toLowerCase());
}

/**
 * PostgreSQL: the ids a query selects, aggregated into one array literal ('{10,41,…}') the
 * database writes and a later statement binds as `::int[]` — as rows, then a JavaScript array the
 * driver quotes element by element, 80,914 ids cost ~30 ms to receive and 35–80 ms to send,
 * against ~15 ms in all.
 */
export const idArray = (id: ReturnType<typeof sql.ref>) =>
  sql<string>`'{' || coalesce(string_agg(${id}::text, ','), '') || '}'`;

/**
 * Runs `read` on PostgreSQL with sorting priced out (`enable_sort = off`, for this statement's
 * transaction only), so a page read in an index's order walks that index instead of sorting every
 * match. The planner prices a fragment's ILIKE at a fixed share of the rows (0.5 %), and for a
 * fragment in 4 % of them ('kumar': 41,908 of 1,000,000 special-function runs) it chose a
 * parallel scan of the whole table and a top-N sort: 307 ms for page 100, where walking the
 * time-order index takes 48. Only for the ids of a page whose plan says its matches are frequent
 * (`walk`): a sort of a few is the better plan otherwise. Inside a transaction already, the
 * setting is set and reset around the statement.
 *
 * `serial`: without parallel workers too, for a walk known to be short (one filter from the day
 * or month holding the page). PostgreSQL split such a walk between workers that each read their
 * share of the index past the page, and started them: 'joshi' page 100, 600 matches into its
 * month, 11–20 ms in parallel against 5 alone.
 */
export function inIndexOrder<R>(
  db: Kysely<Database>,
  dialect: Dialect,
  read: (db: Kysely<Database>) => Promise<R[]>,
  options: { serial?: boolean } = {},
): Promise<R[]> {
  return withPlanPricedOut(
    db,
    dialect,
    options.serial ? ['enable_sort', 'max_parallel_workers_per_gather'] : ['enable_sort'],
    read,
  );
}

/**
 * Planner settings a read may change, and the value it takes: methods turned off, and
 * `work_mem` raised so that a bitmap of a few hundred thousand rows stays exact (at 4 MB,
 * PostgreSQL's default, it turns lossy and every row of its pages is tested again).
 */
const OFF = {
  enable_sort: 'off',
  enable_seqscan: 'off',
  enable_indexonlyscan: 'off',
  max_parallel_workers_per_gather: '0',
  enable_nestloop: 'off',
  work_mem: '16MB',
} as const;

/** A planner setting `withPlanPricedOut` may change. */
export type PlannerMethod = keyof typeof OFF;

/**
 * Runs `read` on PostgreSQL with planner methods priced out for its transaction only (set and
 * reset around it inside a caller's transaction), where the planner's estimates are known to
 * mislead it: sorting (`inIndexOrder`); parallel workers for a short walk; index-only scans that
 * test ILIKE on every entry, which it prices as nearly free, against a trigram index finding the
 * few that match (`emailFolds.ts`); a table scan for a key range it overestimates, and a bitmap
 * that would turn lossy in the default `work_mem` (`usersList.ts`); a nested loop over a fault
 * code's scans beside a walk it expects to be short (`countedList.ts` `drivenPage`). All
 * settings in one statement (`set_config(…, true)` is `SET LOCAL`): one round trip however
 * many; none, `read` as it is.
 */
export async function withPlanPricedOut<R>(
  db: Kysely<Database>,
  dialect: Dialect,
  methods: PlannerMethod | readonly PlannerMethod[],
  read: (db: Kysely<Database>) => Promise<R>,
): Promise<R> {
  const settings = typeof methods === 'string' ? [methods] : methods;
  if (dialect !== 'postgres' || settings.length === 0) return read(db);
  const priced = async (trx: Kysely<Database>) => {
    await sql`SELECT ${sql.join(settings.map((m) => sql`set_config(${sql.lit(m)}, ${sql.lit(OFF[m])}, true)`))}`.execute(
      trx,
    );
    const result = await read(trx);
    if (db.isTransaction) for (const m of settings) await sql`RESET ${sql.raw(m)}`.execute(trx);
    return result;
  };
  return db.isTransaction ? priced(db) : db.transaction().execute(priced);
}
