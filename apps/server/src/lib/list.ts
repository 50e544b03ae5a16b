import type { SelectQueryBuilder } from 'kysely';

export interface Page<Row> {
  rows: Row[];
  total: number;
}

/**
 * One page of a filtered query plus the exact total under the same filters (decisions §1).
 * `filtered` carries the WHERE clauses only; `select` adds columns and the stable order that
 * must end in the primary key, so pages never overlap or skip.
 */
export async function fetchPage<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  select: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  paging: { page: number; limit: number },
): Promise<Page<Row>> {
  const [rows, count] = await Promise.all([
    select(filtered)
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit)
      .execute(),
    filtered.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow() as Promise<{
      total: number | string | bigint;
    }>,
  ]);
  return { rows: rows as Row[], total: Number(count.total) };
}
