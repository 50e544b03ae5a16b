/**
 * Property-based fuzzing of every list endpoint's query string (issue 9): whatever a client puts
 * after the `?` — known filters with hostile values, unknown keys, repeated keys, broken percent
 * escapes, control characters, huge numbers, long text — the answer is never a 5xx, and every
 * refusal has the JSON error shape `{ error, code }` with a sentence in `error`.
 *
 * The endpoints are not listed here: every signed-in GET route without path parameters is taken
 * from the app's own route table, with the filter names of its query schema, so a list added later
 * is fuzzed without touching this file.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaultCodes } from './factories.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertActuationRun, insertScan, insertSpecialFunction, insertUser } from './operationsFactories.ts';

/** Runs per endpoint and dialect: enough to hit each value class on each key several times (FUZZ_RUNS for a longer hunt). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/** Values that have broken query handling somewhere: numbers out of range, JSON, LIKE wildcards. */
const HOSTILE_VALUES = [
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '1e309',
  '-9007199254740993',
  '9'.repeat(40),
  'NaN',
  'Infinity',
  'true',
  'null',
  'undefined',
  '[',
  '["Engine"',
  '["Engine","ABS"]',
  '[1,{"a":[]}]',
  '{"$gt":""}',
  '%',
  '_',
  '%_%',
  "'; DROP TABLE scans; --",
  '"',
  '\\',
  '\u0000',
  '\u202e',
  '😀',
  '2025-13-45',
  '0000-00-00',
  '2025-03-01T25:61:00Z',
  '9999-12-31T23:59:59.999Z',
  'a'.repeat(201),
  'x'.repeat(5000),
];

/** Raw fragments that are not valid percent-encoding or UTF-8 once decoded. */
const RAW_FRAGMENTS = ['%', '%Z', '%ZZ', '%00', '%C0%AF', '%FF%FE', '%ED%A0%80', '%2', '&&', '==', '[]', '#'];

/** The shape of a query string: pairs of key and value, each either encoded or raw. */
function queryString(keys: string[]) {
  const key = fc.oneof(
    fc.constantFrom(...(keys.length > 0 ? keys : ['page'])),
    fc.constantFrom('page', 'limit', 'sort', 'order', '__proto__', 'constructor', 'a[b]', 'a[]'),
    fc.string({ maxLength: 12 }),
  );
  const value = fc.oneof(
    fc.constantFrom(...HOSTILE_VALUES),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer().map(String),
    fc.double().map(String),
  );
  const encodedPair = fc
    .tuple(key, value)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(safeForEncoding(v))}`);
  const rawPair = fc
    .tuple(key, fc.constantFrom(...RAW_FRAGMENTS))
    .map(([k, v]) => `${encodeURIComponent(k)}=${v}`);
  return fc
    .array(fc.oneof({ weight: 4, arbitrary: encodedPair }, { weight: 1, arbitrary: rawPair }), {
      maxLength: 6,
    })
    .map((pairs) => pairs.join('&'));
}

/** encodeURIComponent throws on a lone surrogate: such a one is sent as U+FFFD instead. */
function safeForEncoding(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** The filter names a route's query schema declares (zod object shapes), else none. */
function filterNames(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

describe.each(DIALECTS)('list query strings under fuzzing (%s)', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db, 'viewer')).headers;
    // A few rows in the operations lists and the fault codes, so filters meet data and pages
    // past the first exist.
    await insertUser(t.db);
    for (let i = 0; i < 3; i += 1) {
      await insertScan(t.db);
      await insertSpecialFunction(t.db);
      await insertActuationRun(t.db);
    }
    await insertFaultCodes(t.db, [{ dtc: 'P0300' }, { dtc: 'P0301', make: 'Honda', company_id: 1 }]);
  });
  afterAll(() => t.close());

  it('fuzzes at least the paged lists', () => {
    const lists = listRoutes(t).map((r) => r.url);
    for (const expected of ['/api/users', '/api/ScanDetail', '/api/faultCodesList', '/api/getCoverage'])
      expect(lists).toContain(expected);
  });

  it('never answers a list query with a 5xx, and every refusal has the error shape', async () => {
    for (const route of listRoutes(t)) {
      await fc.assert(
        fc.asyncProperty(queryString(filterNames(route.querystring)), async (query) => {
          const res = await t.app.inject({ method: 'GET', url: `${route.url}?${query}`, headers });
          const context = `GET ${route.url}?${query} → ${res.statusCode} ${res.body.slice(0, 200)}`;
          expect(res.statusCode, context).toBeLessThan(500);
          const body = res.json();
          if (res.statusCode >= 400) {
            expect(typeof body.error, context).toBe('string');
            expect(body.error.length, context).toBeGreaterThan(10);
            expect(typeof body.code, context).toBe('string');
          }
        }),
        { numRuns: RUNS },
      );
    }
  }, 120_000);
});

/** Signed-in GET routes without path parameters: the lists and the other readable collections. */
function listRoutes(t: TestContext) {
  return t.app.registeredRoutes.filter(
    (r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.public && !r.url.includes(':'),
  );
}
