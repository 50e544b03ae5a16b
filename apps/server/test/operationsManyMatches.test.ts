import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAIR_VALUES } from '../src/modules/operations/countPlan.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { expectScanPages } from './scanPages.ts';

/*
 * A fragment matching more values than the planner lists (MAX_PAIR_VALUES; 'gmail' among a
 * million app users matches ~300,000 addresses) is tested on the rows instead (countPlan.ts
 * rowTest). With a second filter of every kind — a counted one (make, country), an uncounted one
 * (a plate, through its trigram table), a start and an end bound — each total equals the rows
 * the filters select, on pages 1 and 3, in the list's order. A fault code with it: every fifth row
 * reports P0300 (codePlan.ts: the code's entries joined to the time-order index, the fragment
 * tested there). With a counted value, every page is walked (pairPlan.ts: page ids along the
 * value's index, the fragment tested in the time-order index).
 */
describe.each(DIALECTS)('a fragment matching more values than are listed, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const ADDRESSES = MAX_PAIR_VALUES + 200;
  const hours = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
  type Row = {
    email: string;
    make: string;
    plate: string;
    country: number;
    start: string;
    end: string;
    code: boolean;
  };
  const P0300 = JSON.stringify([{ system: 'Engine', decodedFaultArray: { P0300: 'Misfire' } }]);
  const rows: Row[] = [];
  /** A scan of the fixture: a Civic of type OBD, version 3.4.1; the rest from the row. */
  const scanRow = (r: Omit<Row, 'end' | 'code'> & { end: string | null; vin: number; code?: boolean }) => ({
    email: r.email,
    app_user_id: null,
    scan_start_time: r.start,
    scan_end_time: r.end,
    make: r.make,
    model: 'Civic',
    license_plate: r.plate,
    vin: `1HGCM82633A${r.vin}`,
    scan_ended: 1,
    country_id: r.country,
    function: 'Full Scan',
    type: 'OBD',
    app_version: '3.4.1',
    pdf_report: null,
    scan_res_array: '[]',
    decoded_array: r.code ? P0300 : '[]',
  });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < ADDRESSES + 40; i++)
      rows.push({
        // 40 rows of another provider, so the fragment does not match everything.
        email: i < ADDRESSES ? `driver${i}@gmail.com` : `driver${i}@example.com`,
        make: i % 3 === 0 ? 'Toyota' : 'Honda',
        plate: i % 50 === 0 ? `MH12ZZ${i}` : `KA05AB${i}`,
        country: i % 4 === 0 ? 44 : 91,
        start: hours(i),
        end: new Date(Date.parse(hours(i)) + 600_000).toISOString(),
        code: i % 5 === 0,
      });
    for (let from = 0; from < rows.length; from += 500)
      await t.db.kysely
        .insertInto('scans')
        .values(rows.slice(from, from + 500).map((r, k) => scanRow({ ...r, vin: 100000 + from + k })))
        .execute();
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  const gmail = (r: Row) => r.email.includes('gmail');
  const cases: [string, (r: Row) => boolean][] = [
    // Alone: its total summed by the database, its pages walked testing the fragment (countPlan.ts manyValues).
    ['email=gmail', gmail],
    ['email=gmail&make=toyota', (r) => gmail(r) && r.make === 'Toyota'],
    ['email=gmail&country_id=44', (r) => gmail(r) && r.country === 44],
    // Every row is a Civic of type OBD: the pairs (e-mail, model), (e-mail, type) read by value.
    ['email=gmail&model=civic', gmail],
    ['email=gmail&type=obd', gmail],
    ['email=gmail&license_plate=h12zz', (r) => gmail(r) && r.plate.includes('H12ZZ')],
    [`email=gmail&scan_start_time=${hours(3000)}`, (r) => gmail(r) && r.start >= hours(3000)],
    [`email=gmail&scan_end_time=${hours(400)}`, (r) => gmail(r) && r.end <= hours(400)],
    ['email=gmail&dtc=P0300', (r) => gmail(r) && r.code],
    [
      `email=gmail&make=honda&scan_start_time=${hours(4000)}`,
      (r) => gmail(r) && r.make === 'Honda' && r.start >= hours(4000),
    ],
    // In every local part (a surname's case: thousands of local-only addresses), with a counted
    // value: totalled from that value's pairs, each tested (pairPlan.ts), not the addresses' pairs.
    ['email=river&make=toyota', (r) => r.email.includes('river') && r.make === 'Toyota'],
    ['email=RIVER1&country_id=44', (r) => r.email.includes('river1') && r.country === 44],
    // Without a digit, beside a column of few values: on PostgreSQL from 035's folded pairs
    // (emailFolds.ts), the digits of driver123 folded to one '0' — which no such fragment matches.
    ['email=river&country_id=44', (r) => r.email.includes('river') && r.country === 44],
    ['email=RIVE&type=obd', (r) => r.email.includes('rive')],
    ['email=d@gmail&country_id=91', (r) => r.email.includes('d@gmail') && r.country === 91],
    [`email=river&scan_end_time=${hours(400)}`, (r) => r.email.includes('river') && r.end <= hours(400)],
    // Since a time in the middle of a month: on PostgreSQL the later months from 035's folded months.
    [
      `email=river&scan_start_time=${hours(3001)}`,
      (r) => r.email.includes('river') && r.start >= hours(3001),
    ],
    [
      `email=river&scan_start_time=${hours(3400)}`,
      (r) => r.email.includes('river') && r.start >= hours(3400),
    ],
    [`email=iver&scan_end_time=${hours(3500)}`, (r) => r.email.includes('iver') && r.end <= hours(3500)],
  ];
  const answers = async (filter: string, expected: Row[]) => {
    for (const page of [1, 3]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/ScanDetail?${filter}&page=${page}&limit=10`,
        headers,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const body = res.json() as { total: number; scans: { email: string }[] };
      expect(body.total, `${filter} page ${page}`).toBe(expected.length);
      expect(body.scans.map((s) => s.email)).toEqual(
        expected.slice((page - 1) * 10, page * 10).map((r) => r.email),
      );
    }
  };
  for (const [filter, selects] of cases)
    it(`answers ${filter} with its exact total and rows`, async () => {
      // Newest start first, as the list orders them (ids rise with the start here).
      await answers(filter, rows.filter(selects).reverse());
    });

  // The fragment alone, and a counted value with it (pairPlan.ts): page ids walked along the
  // value's (value, time) index, the fragment tested in the time-order index (SQLite) — every
  // page, both ends.
  // A fragment in every local part and no domain (a surname's case), alone: on PostgreSQL its
  // folded months bound each page's walk (in every row here, it is never read from a month's
  // matches by folded address: `foldedMonths.test.ts` pages a rarer one so).
  const walked: [string, (r: Row) => boolean][] = [
    ...cases.slice(0, 3),
    ['email=river', (r) => r.email.includes('river')],
  ];
  for (const [filter, selects] of walked)
    it(`walks every page of ${filter}`, async () => {
      // Ids are the rows' places plus one (inserted in order); newest start first.
      const ids = rows.flatMap((r, i) => (selects(r) ? [i + 1] : [])).reverse();
      await expectScanPages(t.app, headers, filter, ids, [250, 97]);
    });

  it('keeps every total exact through inserts, updates and deletes', async () => {
    const k = t.db.kysely;
    // Addresses leave and join the fragment, makes and countries change, end times move across
    // the bound, rows go; new rows come in, some of them the fragment's.
    await k
      .updateTable('scans')
      .set({ email: 'moved@example.com' })
      .where('id', 'in', [3, 6, 9, 12, 15])
      .execute();
    await k
      .updateTable('scans')
      .set({ email: 'joined@gmail.com' })
      .where('id', '>', ADDRESSES + 30)
      .execute();
    await k
      .updateTable('scans')
      .set({ make: 'Toyota', country_id: 44 })
      .where('id', 'in', [1, 2, 5, 7, 4001])
      .execute();
    await k
      .updateTable('scans')
      .set({ scan_end_time: hours(390) })
      .where('id', 'in', [2000, 3000, 3001])
      .execute();
    await k.updateTable('scans').set({ scan_end_time: null }).where('id', 'in', [10, 20, 30]).execute();
    await k
      .deleteFrom('scans')
      .where('id', 'in', [4, 8, 16, 3002, 4002, ADDRESSES + 1])
      .execute();
    await k
      .insertInto('scans')
      .values(
        Array.from({ length: 12 }, (_, i) =>
          scanRow({
            email: i % 3 === 2 ? `late${i}@example.com` : `late${i}@GMail.com`,
            start: hours(ADDRESSES + 100 + i),
            end: i % 2 === 0 ? hours(100 + i) : null,
            make: i % 2 === 0 ? 'Toyota' : 'Honda',
            plate: `MH12ZZ9${i}`,
            vin: 900000 + i,
            country: i % 4 === 0 ? 44 : 91,
            code: i % 2 === 0,
          }),
        ),
      )
      .execute();
    // The rows as the database now holds them, in the list's order (COUNT(*) by hand).
    const now = (
      await k
        .selectFrom('scans')
        .select([
          'email',
          'make',
          'license_plate',
          'country_id',
          'scan_start_time',
          'scan_end_time',
          'decoded_array',
        ])
        .orderBy('scan_start_time', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((r) => ({
      email: String(r.email),
      make: String(r.make),
      plate: String(r.license_plate),
      country: Number(r.country_id),
      start: new Date(String(r.scan_start_time)).toISOString(),
      // No end: never "≤ to".
      end: r.scan_end_time === null ? '9999' : new Date(String(r.scan_end_time)).toISOString(),
      code: String(r.decoded_array).includes('P0300'),
    }));
    const ci = (r: Row) => ({ ...r, email: r.email.toLowerCase() });
    for (const [filter, selects] of cases)
      await answers(
        filter,
        now.filter((r) => selects(ci(r))),
      );
    if (dialect === 'postgres') await expectFoldsKept();
  }, 120_000);

  /** 035: every folded counter equals its addresses' counters summed (and counted) again. */
  async function expectFoldsKept() {
    const k = t.db.kysely;
    const fold = (v: string) => sql.raw(`regexp_replace(${v}, '[0-9]+', '0', 'g')`);
    const differing = async (kept: RawBuilder<unknown>, summed: RawBuilder<unknown>) => {
      const { rows: found } = await sql<{ n: unknown }>`SELECT count(*) AS n FROM (
        ((${kept}) EXCEPT (${summed})) UNION ALL ((${summed}) EXCEPT (${kept}))) d`.execute(k);
      return Number(found[0]?.n);
    };
    expect(
      await differing(
        sql`SELECT tbl, col, val, n FROM list_totals WHERE col IN ('email#', 'email#addresses') AND n <> 0`,
        sql`SELECT tbl, col || '#', ${fold('val')}, sum(n) FROM list_totals WHERE col = 'email' GROUP BY 1, 2, 3 HAVING sum(n) <> 0
          UNION ALL SELECT tbl, col || '#addresses', ${fold('val')}, count(*) FROM list_totals WHERE col = 'email' AND n > 0 GROUP BY 1, 2, 3`,
      ),
      'folded totals',
    ).toBe(0);
    expect(
      await differing(
        sql`SELECT a, b, av, bv, n FROM list_pairs WHERE (a = 'email#' OR b = 'email#') AND n <> 0`,
        sql`SELECT CASE WHEN a = 'email' THEN 'email#' ELSE a END, CASE WHEN b = 'email' THEN 'email#' ELSE b END,
            CASE WHEN a = 'email' THEN ${fold('av')} ELSE av END, CASE WHEN b = 'email' THEN ${fold('bv')} ELSE bv END, sum(n)
          FROM list_pairs WHERE (a = 'email' AND b IN ('country_id', 'type', 'app_version')) OR (b = 'email' AND a IN ('country_id', 'type', 'app_version'))
          GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0`,
      ),
      'folded pairs',
    ).toBe(0);
    expect(
      await differing(
        sql`SELECT tbl, val, day, n FROM list_end_days WHERE col = 'email#' AND n <> 0`,
        sql`SELECT tbl, ${fold('val')}, day, sum(n) FROM list_end_days WHERE col = 'email' GROUP BY 1, 2, 3 HAVING sum(n) <> 0`,
      ),
      'folded end months',
    ).toBe(0);
    expect(
      await differing(
        sql`SELECT val, day, n FROM list_days WHERE tbl = 'scans' AND col = 'email#month' AND n <> 0`,
        sql`SELECT ${fold('email')}, substr(scan_start_time, 1, 7), count(*) FROM scans GROUP BY 1, 2`,
      ),
      'folded months',
    ).toBe(0);
  }
});
