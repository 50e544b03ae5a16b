import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * Walks every page of a list (`path`, its rows under `key` of the body) for `filter` (a query
 * string, already encoded) at each page size, one page past the end, and requires every page's
 * total and the ids seen, in order, to be exactly `expected` (the rows' own answer, worked out by
 * the test).
 */
export async function expectListPages(
  app: FastifyInstance,
  headers: Record<string, string>,
  list: { path: string; key: string },
  filter: string,
  expected: readonly number[],
  limits: readonly number[],
) {
  for (const limit of limits) {
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page += 1) {
      const res = await app.inject({ url: `${list.path}?limit=${limit}&page=${page}&${filter}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.total, `${filter} page ${page}`).toBe(expected.length);
      seen.push(...body[list.key].map((s: { id: number }) => s.id));
    }
    expect(seen, `${filter}, ${limit} a page`).toEqual(expected);
  }
}

/** `expectListPages` of the scans list. */
export const expectScanPages = (
  app: FastifyInstance,
  headers: Record<string, string>,
  filter: string,
  expected: readonly number[],
  limits: readonly number[],
) => expectListPages(app, headers, { path: '/api/ScanDetail', key: 'scans' }, filter, expected, limits);
