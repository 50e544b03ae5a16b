import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertScan } from './operationsFactories.ts';

/*
 * A contains filter finds its column's values in the counters first: on SQLite through
 * migration 026's trigram index over `list_totals`, on PostgreSQL through 004's. The index folds
 * case beyond ASCII where SQLite's LIKE does not, so each value it finds is tested with LIKE
 * again: every total must equal the rows the dialect's own LIKE / ILIKE selects, through new
 * values (the index's insert trigger) and rows that go. Both trigram indexes are asked for a phrase
 * of the fragment (`trigramPhrase`), so a fragment's own double quotes must stay literal.
 */
describe.each(DIALECTS)('a contains filter over the counters’ values, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const emails = [
    'josé.lópez@example.com',
    'JOSÉ.LÓPEZ@example.com',
    'jose.lopez@example.com',
    'Jose.Lopez@Example.com',
    'anna@example.org',
    'zoë@example.net',
    'o"brien.kumar@example.com',
    'kumar"@example.com',
    // A domain with the Kelvin sign (U+212A), which PostgreSQL's ILIKE folds to 'k': 'kample' is
    // then held by a domain in most of the rows, so its page tests the rows as walked (`rowTest`,
    // whose fast "C" collation must leave such a value to the database's own ILIKE).
    'ann@\u212aample.com',
    'bob@kample.com',
  ];
  /** Plates: the filter of an uncounted column reads 003's trigram index over the rows. */
  const plates = ['KA 15 ÄB 1', 'ka 15 äb 2', 'KA 15 äB 3', 'MH"12 4', 'MH 12 5', 'mh"12 6'];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (const [i, email] of emails.entries())
      await insertScan(t.db, {
        email,
        license_plate: plates[i] ?? null,
        scan_start_time: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      });
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  /** The rows the dialect's own case-insensitive contains selects, counted on the table. */
  async function expected(fragment: string, column = 'email'): Promise<number> {
    const pattern = `%${fragment}%`;
    const like = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const { rows } = await sql<{
      n: unknown;
    }>`SELECT count(*) AS n FROM scans WHERE ${sql.ref(column)} ${like} ${pattern}`.execute(t.db.kysely);
    return Number(rows[0]?.n);
  }

  async function answers(fragment: string, param = 'email') {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/ScanDetail?${param}=${encodeURIComponent(fragment)}&limit=100`,
      headers,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json() as { total: number; scans: unknown[] };
    const want = await expected(fragment, param);
    expect(body.total, `${param}=${fragment}`).toBe(want);
    expect(body.scans.length, `rows of ${param}=${fragment}`).toBe(want);
  }

  const fragments = [
    ...['josé', 'JOSÉ', 'lópez', 'jose.l', 'LOPEZ', 'example', 'zoë', 'nobody', 'é.l'],
    ...['o"b', '"brien', 'kumar', 'KUMAR"', 'r"@', 'kample', 'KAMPLE.c'],
  ];

  it('a fragment of an uncounted column (its rows’ trigram index) selects what LIKE / ILIKE does', async () => {
    for (const fragment of ['15 äb', '15 ÄB', 'KA 15', 'ka 15 Ä', 'MH"12', 'h"1', '"12 6', 'MH 12'])
      await answers(fragment, 'license_plate');
  });

  it('totals and rows equal the rows LIKE / ILIKE selects', async () => {
    for (const fragment of fragments) await answers(fragment);
  });

  it('stays exact as values come and rows go', async () => {
    await insertScan(t.db, { email: 'new.josé@example.com', scan_start_time: '2026-02-01T00:00:00.000Z' });
    await insertScan(t.db, { email: 'NEW.JOSE@EXAMPLE.COM', scan_start_time: '2026-02-01T01:00:00.000Z' });
    await t.db.kysely.deleteFrom('scans').where('email', '=', 'jose.lopez@example.com').execute();
    await t.db.kysely
      .updateTable('scans')
      .set({ email: 'anna.lópez@example.org' })
      .where('email', '=', 'anna@example.org')
      .execute();
    for (const fragment of [...fragments, 'new.jos', 'anna']) await answers(fragment);
  });
});
