import { type ExpressionBuilder, type ReferenceExpression, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';

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
