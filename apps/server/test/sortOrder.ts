/** What the sort tests check the lists against (sort.test.ts, sortEveryList.test.ts). */

export type Row = Record<string, unknown> & { id: number };

/** A small deterministic generator: the same rows on both databases. */
export function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** The order the lists promise: NULLs first ascending (last descending), code-point text, false
 * before true, then the id in the sort's direction. */
export function expectedOrder(rows: Row[], field: string, order: 'asc' | 'desc'): number[] {
  const sign = order === 'asc' ? 1 : -1;
  const compare = (a: unknown, b: unknown) => {
    if (a === b) return 0;
    if (a === null || a === undefined) return -1;
    if (b === null || b === undefined) return 1;
    return (a as string | number) < (b as string | number) ? -1 : 1;
  };
  return [...rows].sort((a, b) => sign * (compare(a[field], b[field]) || a.id - b.id)).map((r) => r.id);
}
