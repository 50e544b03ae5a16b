import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTED_LISTS } from '../src/modules/operations/lists.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { expectScanPages } from './scanPages.ts';

/*
 * One filter whose values order the sorted column (`sortedWithin` in lists.ts): a VIN names its
 * make, a plate's and an address's form follow their country; and any filter on a sortable column
 * sorted by the key (its own sort index is (column, id, time) on SQLite). On SQLite the page is a
 * range of migration 050's (filter column, sorted column) index — one value's range in order,
 * several values' ranges read and sorted (sortedList.ts `valuesSortedWithin`); on PostgreSQL one
 * value's range of 053's (the same pairs, bar the time), else its carrying sort indexes walked.
 * Every page, both directions, must be the rows' own order: nulls first ascending and last
 * descending, ties (repeated VINs and plates) broken by the id.
 */
type Row = {
  id: number;
  country: number;
  make: string;
  vin: string | null;
  plate: string | null;
  email: string;
};

const COUNTRIES = [91, 91, 44, 1, 91, 49];
const MAKES = ['Toyota', 'Honda', 'Toyota Trucks', 'Honda', 'BMW'];
const WMI: Record<string, string> = { Toyota: 'JTD', 'Toyota Trucks': 'JTE', Honda: '1HG', BMW: 'WBA' };
const PLATE: Record<number, (i: number) => string> = {
  91: (i) => `MH ${String(i % 40).padStart(2, '0')} AB ${i % 97}`,
  44: (i) => `AB${i % 30} CDE`,
  1: (i) => `${i % 50}-XYZ`,
  49: (i) => `M-A ${i % 60}`,
};

function rowOf(i: number): Row {
  const country = COUNTRIES[i % COUNTRIES.length] as number;
  const make = MAKES[(i * 7) % MAKES.length] as string;
  return {
    id: i + 1,
    country,
    make,
    // Every ninth VIN is missing; VINs repeat every 150 rows of a make, so ties need the id.
    vin: i % 9 === 0 ? null : `${WMI[make]}${String((i * 37) % 150).padStart(6, '0')}`,
    plate: i % 11 === 0 ? null : (PLATE[country] as (i: number) => string)(i),
    email: `${country === 91 ? 'ravi.joshi' : 'john.smith'}${(i * 13) % 200}@example.com`,
  };
}

const compare = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;

describe.each(DIALECTS)('a filter whose values order the sorted column, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const rows = Array.from({ length: 900 }, (_, i) => rowOf(i));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    await t.db.kysely
      .insertInto('scans')
      .values(
        rows.map((r) => ({
          email: r.email,
          app_user_id: null,
          scan_start_time: new Date(Date.UTC(2026, 0, 1) + r.id * 60_000).toISOString(),
          scan_end_time: null,
          model: null,
          license_plate: r.plate,
          vin: r.vin,
          scan_ended: 1,
          make: r.make,
          country_id: r.country,
          function: 'Full Scan',
          type: 'OBD',
          app_version: '3.4.1',
          pdf_report: null,
          scan_res_array: '[]',
          decoded_array: '[]',
        })),
      )
      .execute();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, (r: Row) => boolean, string, (r: Row) => string | null][] = [
    // Several counted values: Toyota and Toyota Trucks.
    ['make=toyota', (r) => r.make.startsWith('Toyota'), 'vin', (r) => r.vin],
    // One value.
    ['make=hond', (r) => r.make === 'Honda', 'vin', (r) => r.vin],
    ['country_id=91', (r) => r.country === 91, 'license_plate', (r) => r.plate],
    ['country_id=44', (r) => r.country === 44, 'license_plate', (r) => r.plate],
    ['country_id=91', (r) => r.country === 91, 'email', (r) => r.email],
    ['country_id=1', (r) => r.country === 1, 'email', (r) => r.email],
    // Sorted by the key: the filter's column's own sort index (051's (column, id, time)).
    ['make=toyota', (r) => r.make.startsWith('Toyota'), 'id', (r) => String(r.id).padStart(6, '0')],
    ['make=hond', (r) => r.make === 'Honda', 'id', (r) => String(r.id).padStart(6, '0')],
    ['country_id=91', (r) => r.country === 91, 'id', (r) => String(r.id).padStart(6, '0')],
    // Sorted by the time, oldest first: the value-time indexes.
    [
      'make=toyota',
      (r) => r.make.startsWith('Toyota'),
      'scan_start_time',
      (r) => String(r.id).padStart(6, '0'),
    ],
    ['country_id=91', (r) => r.country === 91, 'scan_start_time', (r) => String(r.id).padStart(6, '0')],
  ];
  for (const [filter, holds, field, key] of cases)
    for (const order of ['asc', 'desc'] as const)
      it(`pages ${filter} sorted by ${field} ${order}`, async () => {
        const sign = order === 'asc' ? 1 : -1;
        const expected = rows
          .filter(holds)
          .sort((a, b) => sign * (compare(key(a), key(b)) || a.id - b.id))
          .map((r) => r.id);
        await expectScanPages(t.app, headers, `${filter}&sort=${field}&order=${order}`, expected, [7, 60]);
      }, 120_000);

  // Every pair the lists declare has its index, leading with the two columns (on PostgreSQL, 053's
  // and the value-time indexes of 003 and 025).
  it('has an index of each declared pair', async () => {
    for (const [table, list] of Object.entries(COUNTED_LISTS))
      for (const [filter, sorted] of Object.entries(
        list.counted.sortedWithin as Readonly<Record<string, readonly string[]>>,
      ))
        for (const column of sorted) {
          const { rows } =
            dialect === 'sqlite'
              ? await sql<{ name: string }>`
                  SELECT l.name FROM pragma_index_list(${table}) l
                  WHERE l.partial = 0
                    AND (SELECT name FROM pragma_index_xinfo(l.name) WHERE seqno = 0) = ${filter}
                    AND (SELECT name FROM pragma_index_xinfo(l.name) WHERE seqno = 1) = ${column}`.execute(
                  t.db.kysely,
                )
              : await sql<{ name: string }>`
                  SELECT i.indexrelid::regclass::text AS name FROM pg_index i
                    JOIN pg_class c ON c.oid = i.indrelid
                    JOIN pg_attribute a0 ON a0.attrelid = c.oid AND a0.attnum = i.indkey[0]
                    JOIN pg_attribute a1 ON a1.attrelid = c.oid AND a1.attnum = i.indkey[1]
                  WHERE c.relname = ${table} AND i.indpred IS NULL
                    AND a0.attname = ${filter} AND a1.attname = ${column}`.execute(t.db.kysely);
          expect(rows.length, `${table} (${filter}, ${column})`).toBeGreaterThan(0);
        }
  });

  // A write moves a row into and out of the ranges: the next pages follow it.
  it('follows a row moved to another make and country', async () => {
    const moved = rows.find((r) => r.make === 'Honda' && r.country === 44) as Row;
    await t.db.kysely
      .updateTable('scans')
      .set({ make: 'Toyota', country_id: 91 })
      .where('id', '=', moved.id)
      .execute();
    moved.make = 'Toyota';
    moved.country = 91;
    for (const [filter, holds, field, key] of [cases[0], cases[2]] as typeof cases) {
      const expected = rows
        .filter(holds)
        .sort((a, b) => -(compare(key(a), key(b)) || a.id - b.id))
        .map((r) => r.id);
      await expectScanPages(t.app, headers, `${filter}&sort=${field}&order=desc`, expected, [60]);
    }
  }, 120_000);
});
