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
  /** The same total by a cheaper statement than COUNT over `filtered`, where the caller has one. */
  counted?: () => Promise<number>,
): Promise<Page<Row>> {
  const offset = (paging.page - 1) * paging.limit;
  const count = async () =>
    counted
      ? await counted()
      : Number(
          (
            (await filtered.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()) as {
              total: number | string | bigint;
            }
          ).total,
        );
  const page = () => select(filtered).limit(paging.limit).offset(offset).execute();
  if (offset > 0) {
    // A page past the end is empty: count first and skip a query that would only step over
    // every matching row (deep pages of large lists).
    const total = await count();
    return { rows: total > offset ? ((await page()) as Row[]) : [], total };
  }
  const [rows, total] = await Promise.all([page(), count()]);
  return { rows: rows as Row[], total };
}
