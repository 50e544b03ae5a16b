import type { SortOrder, SortQuery } from '@obd/contract';
import { type OrderByItemBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';

/**
 * How a list sorts (decisions §9), declared in its shape module (`modules/<area>/lists.ts`): the
 * column behind each sortable field of the contract, which of them may be empty, and the list's
 * own order when no `sort` is asked. Every order ends in the primary key, so pages never overlap
 * or skip however many rows tie on the sorted column.
 *
 * Empty values sort first ascending and last descending on both databases (SQLite's own rule;
 * PostgreSQL is told so, and migration 015 builds its indexes the same way round, so one index
 * serves both directions). Text sorts by code point: both databases compare bytes here (SQLite's
 * BINARY, PostgreSQL's C.UTF-8), the same order as JavaScript's `<` on the web's client-paged lists.
 */
export interface SortShape<F extends string> {
  /** The column of each sortable field, as the list's query names it (`u.email`, `make`). */
  columns: Readonly<Record<F, string>>;
  /** Fields whose column may hold NULL. */
  nullable: readonly F[];
  /** The list's own order (newest first, …) as [column, direction] pairs, without the key. */
  default: readonly (readonly [string, SortOrder])[];
  /** The primary key, last in every order (in the direction of the sort). */
  key: string;
}

/** A resolved sort: the column, its direction, whether it may hold NULL. */
export interface ResolvedSort {
  column: string;
  order: SortOrder;
  nullable: boolean;
}

/**
 * The sort a query asks for, or undefined for the list's own order (no `sort`, or a sort that is
 * the own order: `sort=scan_start_time&order=desc` takes the same path as none).
 */
export function resolveSort<F extends string>(
  shape: SortShape<F>,
  query: SortQuery<F>,
): ResolvedSort | undefined {
  if (!query.sort) return undefined;
  const column = shape.columns[query.sort];
  const order = query.order ?? 'asc';
  const [first, second] = shape.default;
  if (first && !second && first[0] === column && first[1] === order) return undefined;
  if (!first && column === shape.key && order === 'desc') return undefined;
  return { column, order, nullable: (shape.nullable as readonly string[]).includes(query.sort) };
}

/** `ORDER BY <column> <order> [NULLS …]` of a resolved sort (NULLs as SQLite puts them). */
export function sortModifiers(dialect: Dialect, sort: ResolvedSort) {
  return (ob: OrderByItemBuilder) => {
    const directed = sort.order === 'asc' ? ob.asc() : ob.desc();
    if (dialect !== 'postgres' || !sort.nullable) return directed;
    return sort.order === 'asc' ? directed.nullsFirst() : directed.nullsLast();
  };
}

/**
 * Adds the list's order to `q`: the asked sort then the key in the same direction, or the list's
 * own order then the key. The page and the export both take it from here.
 */
export function orderBySort<DB, TB extends keyof DB, O, F extends string>(
  q: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
  shape: SortShape<F>,
  query: SortQuery<F>,
): SelectQueryBuilder<DB, TB, O> {
  const sort = resolveSort(shape, query);
  if (sort) {
    return q
      .orderBy(sql.ref(sort.column), sortModifiers(dialect, sort))
      .orderBy(sql.ref(shape.key), sort.order);
  }
  let ordered = q;
  for (const [column, order] of shape.default) ordered = ordered.orderBy(sql.ref(column), order);
  const last = shape.default.at(-1);
  if (last?.[0] === shape.key) return ordered;
  return ordered.orderBy(sql.ref(shape.key), last?.[1] ?? 'desc');
}
