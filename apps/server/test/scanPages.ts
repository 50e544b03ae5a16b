import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * Walks every page of the scans list for `filter` (a query string, already encoded) at each page
 * size, one page past the end, and requires every page's total and the ids seen, in order, to be
 * exactly `expected` (the rows' own answer, worked out by the test).
 */
export async function expectScanPages(
  app: FastifyInstance,
  headers: Record<string, string>,
  filter: string,
  expected: readonly number[],
  limits: readonly number[],
) {
  for (const limit of limits) {
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page += 1) {
      const res = await app.inject({ url: `/api/ScanDetail?limit=${limit}&page=${page}&${filter}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.total, `${filter} page ${page}`).toBe(expected.length);
      seen.push(...body.scans.map((s: { id: number }) => s.id));
    }
    expect(seen, `${filter}, ${limit} a page`).toEqual(expected);
  }
}
