import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTED_LISTS, users } from '../src/modules/operations/lists.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { expectScanPages } from './scanPages.ts';

/*
 * A sorted list with one filter matching thousands of rows (sortedList.ts): on SQLite, between
 * SEMI_JOIN_FROM and SEMI_JOIN_TO matches the page is found by walking the sorted column's index
 * and testing each id against the filter's matches. The sorted column is made to relate to the
 * filter (Toyota VINs start 'JT', Honda's '1HG'), so ascending, every Honda comes before the
 * first Toyota; ties on the model are broken by the id. Every page, both directions, must be
 * the rows' own order — on PostgreSQL too, whose plan differs (the matches' ids bound as one
 * array, found through a contains filter's counted values).
 */
/** A scan row: the columns a case varies, the rest the same for every row. */
const scan = (varied: {
  email: string;
  scan_start_time: string;
  make: string;
  model: string;
  license_plate: string;
  vin: string;
}) => ({
  ...varied,
  app_user_id: null,
  scan_end_time: null,
  scan_ended: 1,
  country_id: 91,
  function: 'Full Scan',
  type: 'OBD',
  app_version: '3.4.1',
  pdf_report: null,
  scan_res_array: '[]',
  decoded_array: '[]',
});

describe.each(DIALECTS)('a sorted list walked against its matches, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const ROWS = 7_600;
  type Row = { id: number; toyota: boolean; vin: string; plate: string; model: string };
  const rows: Row[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < ROWS; i++) {
      const toyota = i % 4 !== 0;
      rows.push({
        id: i + 1,
        toyota,
        vin: `${toyota ? 'JTD' : '1HG'}${String((i * 7919) % ROWS).padStart(8, '0')}`,
        plate: `MH${String((i * 104_729) % 9_973).padStart(4, '0')}`,
        model: toyota ? (i % 3 === 0 ? 'Camry' : 'Corolla') : 'Civic',
      });
    }
    for (let from = 0; from < rows.length; from += 500)
      await t.db.kysely
        .insertInto('scans')
        .values(
          rows.slice(from, from + 500).map((r) =>
            scan({
              email: `driver${r.id}@${r.toyota ? 'toyota' : 'honda'}.example.com`,
              scan_start_time: new Date(Date.UTC(2026, 0, 1) + r.id * 60_000).toISOString(),
              make: r.toyota ? 'Toyota' : 'Honda',
              model: r.model,
              license_plate: r.plate,
              vin: r.vin,
            }),
          ),
        )
        .execute();
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  // The walks above test the make in the sort index's own entries on PostgreSQL
  // (`walkReadsIndexOnly`): every sort index but the time column's and the key's must carry what
  // the lists declare it does (`sortCarried`, migration 044), or those walks read a row an entry.
  it.skipIf(dialect !== 'postgres')('carries the declared columns in every sort index', async () => {
    for (const [table, list] of Object.entries(COUNTED_LISTS)) {
      const { rows } = await sql<{ def: string }>`
        SELECT indexdef AS def FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename = ${table} AND indexname LIKE ${`${table}_sort_%`}`.execute(
        t.db.kysely,
      );
      const sorted = Object.values(list.sort.columns as Record<string, string>).filter(
        (column) => column !== list.counted.order && column !== list.sort.key,
      );
      for (const column of sorted) {
        const def = rows.find((r) => new RegExp(`USING btree \\(${column}[ ,]`).test(r.def))?.def;
        expect(def, `${table}.${column}`).toMatch(
          new RegExp(`INCLUDE \\(.*${list.counted.sortCarried.map((c) => `\\b${c}\\b`).join('.*')}`),
        );
      }
    }
  });

  // SQLite: every sort index but the time column's (and the key's) must be (column, id, time)
  // (`sortCarriedSqlite`, migration 051), and the users' (column, id, plan, status, creation time)
  // less the column (052): a walk testing those filters reads them there, no row.
  it.skipIf(dialect !== 'sqlite')(
    'carries the declared columns after the id in every sort index',
    async () => {
      const lists = [
        ...Object.entries(COUNTED_LISTS).map(([table, list]) => ({
          table,
          sorted: Object.values(list.sort.columns as Record<string, string>).filter(
            (column) => column !== list.counted.order && column !== list.sort.key,
          ),
          carried: list.counted.sortCarriedSqlite as readonly string[],
        })),
        {
          table: 'app_users',
          sorted: Object.values(users.sort.columns)
            .filter((c) => c !== users.sort.key)
            .map((c) => c.replace(/^u\./, '')),
          carried: users.sortCarriedSqlite,
        },
      ];
      for (const { table, sorted, carried } of lists) {
        const { rows: indexes } = await sql<{ name: string }>`
        SELECT name FROM pragma_index_list(${table}) WHERE partial = 0`.execute(t.db.kysely);
        const keys: string[][] = [];
        for (const { name } of indexes)
          keys.push(
            (
              await sql<{ name: string }>`
              SELECT name FROM pragma_index_xinfo(${name}) WHERE key = 1 AND coll = 'BINARY' ORDER BY seqno`.execute(
                t.db.kysely,
              )
            ).rows.map((r) => r.name),
          );
        for (const column of sorted) {
          const held = keys.some(
            (k) =>
              k[0] === column &&
              k[1] === 'id' &&
              carried.every((c) => c === column || k.slice(2).includes(c)),
          );
          expect(held, `${table}.${column}`).toBe(true);
        }
      }
    },
  );

  const cases: [string, (r: Row) => string][] = [
    ['vin', (r) => r.vin],
    ['license_plate', (r) => r.plate],
    ['model', (r) => r.model],
    // The key itself: SQLite walks the table's own b-tree (`walksTable`).
    ['id', (r) => String(r.id).padStart(8, '0')],
  ];
  for (const [field, key] of cases)
    for (const order of ['asc', 'desc'] as const)
      it(`pages Toyotas sorted by ${field} ${order}`, async () => {
        const sign = order === 'asc' ? 1 : -1;
        const expected = rows
          .filter((r) => r.toyota)
          .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id))
          .map((r) => r.id);
        await expectScanPages(t.app, headers, `make=toyota&sort=${field}&order=${order}`, expected, [100]);
      }, 120_000);

  // A fragment sorted by its own column, matching thousands of rows in more values than are
  // located one by one (the 5,700 Toyota drivers' addresses; every plate holds 'MH'): the walk
  // tests the fragment in the sorted column's index entries alone (`walkReadsIndexOnly`, on SQLite
  // too), with the semi-join's budget.
  const ownColumn: [string, string, (r: Row) => string, (r: Row) => boolean][] = [
    ['email', 'toyota', (r) => `driver${r.id}@${r.toyota ? 'toyota' : 'honda'}.example.com`, (r) => r.toyota],
    ['license_plate', 'MH', (r) => r.plate, () => true],
  ];
  for (const [field, fragment, key, holds] of ownColumn)
    for (const order of ['asc', 'desc'] as const)
      it(`pages '${fragment}' sorted by its own column, ${field} ${order}`, async () => {
        const sign = order === 'asc' ? 1 : -1;
        const expected = rows
          .filter(holds)
          .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id))
          .map((r) => r.id);
        const param = field === 'email' ? 'email' : 'license_plate';
        await expectScanPages(
          t.app,
          headers,
          `${param}=${fragment}&sort=${field}&order=${order}`,
          expected,
          [100],
        );
      }, 120_000);

  // A start bound sorted by another column: the walk of the sorted column's index tests the time
  // it carries (051 on SQLite, 044 on PostgreSQL).
  const since = new Date(Date.UTC(2026, 0, 1) + 3_000 * 60_000).toISOString();
  const heldByTime: [string, (r: Row) => string][] = [
    ['model', (r) => r.model],
    ['email', (r) => `driver${r.id}@${r.toyota ? 'toyota' : 'honda'}.example.com`],
    ['vin', (r) => r.vin],
    ['license_plate', (r) => r.plate],
  ];
  for (const [field, key] of heldByTime)
    for (const order of ['asc', 'desc'] as const)
      it(`pages the scans since a time sorted by ${field} ${order}`, async () => {
        const sign = order === 'asc' ? 1 : -1;
        const expected = rows
          .filter((r) => r.id >= 3_000)
          .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id))
          .map((r) => r.id);
        await expectScanPages(
          t.app,
          headers,
          `scan_start_time=${encodeURIComponent(since)}&sort=${field}&order=${order}`,
          expected,
          [97],
        );
      }, 120_000);

  // A fragment of the sorted column itself, matching several of its counted values ('r': Camry
  // and Corolla; 'o': Toyota and Honda; 'driver1': 1,111 addresses of a row each): the page is
  // located through the values' counts in the sorted order, so pages that start inside a value,
  // straddle two, or cross hundreds must each be the rows' own.
  const onSortedColumn: [string, string, (r: Row) => string, (r: Row) => boolean][] = [
    ['model', 'r', (r) => r.model, (r) => /r/i.test(r.model)],
    ['make', 'o', (r) => (r.toyota ? 'Toyota' : 'Honda'), () => true],
    [
      'email',
      'driver1',
      (r) => `driver${r.id}@${r.toyota ? 'toyota' : 'honda'}.example.com`,
      (r) => String(r.id).startsWith('1'),
    ],
  ];
  for (const [field, fragment, key, matches] of onSortedColumn)
    for (const order of ['asc', 'desc'] as const)
      it(`pages '${fragment}' sorted by ${field} ${order}, the fragment's own column`, async () => {
        const sign = order === 'asc' ? 1 : -1;
        const expected = rows
          .filter(matches)
          .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id))
          .map((r) => r.id);
        await expectScanPages(
          t.app,
          headers,
          `${field}=${fragment}&sort=${field}&order=${order}`,
          expected,
          [29, 500],
        );
      }, 120_000);

  // 5,700 Toyota addresses: more matched values than countPlan lists (MAX_PAIR_VALUES), so the
  // total is summed by the database and, on PostgreSQL, the matches are found through the same
  // counted values; each row must still be among them exactly once.
  for (const order of ['asc', 'desc'] as const)
    it(`pages a fragment of ${ROWS * 0.75} addresses sorted by vin ${order}`, async () => {
      const sign = order === 'asc' ? 1 : -1;
      const expected = rows
        .filter((r) => r.toyota)
        .sort((a, b) => sign * (a.vin < b.vin ? -1 : a.vin > b.vin ? 1 : a.id - b.id))
        .map((r) => r.id);
      await expectScanPages(t.app, headers, `email=toyota.example&sort=vin&order=${order}`, expected, [100]);
    }, 120_000);

  // Oldest first: on SQLite a walk of the time-order index testing the address it holds.
  it(`pages a fragment of ${ROWS * 0.75} addresses oldest first`, async () => {
    const expected = rows.filter((r) => r.toyota).map((r) => r.id);
    await expectScanPages(
      t.app,
      headers,
      'email=toyota.example&sort=scan_start_time&order=asc',
      expected,
      [100],
    );
  }, 120_000);

  // Through writes (last: it adds rows): a fragment in the local part of ~5,400 of 7,000 addresses, whose
  // VINs sort after every other row's, so walking the VIN index meets none early and the walk
  // tests ids against the matches — on PostgreSQL found through the addresses' counters and 037's
  // trigram index. Addresses whose every row is deleted keep a counter of zero or none, which
  // that lookup skips (`t.n > 0`); the pages must still be the rows' own.
  // On PostgreSQL the surname's rows are found by their folded addresses (041): digits inside the
  // surname ('kum3ar') must not make a match, nor case keep one out.
  // SQLite lists the surname's ids from the trigram table (`trigramMatchIds`), whose case folding
  // goes beyond ASCII where LIKE's does not: 'Kumar' with a Kelvin sign is in the phrase's
  // matches, not in LIKE's, and must not be paged; 'zoë.kumar' is in both.
  const kumarAddress = (k: number) =>
    k % 5 === 1
      ? `kum${k % 10}ar.${k}@mail.example.com`
      : k % 7 === 3
        ? `\u212aumar.${k}@mail.example.com`
        : `${k % 3 === 0 ? 'KUMAR' : k % 11 === 4 ? 'zoë.kumar' : 'kumar'}.${k}@mail.example.com`;
  it('pages a local-part fragment sorted by vin and by id through deletes', async () => {
    const added: { id: number; vin: string }[] = [];
    // More than SEMI_JOIN_FROM (5,000) matches once the Kelvin signs and the deletes are out.
    for (let from = 0; from < 8_500; from += 500) {
      const batch = await t.db.kysely
        .insertInto('scans')
        .values(
          Array.from({ length: Math.min(500, 8_500 - from) }, (_, i) => {
            const k = from + i;
            return scan({
              email: kumarAddress(k),
              scan_start_time: new Date(Date.UTC(2026, 2, 1) + k * 60_000).toISOString(),
              make: 'Tata',
              model: 'Nexon',
              license_plate: `KA${String(k).padStart(4, '0')}`,
              vin: `ZZ${String((k * 7_919) % 7_000).padStart(8, '0')}`,
            });
          }),
        )
        .returning(['id', 'vin'])
        .execute();
      added.push(...batch.map((r) => ({ id: Number(r.id), vin: String(r.vin) })));
    }
    const gone = new Set(added.filter((_, k) => k % 27 === 0).map((r) => r.id));
    await t.db.kysely
      .deleteFrom('scans')
      .where('id', 'in', [...gone])
      .execute();
    // The dialect's own answer on the addresses (PostgreSQL's ILIKE folds the Kelvin sign too).
    const like = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const { rows: holding } = await sql<{
      id: number;
    }>`SELECT id FROM scans WHERE email ${like} '%kumar%'`.execute(t.db.kysely);
    const holds = new Set(holding.map((r) => Number(r.id)));
    const expected = added
      .filter((r) => !gone.has(r.id) && holds.has(r.id))
      .sort((a, b) => (a.vin < b.vin ? -1 : a.vin > b.vin ? 1 : a.id - b.id))
      .map((r) => r.id);
    await expectScanPages(t.app, headers, 'email=kumar&sort=vin&order=asc', expected, [100]);
    // Sorted by the key: on SQLite the trigram table's ids in their own order, the Kelvin signs
    // taken off.
    const byId = added
      .filter((r) => !gone.has(r.id) && holds.has(r.id))
      .map((r) => r.id)
      .sort((a, b) => b - a);
    await expectScanPages(t.app, headers, 'email=kumar&sort=id&order=desc', byId, [100]);
    await expectScanPages(t.app, headers, 'email=kumar&sort=id&order=asc', byId.toReversed(), [100]);
  }, 120_000);
});
