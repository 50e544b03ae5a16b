import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens.ts';
import { insertFaultCodes } from './factories.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

describe.each(DIALECTS)('the export engine on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    // 2,345 rows: more than two export batches, so batching cannot hide a lost or repeated row.
    await insertFaultCodes(t.db, [
      { dtc: 'P0001', title: '=HYPERLINK("http://evil.example","click")', severity: 3, repair_difficulty: 1 },
      { dtc: 'P0002', title: 'Quote " and, comma\nnewline', severity: null, repair_difficulty: 7 },
      ...Array.from({ length: 2343 }, (_, i) => ({
        dtc: `P1${String(i).padStart(4, '0')}`,
        make: 'Honda',
        company_id: 21,
      })),
    ]);
  });
  afterAll(() => t.close());

  async function ticket(body: object) {
    return t.app.inject({ method: 'POST', url: '/api/exports', headers, payload: body });
  }
  async function download(body: object) {
    const res = await ticket(body);
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(/^\/api\/downloads\/[\w-]{43}$/);
    // The download itself carries no bearer header: the single-use link is the credential.
    return t.app.inject({ url });
  }

  it('streams every matching row as CSV with a BOM, display values and neutralised formulas', async () => {
    const res = await download({ list: 'faultCodes', format: 'csv', query: {} });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="Fault_Codes_All_All_\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows: string[][] = parse(res.rawPayload, { bom: true });
    expect(rows[0]).toEqual([
      'ID',
      'DTC',
      'Title',
      'Severity',
      'Repair Difficulty',
      'Make',
      'Company ID',
      'Generic',
    ]);
    expect(rows).toHaveLength(1 + 2345);
    expect(rows[1]?.slice(1)).toEqual([
      'P0001',
      `'=HYPERLINK("http://evil.example","click")`,
      'High',
      'Easy',
      '',
      '0',
      'Yes',
    ]);
    expect(rows[2]?.slice(2, 5)).toEqual(['Quote " and, comma\nnewline', '-', 'Unknown']);
    expect(rows.at(-1)?.slice(1)).toEqual([
      'P12342',
      'Title of P12342',
      'Medium',
      'Easy',
      'Honda',
      '21',
      'No',
    ]);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(2345);
  });

  it('applies the list filters to the export', async () => {
    const res = await download({ list: 'faultCodes', format: 'csv', query: { dtc: 'p0', make: '' } });
    expect(res.headers['content-disposition']).toContain('Fault_Codes_p0_All_');
    const rows: string[][] = parse(res.rawPayload, { bom: true });
    expect(rows.slice(1).map((r) => r[1])).toEqual(['P0001', 'P0002']);
  });

  it('writes an XLSX that an independent reader opens, with a text-marked formula cell', async () => {
    const res = await download({ list: 'faultCodes', format: 'xlsx', query: { generic: 'false' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/Fault_Codes_All_All_\d{4}-\d{2}-\d{2}\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Fault Codes');
    expect(sheet).toBeDefined();
    expect(sheet?.rowCount).toBe(1 + 2343);
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      'ID',
      'DTC',
      'Title',
      'Severity',
      'Repair Difficulty',
      'Make',
      'Company ID',
      'Generic',
    ]);
    expect(sheet?.getRow(2).values).toEqual([
      undefined,
      expect.any(Number),
      'P10000',
      'Title of P10000',
      'Medium',
      'Easy',
      'Honda',
      21,
      'No',
    ]);

    const all = await download({ list: 'faultCodes', format: 'xlsx', query: { dtc: 'P0001' } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(all.rawPayload as unknown as ArrayBuffer);
    const formulaCell = book.getWorksheet(1)?.getRow(2).getCell(3);
    expect(formulaCell?.value).toBe('=HYPERLINK("http://evil.example","click")');
    expect(formulaCell?.type).toBe(ExcelJS.ValueType.String);
    expect(formulaCell?.style.protection).toBeUndefined();
    expect(all.rawPayload.includes(Buffer.from('quotePrefix'))).toBe(false); // the sheet is compressed
  });

  it('honours a link once only, and not after it expires', async () => {
    const { url } = (await ticket({ list: 'faultCodes', format: 'csv', query: {} })).json();
    expect((await t.app.inject({ url })).statusCode).toBe(200);
    const again = await t.app.inject({ url });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toMatch(/expired or was already used/);

    const late = (await ticket({ list: 'faultCodes', format: 'csv', query: {} })).json();
    const token = late.url.split('/').pop();
    await t.db.kysely
      .updateTable('download_tickets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(token))
      .execute();
    expect((await t.app.inject({ url: late.url })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/downloads/made-up' })).statusCode).toBe(404);
  });

  it('answers HEAD without using the link up', async () => {
    const { url } = (await ticket({ list: 'faultCodes', format: 'csv', query: {} })).json();
    for (let i = 0; i < 2; i += 1) {
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(head.headers['content-disposition']).toMatch(/^attachment; filename="Fault_Codes_/);
      expect(head.rawPayload).toHaveLength(0);
    }
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeGreaterThan(1000);
    expect((await t.app.inject({ method: 'HEAD', url })).statusCode).toBe(404);
    expect((await t.app.inject({ url })).statusCode).toBe(404);
  });

  it('ends a link with the session that asked for it: after sign-out it is a 404', async () => {
    const other = await signedIn(t.db);
    const asked = (
      await t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: other.headers,
        payload: { list: 'faultCodes', format: 'csv', query: {} },
      })
    ).json();
    const kept = (
      await t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: other.headers,
        payload: { list: 'faultCodes', format: 'csv', query: {} },
      })
    ).json();
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: other.headers });
    expect(out.statusCode).toBeLessThan(300);
    const res = await t.app.inject({ url: asked.url });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/expired or was already used/);
    expect((await t.app.inject({ method: 'HEAD', url: kept.url })).statusCode).toBe(404);

    // A session that expired or went idle ends its links too.
    const idle = await signedIn(t.db);
    const idleLink = (
      await t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: idle.headers,
        payload: { list: 'faultCodes', format: 'csv', query: {} },
      })
    ).json();
    await t.db.kysely
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(idle.token))
      .execute();
    expect((await t.app.inject({ url: idleLink.url })).statusCode).toBe(404);
  });

  it('bounds the filters stored with a link: how many, and how long, with a 400 sentence', async () => {
    const many = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`f${i}`, 'x']));
    const tooMany = await ticket({ list: 'faultCodes', format: 'csv', query: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe('Invalid field "query": an export takes at most 40 filters.');
    const long = await ticket({ list: 'faultCodes', format: 'csv', query: { dtc: 'P'.repeat(1001) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe(
      'Invalid field "query.dtc": a filter value may be at most 1000 characters long; shorten it.',
    );
    const longName = await ticket({ list: 'faultCodes', format: 'csv', query: { ['k'.repeat(61)]: 'x' } });
    expect(longName.statusCode).toBe(400);
    expect(longName.json().error).toBe(
      'Invalid field "query": a filter name may be at most 60 characters long.',
    );
    expect(await t.db.kysely.selectFrom('download_tickets').select('params').execute()).not.toContainEqual(
      expect.objectContaining({ params: expect.stringContaining('P'.repeat(1001)) }),
    );
  });

  it('refuses an unknown list, format or filter with a 400 sentence', async () => {
    const unknown = await ticket({ list: 'nope', format: 'csv', query: {} });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('There is no export called "nope"');
    expect((await ticket({ list: 'faultCodes', format: 'pdf', query: {} })).statusCode).toBe(400);
    const badFilter = await ticket({ list: 'faultCodes', format: 'csv', query: { generic: 'maybe' } });
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().error).toContain('"generic"');
  });

  it('streams rows in the query order, with its parameters, as the objects a query returns', async () => {
    const query = t.db.kysely
      .selectFrom('fault_codes as a')
      .innerJoin('fault_codes as b', 'b.id', 'a.id')
      .select(['a.id', 'a.dtc', 'a.title', 'a.severity', 'b.id as other_id', 'b.make'])
      .where('a.dtc', '>=', 'P1')
      .orderBy('a.dtc', 'desc')
      .compile();
    const streamed: unknown[] = [];
    let batches = 0;
    for await (const batch of t.db.streamRows(query, 500)) {
      expect(batch.length).toBeLessThanOrEqual(500);
      batches += 1;
      streamed.push(...batch);
    }
    expect(batches).toBe(5);
    expect(streamed).toEqual(await t.db.kysely.executeQuery(query).then((r) => r.rows));
    expect(streamed[0]).toEqual({
      id: expect.any(Number),
      dtc: 'P12342',
      title: 'Title of P12342',
      severity: 2,
      other_id: expect.any(Number),
      make: 'Honda',
    });

    // Same-named columns: the later one wins, as in a query's own result.
    const twice = t.db.kysely
      .selectFrom('fault_codes as a')
      .innerJoin('fault_codes as b', 'b.id', 'a.id')
      .select(['a.dtc', 'b.dtc'])
      .where('a.dtc', '=', 'P0002')
      .compile();
    const all: unknown[] = [];
    for await (const batch of t.db.streamRows(twice)) all.push(...batch);
    expect(all).toEqual([{ dtc: 'P0002' }]);
  });

  it('stops reading when the consumer stops, and reports a failing query', async () => {
    const query = t.db.kysely.selectFrom('fault_codes').selectAll().orderBy('id').compile();
    const rows = t.db.streamRows(query, 100);
    const first = await rows.next();
    expect(first.value).toHaveLength(100);
    await rows.return(undefined);
    expect((await rows.next()).done).toBe(true);

    const broken = { ...query, sql: query.sql.replace('"fault_codes"', '"no_such_table"') };
    await expect(t.db.streamRows(broken).next()).rejects.toThrow(/no_such_table/);
  });
});
