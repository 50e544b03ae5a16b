import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferredBuilds } from '../src/import/deferredIndexes.ts';
import { multipart, xlsx } from './fixtures/uploads.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

// Big enough for the bulk path of import/sheet.ts (indexes dropped and rebuilt on SQLite).
const ROWS = 60_000;

describe.each(DIALECTS)('a bulk import into an empty table on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;
  let file: Buffer;

  const upload = (query = '') => {
    const body = multipart({}, { name: 'codes.xlsx', data: file });
    return t.app.inject({
      method: 'POST',
      url: `/api/faultCodes${query}`,
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
    const codes = Array.from({ length: ROWS }, (_, i) => [
      `P${(i % 10_000).toString(16).toUpperCase().padStart(4, '0')}`,
      `Fault ${i}`,
      1 + (i % 3),
      1 + (i % 3),
      i % 2 ? 'Honda' : 'Toyota',
      Math.floor(i / 10_000) + 1,
      'no',
    ]);
    // Rows 60,002 to 60,004 repeat rows 2 to 4 (lower-case DTCs are the same codes).
    const repeats = codes.slice(0, 3).map(([dtc, ...rest]) => [String(dtc).toLowerCase(), ...rest]);
    const header = ['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'];
    file = await xlsx([{ name: 'Codes', rows: [header, ...codes, ...repeats] }]);
  });
  afterAll(() => t.close());

  it('previews the bulk load: the figures of the import, nothing written, every index as it was', async () => {
    const indexes = async () =>
      dialect === 'postgres'
        ? (
            await sql<{ n: number }>`select count(*) as n from pg_indexes where tablename = 'fault_codes'
              and schemaname = current_schema()`.execute(t.db.kysely)
          ).rows[0]?.n
        : (
            await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'index'
              and tbl_name = 'fault_codes'`.execute(t.db.kysely)
          ).rows[0]?.n;
    const before = Number(await indexes());
    // The list of the table goes on answering while the preview runs.
    const previewing = upload('?preview=true');
    let readsDuring = 0;
    let done = false;
    void previewing.finally(() => {
      done = true;
    });
    while (!done) {
      const read = await t.app.inject({ url: '/api/faultCodesList?dtc=P0001', headers: editor });
      expect(read.statusCode).toBe(200);
      readsDuring++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const res = await previewing;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().preview.sheets[0]).toMatchObject({
      newRows: ROWS,
      inFileDuplicates: 3,
      databaseDuplicates: 0,
    });
    expect(readsDuring).toBeGreaterThan(0);
    const { rows } = await sql<{ n: number }>`select count(*) as n from fault_codes`.execute(t.db.kysely);
    expect(Number(rows[0]?.n)).toBe(0);
    expect(Number(await indexes())).toBe(before);
  });

  it('imports every distinct code once and keeps the natural key unique', async () => {
    const res = await upload();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({
      insertedCount: ROWS,
      duplicates: { inFile: 3, inDatabase: 0 },
    });
    const { rows } = await sql<{ n: number }>`select count(*) as n from fault_codes`.execute(t.db.kysely);
    expect(Number(rows[0]?.n)).toBe(ROWS);
    // The key still refuses a stored (dtc, company_id), whatever the import did with its index.
    await expect(
      t.db.kysely.insertInto('fault_codes').values({ dtc: 'P0000', company_id: 1, generic: 0 }).execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    const list = await t.app.inject({ url: '/api/faultCodesList?dtc=P0001&make=toyota', headers: editor });
    expect(list.json().total).toBe(0); // P0001 rows are the odd ones: Honda
    const honda = await t.app.inject({ url: '/api/faultCodesList?dtc=P0001&make=honda', headers: editor });
    expect(honda.json().total).toBe(6);
  });

  it('finds every row of the same file already stored the second time', async () => {
    const res = await upload();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({
      insertedCount: 0,
      duplicates: { inFile: 3, inDatabase: ROWS },
    });
  });
});

describe.each(DIALECTS)('a bulk import into a table holding some of its rows on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
  });
  afterAll(() => t.close());

  it('counts in-file and database duplicates exactly and keeps every index', async () => {
    const indexes = async () =>
      dialect === 'postgres'
        ? (
            await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where tablename = 'fault_codes' and schemaname = current_schema() order by 1`.execute(
              t.db.kysely,
            )
          ).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index' and tbl_name = 'fault_codes' order by 1`.execute(
              t.db.kysely,
            )
          ).rows.map((r) => r.name);
    const before = await indexes();
    // 5,000 of the file's codes are stored already (company 1, P0000–P1387), and one that is not in it.
    const stored = Array.from({ length: 5000 }, (_, i) => ({
      dtc: `P${i.toString(16).toUpperCase().padStart(4, '0')}`,
      company_id: 1,
      generic: 0,
    }));
    for (let i = 0; i < stored.length; i += 1000)
      await t.db.kysely
        .insertInto('fault_codes')
        .values(stored.slice(i, i + 1000))
        .execute();
    await t.db.kysely.insertInto('fault_codes').values({ dtc: 'U9999', company_id: 1, generic: 0 }).execute();
    const codes = Array.from({ length: ROWS }, (_, i) => [
      `P${(i % 10_000).toString(16).toUpperCase().padStart(4, '0')}`,
      `Fault ${i}`,
      1,
      1,
      'Honda',
      Math.floor(i / 10_000) + 1,
      'no',
    ]);
    // Two rows repeat stored codes (they are in-file duplicates first: rows 2 and 3 came before).
    const repeats = [codes[0], codes[1], codes[9_999]] as (string | number)[][];
    const header = ['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'];
    const file = await xlsx([{ name: 'Codes', rows: [header, ...codes, ...repeats] }]);
    const body = multipart({}, { name: 'codes.xlsx', data: file });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({
      insertedCount: ROWS - 5000,
      duplicates: { inFile: 3, inDatabase: 5000 },
    });
    // The first problems are the database duplicates of rows 2… (in-file ones come at the end).
    expect(res.json().errors[0]).toMatchObject({
      row: 2,
      reason: 'P0000 (company 1) is already in the database',
    });
    const { rows } = await sql<{ n: number }>`select count(*) as n from fault_codes`.execute(t.db.kysely);
    expect(Number(rows[0]?.n)).toBe(ROWS + 1);
    // PostgreSQL builds the trigram indexes again after the commit (import/deferredIndexes.ts).
    await deferredBuilds(t.db);
    expect(await indexes()).toEqual(before);
    await expect(
      t.db.kysely.insertInto('fault_codes').values({ dtc: 'P0000', company_id: 2, generic: 0 }).execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});

describe.each(DIALECTS)('a bulk import whose stored rows come after its first new ones on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
  });
  afterAll(() => t.close());

  it('counts and lists the database duplicates of late batches exactly and keeps the key unique', async () => {
    // 1,500 codes of company 6 are stored: rows 50,002… of the file. On SQLite the natural key is
    // dropped after the first batch of new rows, once these are found (import/writeSqlite.ts).
    const stored = Array.from({ length: 1500 }, (_, i) => ({
      dtc: `P${(i * 3).toString(16).toUpperCase().padStart(4, '0')}`,
      company_id: 6,
      generic: 0,
    }));
    for (let i = 0; i < stored.length; i += 500)
      await t.db.kysely
        .insertInto('fault_codes')
        .values(stored.slice(i, i + 500))
        .execute();
    const codes = Array.from({ length: ROWS }, (_, i) => [
      `P${(i % 10_000).toString(16).toUpperCase().padStart(4, '0')}`,
      `Fault ${i}`,
      1,
      1,
      'Honda',
      Math.floor(i / 10_000) + 1,
      'no',
    ]);
    const header = ['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'];
    const body = multipart(
      {},
      { name: 'late.xlsx', data: await xlsx([{ name: 'Codes', rows: [header, ...codes] }]) },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({
      insertedCount: ROWS - 1500,
      duplicates: { inFile: 0, inDatabase: 1500 },
    });
    expect(res.json().errors.slice(0, 2)).toMatchObject([
      { row: 50_002, reason: 'P0000 (company 6) is already in the database' },
      { row: 50_005, reason: 'P0003 (company 6) is already in the database' },
    ]);
    // Every stored row is listed in the problems file, with its cells from the file.
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/imports/${res.json().importId}/problems`,
      headers: editor,
    });
    expect(link.statusCode).toBe(201);
    const problems = await t.db.kysely
      .selectFrom('import_problems')
      .select(['row'])
      .where('import_id', '=', res.json().importId)
      .orderBy('row')
      .execute();
    expect(problems.map((p) => Number(p.row))).toEqual(stored.map((_, i) => 50_002 + i * 3));
    const { rows } = await sql<{ n: number }>`select count(*) as n from fault_codes`.execute(t.db.kysely);
    expect(Number(rows[0]?.n)).toBe(ROWS);
    await deferredBuilds(t.db);
    await expect(
      t.db.kysely.insertInto('fault_codes').values({ dtc: 'P0001', company_id: 6, generic: 0 }).execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});
