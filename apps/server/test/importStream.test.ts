import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCounts } from '../src/import/bulkPostgres.ts';
import { deferredBuilds } from '../src/import/deferredIndexes.ts';
import { type CellValue, csv, multipart } from './fixtures/uploads.ts';
import { createTestApp, DIALECTS, faultCodeIndexes, signedIn, type TestContext } from './helpers.ts';

/*
 * Issue 15 item 5: on PostgreSQL a one-sheet upload's rows go to COPY while the file is still
 * read (bulkPostgres.ts streamSheet) — straight into an empty table once 50,000 rows are held,
 * into the stage table when the table holds rows. The figures must stay exact whatever batch a
 * row falls in, and a failure after rows were sent must leave nothing written. The same uploads
 * run on SQLite, where they must answer the same.
 */
const HEADER = ['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'];
/** Row i of a file: unique (dtc, company) for i < 1,000,000 within `company`'s block. */
const row = (i: number, company = 40): CellValue[] => [
  `S${(i % 50_000).toString(16).toUpperCase().padStart(5, '0')}`,
  `Title ${i}`,
  1,
  1,
  i % 2 ? 'Honda' : 'Toyota',
  company + Math.floor(i / 50_000),
  'no',
];

describe.each(DIALECTS)('rows sent to COPY while the file is read, on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;

  const upload = async (rows: CellValue[][], raw?: Buffer) => {
    const body = multipart({}, { name: 'codes.csv', data: raw ?? csv([HEADER, ...rows]) });
    return t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
  };
  const count = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from fault_codes`.execute(t.db.kysely)).rows[0]?.n);
  const indexes = async () => {
    await deferredBuilds(t.db);
    return faultCodeIndexes(t);
  };
  /** A CSV of `rows` whose last line holds a NUL: the reader refuses it after every other row. */
  const failingAtTheEnd = (rows: CellValue[][]) =>
    Buffer.concat([csv([HEADER, ...rows]), Buffer.from('P0001,bad\u0000title,1,1,Honda,1,no\r\n')]);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
    await sql`delete from fault_codes`.execute(t.db.kysely);
  });
  afterAll(async () => {
    await deferredBuilds(t.db);
    await t.close();
  });

  it('a file that fails after 50,000 rows were sent into the empty table leaves it empty, indexes intact', async () => {
    const before = await indexes();
    const started = { ...streamCounts };
    const res = await upload([], failingAtTheEnd(Array.from({ length: 70_000 }, (_, i) => row(i))));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toMatch(/NUL character/);
    expect(await count()).toBe(0);
    expect(await indexes()).toEqual(before);
    if (dialect === 'postgres') {
      // The COPY had started: the failure came after rows were in the table's transaction.
      expect(streamCounts.started).toBeGreaterThan(started.started);
      const notes = await sql<{
        t: string | null;
      }>`select to_regclass('import_deferred_indexes')::text as t`.execute(t.db.kysely);
      if (notes.rows[0]?.t) {
        const left = await sql<{ n: string }>`select count(*) as n from import_deferred_indexes`.execute(
          t.db.kysely,
        );
        expect(Number(left.rows[0]?.n)).toBe(0);
      }
    }
  }, 120_000);

  it('counts an in-file duplicate exactly when its pair is split by the held rows and the batches', async () => {
    const before = await indexes();
    const started = { ...streamCounts };
    const rows = Array.from({ length: 70_000 }, (_, i) => row(i));
    rows[65_000] = row(5); // the first is in the held rows, the repeat in a batch sent later
    rows[52_345] = row(51_000); // both after the hold, in different batches (5,000 rows each)
    const res = await upload(rows);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({
      insertedCount: 69_998,
      totalRowsProcessed: 70_000,
      duplicates: { inFile: 2, inDatabase: 0 },
    });
    // Rows are numbered from the header's 1: index i is row i + 2.
    const reasons = res.json().errors.map((e: { row: number; reason: string }) => `${e.row}: ${e.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^52347: .*repeats row 51002 of this file/),
      expect.stringMatching(/^65002: .*repeats row 7 of this file/),
    ]);
    expect(await count()).toBe(69_998);
    // Ids follow the file's rows.
    const first = await t.db.kysely
      .selectFrom('fault_codes')
      .select('title')
      .orderBy('id')
      .limit(2)
      .execute();
    expect(first.map((r) => r.title)).toEqual(['Title 0', 'Title 1']);
    expect(await indexes()).toEqual(before);
    if (dialect === 'postgres') expect(streamCounts.table).toBe(started.table + 1);
  }, 120_000);

  it('into a table that holds rows: database and in-file duplicates exact across batches', async () => {
    const started = { ...streamCounts };
    // 60,000 new codes (company block 80) with three stored ones and one repeat among them.
    const rows = Array.from({ length: 60_000 }, (_, i) => row(i, 80));
    rows[1] = row(10); // stored (the previous test's row 12)
    rows[30_000] = row(30_000);
    rows[59_999] = row(69_999);
    rows[55_000] = row(40_000, 80); // repeats row 40,002 of this file
    const res = await upload(rows);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({
      insertedCount: 59_996,
      duplicates: { inFile: 1, inDatabase: 3 },
    });
    const reasons = res.json().errors.map((e: { row: number; reason: string }) => `${e.row}: ${e.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^3: .*already in the database/),
      expect.stringMatching(/^30002: .*already in the database/),
      expect.stringMatching(/^55002: .*repeats row 40002 of this file/),
      expect.stringMatching(/^60001: .*already in the database/),
    ]);
    expect(await count()).toBe(69_998 + 59_996);
    if (dialect === 'postgres') expect(streamCounts.stage).toBe(started.stage + 1);
  }, 120_000);

  it('a failure after every row went to the stage table leaves the stored rows as they were', async () => {
    const before = await count();
    const res = await upload([], failingAtTheEnd(Array.from({ length: 60_000 }, (_, i) => row(i, 200))));
    expect(res.statusCode, res.body).toBe(400);
    expect(await count()).toBe(before);
    const importId = res.json().importId as number | undefined;
    if (importId) {
      const record = await t.db.kysely
        .selectFrom('imports')
        .select('status')
        .where('id', '=', importId)
        .executeTakeFirst();
      expect(record?.status).toBe('failed');
    }
  }, 120_000);
});
