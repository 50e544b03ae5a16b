import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likePattern } from '../src/lib/sql.ts';
import {
  containingDays,
  containingEndedBefore,
  containingEndedBeforeDay,
  containingPairTotal,
  containingTotal,
  splitsAtDomain,
} from '../src/modules/operations/emailDomains.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertActuationRun, insertScan, scanValues } from './operationsFactories.ts';
import { expectScanPages } from './scanPages.ts';

/*
 * Migrations 027 and 028: an e-mail fragment without '@' is totalled from the domains' counters plus the
 * addresses whose local part alone contains it (emailDomains.ts). Every total must equal the
 * rows the dialect's own LIKE / ILIKE selects — with the fragment in the domain, in the local
 * part, in both, in neither, in other case, beyond ASCII, in an address with two '@' or none —
 * and the domain rows must stay the sums of their addresses' rows through inserts, updates and
 * deletes, on both counter tables.
 */
describe.each(DIALECTS)('e-mail totals from domains and local parts, on %s', (dialect) => {
  let t: TestContext;
  const emails = [
    'asha@gmail.com',
    'ravi@gmail.com',
    'GMAIL.fan@yahoo.com',
    'gmail@gmail.com',
    'Meera@GMail.Com',
    'x@y@gmail.com',
    'no-at-sign-gmail',
    'josé.lópez@exämple.com',
    'JOSÉ@EXÄMPLE.COM',
    'anna@mailbox.org',
    'amail@gmail.co.in',
    // LIKE's wildcards as plain characters of an address, and what they would match as wildcards.
    'raj_kumar7@gmail.com',
    'rajakumar@gmail.com',
    '100%club@mail.com',
  ];
  const fragments = [
    'gmail',
    'GMAIL',
    'mail',
    'ail.c',
    'yahoo',
    'fan',
    'josé',
    'ämple',
    'exä',
    'box.org',
    'zzz',
    'j_k',
    '_kumar',
    '0%c',
  ];
  const makes = ['Honda', 'Toyota'];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    for (const [i, email] of emails.entries())
      for (let k = 0; k <= i % 3; k++)
        await insertScan(t.db, {
          email,
          make: makes[(i + k) % 2],
          scan_start_time: new Date(Date.UTC(2025, (i * 3 + k) % 12, 5)).toISOString(),
        });
    await insertActuationRun(t.db, { user_email: 'driver@gmail.com' } as never);
    // Rows of other addresses, so that a rare fragment since a date is read through its values
    // and sorted rather than walked (startPlan.ts emailSince: under WALK_SHARE of the rows since).
    for (let from = 0; from < 300; from += 100)
      await t.db.kysely
        .insertInto('scans')
        .values(
          Array.from({ length: 100 }, (_, k) =>
            scanValues({
              email: `filler${from + k}@example.net`,
              scan_start_time: new Date(Date.UTC(2025, (from + k) % 12, 6, k % 24)).toISOString(),
              scan_end_time: null,
              license_plate: null,
            }),
          ),
        )
        .execute();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const like = () => (dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`);
  // The fragment as the lists read it: its wildcards plain characters.
  const contains = (fragment: string) => sql`${likePattern(fragment)} ESCAPE '\\'`;
  async function expected(fragment: string, make?: string): Promise<number> {
    const { rows } = await sql<{
      n: unknown;
    }>`SELECT count(*) AS n FROM scans WHERE email ${like()} ${contains(fragment)}${
      make ? sql` AND make = ${make}` : sql``
    }`.execute(t.db.kysely);
    return Number(rows[0]?.n);
  }

  async function endedBefore(fragment: string, month: string): Promise<number> {
    const { rows } = await sql<{
      n: unknown;
    }>`SELECT count(*) AS n FROM scans WHERE email ${like()} ${contains(fragment)} AND scan_end_time < ${month}`.execute(
      t.db.kysely,
    );
    return Number(rows[0]?.n);
  }

  async function expectExact() {
    for (const fragment of fragments) {
      expect(splitsAtDomain('email', fragment), fragment).toBe(true);
      expect((await containingTotal(t.db.kysely, dialect, 'scans', 'email', fragment)).total, fragment).toBe(
        await expected(fragment),
      );
      // 'email' < 'make': the e-mail is a pair's `a`.
      for (const make of makes)
        expect(
          await containingPairTotal(
            t.db.kysely,
            dialect,
            'scans',
            { a: 'email', b: 'make' },
            'a',
            [make],
            fragment,
          ),
          `${fragment} with ${make}`,
        ).toBe(await expected(fragment, make));
    }
    // Ending in a month before a given one (the fixture's scans are spread over 2025's months).
    for (const fragment of fragments)
      for (const month of ['2025-04', '2025-09', '2026-01'])
        expect(
          await containingEndedBefore(t.db.kysely, dialect, 'scans', 'email', fragment, month),
          `${fragment} ended before ${month}`,
        ).toBe(await endedBefore(fragment, month));
    // Ending on a day before a given one (031's domain end days and the local-only addresses' rows).
    for (const fragment of fragments)
      for (const day of ['2025-04-05', '2025-09-06', '2026-01-01']) {
        const { rows: ended } = await sql<{ n: unknown }>`SELECT count(*) AS n FROM scans
          WHERE email ${like()} ${contains(fragment)} AND scan_end_time < ${day}`.execute(t.db.kysely);
        expect(
          await containingEndedBeforeDay(
            t.db.kysely,
            dialect,
            'scans',
            'email',
            'scan_end_time',
            fragment,
            day,
          ),
          `${fragment} ended before ${day}`,
        ).toBe(Number(ended[0]?.n));
      }
    // Rows per start day (029's domain days and the local-only addresses' rows).
    for (const fragment of fragments) {
      const { rows: perDay } = await sql<{ day: string; n: unknown }>`
        SELECT substr(scan_start_time, 1, 10) AS day, count(*) AS n FROM scans
        WHERE email ${like()} ${contains(fragment)} AND scan_start_time >= '2025-05-01' GROUP BY 1`.execute(
        t.db.kysely,
      );
      const days = await containingDays(
        t.db.kysely,
        dialect,
        'scans',
        'email',
        'scan_start_time',
        fragment,
        '2025-05-01',
      );
      expect(
        new Map([...(days ?? new Map<string, number>())].filter(([, n]) => n !== 0)),
        `${fragment} per day`,
      ).toEqual(new Map(perDay.map((r) => [r.day, Number(r.n)])));
    }
    // With a start bound, over HTTP: every page, in order, with its total (startPlan.ts emailSince).
    const headers = (await signedIn(t.db)).headers;
    for (const fragment of ['gmail', 'mail', 'fan', 'ämple', 'box.org'])
      for (const from of [
        '2025-03-05T00:00:00.000Z',
        '2025-06-05T00:00:01.000Z',
        '2025-09-01T00:00:00.000Z',
      ]) {
        const { rows: ids } = await sql<{ id: number }>`
          SELECT id FROM scans WHERE email ${like()} ${contains(fragment)} AND scan_start_time >= ${from}
          ORDER BY scan_start_time DESC, id DESC`.execute(t.db.kysely);
        await expectScanPages(
          t.app,
          headers,
          `email=${encodeURIComponent(fragment)}&scan_start_time=${encodeURIComponent(from)}`,
          ids.map((r) => Number(r.id)),
          [2, 30],
        );
      }
    // The e-mail as a pair's `b` (country_id < email).
    const { rows } = await sql<{
      n: unknown;
    }>`SELECT count(*) AS n FROM scans WHERE email ${like()} '%gmail%' AND country_id = 91`.execute(
      t.db.kysely,
    );
    expect(
      await containingPairTotal(
        t.db.kysely,
        dialect,
        'scans',
        { a: 'country_id', b: 'email' },
        'b',
        ['91'],
        'gmail',
      ),
    ).toBe(Number(rows[0]?.n));
  }

  /** Every domain row equals the sum of its addresses' rows, on both counter tables. */
  async function expectDomainsKept() {
    const domain =
      dialect === 'postgres' ? sql`substr(val, strpos(val, '@') + 1)` : sql`substr(val, instr(val, '@') + 1)`;
    const at = dialect === 'postgres' ? sql`strpos(val, '@')` : sql`instr(val, '@')`;
    const kept = await sql<{ tbl: string; col: string; val: string; n: unknown }>`
      SELECT tbl, col, val, n FROM list_totals WHERE col IN ('email@', 'user_email@') AND n <> 0 ORDER BY 1, 2, 3`.execute(
      t.db.kysely,
    );
    const summed = await sql<{ tbl: string; col: string; val: string; n: unknown }>`
      SELECT tbl, col || '@' AS col, ${domain} AS val, sum(n) AS n FROM list_totals
      WHERE col IN ('email', 'user_email') AND ${at} > 0 GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`.execute(
      t.db.kysely,
    );
    const plain = (rs: { n: unknown }[]) => rs.map((r) => ({ ...r, n: Number(r.n) }));
    expect(plain(kept.rows)).toEqual(plain(summed.rows));
    expect(kept.rows.some((r) => r.tbl === 'actuation_runs' && r.col === 'user_email@')).toBe(true);
    const pairDomain = (v: string) =>
      dialect === 'postgres'
        ? sql.raw(`substr(${v}, strpos(${v}, '@') + 1)`)
        : sql.raw(`substr(${v}, instr(${v}, '@') + 1)`);
    const pairs = await sql<{ n: unknown }>`
      SELECT count(*) AS n FROM (
        SELECT tbl, a || '@' AS a, b, ${pairDomain('av')} AS av, bv, sum(n) AS n FROM list_pairs
        WHERE tbl = 'scans' AND a = 'email' AND ${sql.raw(dialect === 'postgres' ? "strpos(av, '@')" : "instr(av, '@')")} > 0
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0
      ) s
      WHERE NOT EXISTS (SELECT 1 FROM list_pairs p WHERE p.tbl = s.tbl AND p.a = s.a AND p.b = s.b AND p.av = s.av AND p.bv = s.bv AND p.n = s.n)`.execute(
      t.db.kysely,
    );
    expect(Number(pairs.rows[0]?.n), 'domain pairs not equal to their addresses’ sums').toBe(0);
    const ends = await sql<{ n: unknown; domains: unknown }>`
      SELECT count(*) AS n, (SELECT count(*) FROM list_end_days WHERE col = 'email@' AND n <> 0) AS domains FROM (
        SELECT tbl, col || '@' AS col, ${pairDomain('val')} AS val, day, sum(n) AS n FROM list_end_days
        WHERE col = 'email' AND ${at} > 0 GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0
      ) s
      WHERE NOT EXISTS (SELECT 1 FROM list_end_days e WHERE e.tbl = s.tbl AND e.col = s.col AND e.val = s.val AND e.day = s.day AND e.n = s.n)`.execute(
      t.db.kysely,
    );
    expect(Number(ends.rows[0]?.n), 'domain end months not equal to their addresses’ sums').toBe(0);
    expect(Number(ends.rows[0]?.domains)).toBeGreaterThan(3);
  }

  it('totals every fragment exactly, alone and with a second value', async () => {
    await expectExact();
    await expectDomainsKept();
  });

  it('keeps the domains and the local parts in step through updates and deletes', async () => {
    await sql`UPDATE scans SET email = 'newgmail@outlook.com' WHERE email = 'asha@gmail.com'`.execute(
      t.db.kysely,
    );
    await sql`UPDATE scans SET make = 'Toyota' WHERE email = 'ravi@gmail.com'`.execute(t.db.kysely);
    await sql`DELETE FROM scans WHERE email = 'GMAIL.fan@yahoo.com'`.execute(t.db.kysely);
    await insertScan(t.db, {
      email: 'Zoë.gmail@gmail.com',
      make: 'Toyota',
      scan_start_time: '2025-02-10T08:00:00.000Z',
    });
    await sql`UPDATE scans SET scan_end_time = '2025-11-30T10:00:00.000Z' WHERE email = 'Meera@GMail.Com'`.execute(
      t.db.kysely,
    );
    await expectExact();
    await expectDomainsKept();
  });

  it('keeps them exact when several writers insert, update and delete at once', async () => {
    // PostgreSQL: each transaction on its own pooled connection, so their counter and domain
    // upserts (004's, then 027–029's) interleave; a lock taken out of order would deadlock here.
    await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        t.db.kysely.transaction().execute(async (trx) => {
          for (let k = 0; k < 4; k++)
            await trx
              .insertInto('scans')
              .values(
                scanValues({ email: `w${w}.${k}@${k % 2 ? 'yahoo.com' : 'gmail.com'}`, make: makes[k % 2] }),
              )
              .execute();
          await sql`UPDATE scans SET email = ${`moved.gmail${w}@outlook.com`} WHERE email = ${`w${w}.0@gmail.com`}`.execute(
            trx,
          );
          await sql`DELETE FROM scans WHERE email = ${`w${w}.1@yahoo.com`}`.execute(trx);
        }),
      ),
    );
    await expectExact();
    await expectDomainsKept();
  });

  it('leaves fragments with an @ or too short for the trigram index to the address counters', () => {
    expect(splitsAtDomain('email', 'a@gmail')).toBe(false);
    expect(splitsAtDomain('email', 'gm')).toBe(false);
    // A wildcard of LIKE is a plain character to the trigram indexes (the fragment is escaped).
    expect(splitsAtDomain('email', 'j_k')).toBe(true);
    expect(splitsAtDomain('make', 'gmail')).toBe(false);
    expect(splitsAtDomain('user_email', 'gmail')).toBe(true);
  });
});
