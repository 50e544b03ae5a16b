import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';
import { containsCI, equalsCI, likePattern } from './sql.ts';

/**
 * FTS5's trigram index answers LIKE only for fragments of three or more characters, and has no
 * ESCAPE clause; other fragments fall back to a plain (scanning) LIKE.
 */
const usesTrigramIndex = (fragment: string) => fragment.length >= 3 && !/[%_\\]/.test(fragment);

function trigramSearch(searchTable: string, column: string, fragment: string) {
  return sql<SqlBool>`${sql.ref('id')} IN (SELECT rowid FROM ${sql.table(searchTable)} WHERE ${sql.ref(column)} LIKE ${likePattern(fragment)})`;
}

/**
 * How one query parameter filters a list (decisions §2). Lists declare a rule per parameter
 * instead of writing WHERE clauses, so every list filters the same way.
 */
export type FilterRule =
  | { match: 'contains'; column: string; searchTable?: string }
  | { match: 'equalsCI'; column: string }
  | { match: 'exact'; column: string }
  | { match: 'flag'; column: string }
  | { match: 'atLeast'; column: string }
  | { match: 'atMost'; column: string };

export type FilterRules<Q> = Partial<Record<keyof Q, FilterRule>>;

/**
 * Contains, case-insensitive. With `searchTable` (the name of an FTS5 trigram table over the
 * list's table, e.g. `scans_search` of migration 003), SQLite answers from that index instead of
 * scanning; PostgreSQL's ILIKE uses its trigram indexes anyway.
 */
export const contains = (column: string, searchTable?: string): FilterRule => ({
  match: 'contains',
  column,
  ...(searchTable ? { searchTable } : {}),
});
export const equalsIgnoringCase = (column: string): FilterRule => ({ match: 'equalsCI', column });
export const exact = (column: string): FilterRule => ({ match: 'exact', column });
export const flag = (column: string): FilterRule => ({ match: 'flag', column });
export const atLeast = (column: string): FilterRule => ({ match: 'atLeast', column });
export const atMost = (column: string): FilterRule => ({ match: 'atMost', column });

/** The AND of every rule whose parameter is present in the (already validated) query. */
export function whereFilters<DB, TB extends keyof DB, Q extends object>(
  eb: ExpressionBuilder<DB, TB>,
  dialect: Dialect,
  rules: FilterRules<Q>,
  query: Q,
): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  // Columns are names from the declarations, never from the request.
  const e = eb as unknown as ExpressionBuilder<Record<string, Record<string, unknown>>, string>;
  for (const [param, rule] of Object.entries(rules) as [keyof Q, FilterRule][]) {
    const value = query[param];
    if (value === undefined || value === null || value === '') continue;
    const column = rule.column;
    switch (rule.match) {
      case 'contains':
        conditions.push(
          rule.searchTable && dialect === 'sqlite' && usesTrigramIndex(String(value))
            ? trigramSearch(rule.searchTable, column, String(value))
            : containsCI(e, dialect, column, String(value)),
        );
        break;
      case 'equalsCI':
        conditions.push(equalsCI(e, column, String(value)));
        break;
      case 'exact':
        conditions.push(e(column, '=', value));
        break;
      case 'flag':
        conditions.push(e(column, '=', value ? 1 : 0));
        break;
      case 'atLeast':
        conditions.push(e(column, '>=', value));
        break;
      case 'atMost':
        conditions.push(e(column, '<=', value));
        break;
    }
  }
  return eb.and(conditions);
}
