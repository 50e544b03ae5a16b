import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { scanningUsers } from '../src/modules/overview/scanners.ts';
import { createTestApp, DIALECTS, type TestContext } from './helpers.ts';
import { insertScan } from './operationsFactories.ts';
import { addDays } from './overviewSuite.ts';

/**
 * Migration 022's pairs (scan day, the e-mail's previous scan day) against the rows themselves:
 * "app users who scanned" in many periods equals COUNT(DISTINCT email) over the scans of the
 * period, and the pair tables equal their recomputation from 011's (e-mail, day) counters, through
 * inserts (one by one and many in one statement), updates that move a scan to another day or
 * e-mail, deletes, and (PostgreSQL) two connections adding days of the same e-mail at once.
 */

const FIRST = '2025-01-01';
const EMAILS = Array.from({ length: 12 }, (_, i) => `scanner${i}@example.com`);

/** A small deterministic generator (the same data on both dialects). */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

describe.each(DIALECTS)('overview distinct scanners on %s', (dialect) => {
  let t: TestContext;
  const pick = random(13);

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const at = (day: string, hour = 10) => `${day}T${String(hour).padStart(2, '0')}:00:00.000Z`;
  const someDay = () => addDays(FIRST, pick(120));

  async function distinct(db: Db, from: string, to: string): Promise<number> {
    const r = await sql<{ n: unknown }>`SELECT count(DISTINCT email) AS n FROM scans
      WHERE scan_start_time >= ${`${from}T00:00:00.000Z`} AND scan_start_time < ${`${addDays(to, 1)}T00:00:00.000Z`}`.execute(
      db.kysely,
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Periods of every shape: a day, days inside a month, across months, whole months, everything. */
  function periods(): [string, string][] {
    const list: [string, string][] = [
      [FIRST, FIRST],
      ['2025-01-10', '2025-01-20'],
      ['2025-01-25', '2025-02-05'],
      ['2025-02-01', '2025-02-28'],
      ['2025-01-15', '2025-04-10'],
      ['2025-02-01', '2025-04-30'],
      ['2024-12-01', '2025-12-31'],
      ['2025-03-31', '2025-04-01'],
    ];
    for (let i = 0; i < 12; i++) {
      const a = someDay();
      list.push([a, addDays(a, pick(90))]);
    }
    return list;
  }

  const counted = async (from: string, to: string) =>
    Number(
      (await sql<{ n: unknown }>`SELECT (${scanningUsers({ from, to })}) AS n`.execute(t.db.kysely)).rows[0]
        ?.n ?? 0,
    );

  async function expectExact() {
    for (const [from, to] of periods())
      expect([from, to, await counted(from, to)]).toEqual([from, to, await distinct(t.db, from, to)]);
    // The pair tables equal their recomputation from the (e-mail, day) counters.
    const kept = await sql<{ b: string; prev: string; n: unknown }>`
      SELECT day AS b, prev, n FROM overview_scanner_days WHERE n <> 0
      UNION ALL SELECT month AS b, prev, n FROM overview_scanner_months WHERE n <> 0
      UNION ALL SELECT day || '+' AS b, prev, n FROM overview_scanner_day_months WHERE n <> 0`.execute(
      t.db.kysely,
    );
    const fresh = await sql<{ b: string; prev: string; n: unknown }>`
      WITH p AS (SELECT day, coalesce(lag(day) OVER (PARTITION BY key ORDER BY day), '') AS prev
        FROM overview_days WHERE topic = 'email' AND n > 0)
      SELECT day AS b, prev, count(*) AS n FROM p GROUP BY day, prev
      UNION ALL SELECT substr(day, 1, 7) AS b, prev, count(*) AS n FROM p GROUP BY substr(day, 1, 7), prev
      UNION ALL SELECT day || '+' AS b, substr(prev, 1, 7), count(*) AS n FROM p GROUP BY day, substr(prev, 1, 7)`.execute(
      t.db.kysely,
    );
    const norm = (r: { rows: { b: string; prev: string; n: unknown }[] }) =>
      r.rows.map((x) => `${x.b}|${x.prev}|${Number(x.n)}`).sort();
    expect(norm(kept)).toEqual(norm(fresh));
  }

  it('counts distinct e-mails exactly after inserts, one by one and many in one statement', async () => {
    for (let i = 0; i < 80; i++)
      await insertScan(t.db, {
        email: EMAILS[pick(EMAILS.length)],
        scan_start_time: at(someDay(), pick(24)),
      });
    await expectExact();
    // One statement of many scans, several of them new days of one e-mail (set-based on PostgreSQL).
    await sql`INSERT INTO scans (email, scan_start_time, make, function, scan_ended, scan_res_array, decoded_array)
      SELECT ${EMAILS[0]}, d, 'Honda', 'Full Scan', 0, '[]', '[]' FROM (${sql.join(
        [at('2025-01-05'), at('2025-01-05', 11), at('2025-02-17'), at('2025-03-03'), at('2025-04-28')].map(
          (d) => sql`SELECT ${d} AS d`,
        ),
        sql` UNION ALL `,
      )}) v`.execute(t.db.kysely);
    await expectExact();
  });

  it('stays exact after updates moving scans to other days and e-mails, and deletes', async () => {
    const ids = (await sql<{ id: number }>`SELECT id FROM scans ORDER BY id`.execute(t.db.kysely)).rows.map(
      (r) => r.id,
    );
    for (const id of ids.filter((_, i) => i % 7 === 0))
      await sql`UPDATE scans SET scan_start_time = ${at(someDay())} WHERE id = ${id}`.execute(t.db.kysely);
    for (const id of ids.filter((_, i) => i % 11 === 0))
      await sql`UPDATE scans SET email = ${EMAILS[pick(EMAILS.length)]} WHERE id = ${id}`.execute(
        t.db.kysely,
      );
    await expectExact();
    for (const id of ids.filter((_, i) => i % 5 === 0))
      await sql`DELETE FROM scans WHERE id = ${id}`.execute(t.db.kysely);
    await expectExact();
    // Every scan of one e-mail in one statement, then the rest of a month.
    await sql`DELETE FROM scans WHERE email = ${EMAILS[0]}`.execute(t.db.kysely);
    await sql`DELETE FROM scans WHERE scan_start_time >= ${at('2025-02-01', 0)} AND scan_start_time < ${at('2025-03-01', 0)}`.execute(
      t.db.kysely,
    );
    await expectExact();
  });

  it.runIf(dialect === 'postgres')(
    'stays exact when two connections add days of the same e-mail at once',
    async () => {
      const other = t.reopen();
      try {
        const email = 'both@example.com';
        await insertScan(t.db, { email, scan_start_time: at('2025-03-01') });
        await insertScan(t.db, { email, scan_start_time: at('2025-03-20') });
        let release = () => {};
        const gate = new Promise<void>((r) => {
          release = r;
        });
        let second: Promise<unknown> = Promise.resolve();
        const first = t.db.kysely.transaction().execute(async (trx) => {
          await sql`INSERT INTO scans (email, scan_start_time, make, function, scan_ended, scan_res_array, decoded_array)
            VALUES (${email}, ${at('2025-03-05')}, 'Honda', 'Full Scan', 0, '[]', '[]')`.execute(trx);
          // The other connection adds a day between while this transaction is open.
          second = other.kysely.transaction().execute(async (trx2) => {
            await sql`INSERT INTO scans (email, scan_start_time, make, function, scan_ended, scan_res_array, decoded_array)
              VALUES (${email}, ${at('2025-03-10')}, 'Honda', 'Full Scan', 0, '[]', '[]')`.execute(trx2);
          });
          await new Promise((r) => setTimeout(r, 300));
          release();
        });
        await gate;
        await first;
        await second;
        await expectExact();
      } finally {
        await other.close();
      }
    },
  );
});
