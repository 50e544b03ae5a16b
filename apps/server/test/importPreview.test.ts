import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, multipart, xlsx } from './fixtures/uploads.ts';
import {
  createTestApp,
  DIALECTS,
  ownTemporaryFolder,
  secondServer,
  signedIn,
  type TestContext,
} from './helpers.ts';

const { leftovers } = ownTemporaryFolder('obd-preview-test-');

describe.each(DIALECTS)('import preview, problems file and mapping on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;
  let other: Record<string, string>;
  let admin: Record<string, string>;

  const post = (
    url: string,
    file: { name: string; data: Buffer },
    fields: Record<string, string> = {},
    as = editor,
    app: FastifyInstance = t.app,
  ) => {
    const body = multipart(fields, file);
    return app.inject({ method: 'POST', url, payload: body.payload, headers: { ...as, ...body.headers } });
  };
  const count = async (table: string) =>
    Number(
      (await sql.raw<{ n: number }>(`select count(*) as n from ${table}`).execute(t.db.kysely)).rows[0]?.n,
    );
  const commit = (id: number, as = editor, app: FastifyInstance = t.app) =>
    app.inject({ method: 'POST', url: `/api/imports/${id}/commit`, headers: as });
  const cancel = (id: number, as = editor) =>
    t.app.inject({ method: 'DELETE', url: `/api/imports/${id}`, headers: as });

  /** Asks for the problems link and downloads it; the rows as ExcelJS reads them. */
  async function problemsFile(id: number) {
    const link = await t.app.inject({ method: 'POST', url: `/api/imports/${id}/problems`, headers: editor });
    expect(link.statusCode).toBe(201);
    const res = await t.app.inject({ url: link.json().url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    // Single use.
    expect((await t.app.inject({ url: link.json().url })).statusCode).toBe(404);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: (string | number | null)[][] = [];
    sheet?.eachRow((row) => {
      const values = (row.values as unknown[]).slice(1).map((v) => (v === undefined ? null : (v as string)));
      rows.push(values);
    });
    return rows;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
    other = (await signedIn(t.db, 'editor')).headers;
    admin = (await signedIn(t.db, 'admin')).headers;
    await t.db.kysely
      .insertInto('fault_codes')
      .values({
        dtc: 'P0420',
        company_id: 21,
        make: 'Honda',
        generic: 0,
        title: 'Stored',
        severity: 2,
        repair_difficulty: 2,
      })
      .execute();
  });
  afterAll(async () => {
    await t.close();
  });

  const faultSheet = async (tag: string) =>
    xlsx([
      {
        name: 'codes',
        rows: [
          ['DTC', 'Title', 'Severity', 'Company ID'],
          [`${tag}1`, 'One', 1, 21], // row 2: new
          [`${tag}2`, 'Two', 9, 21], // row 3: severity out of range
          [`${tag}1`, 'Again', 1, 21], // row 4: repeats row 2
          ['P0420', 'Stored', 2, 21], // row 5: already in the database
          [`${tag}3`, 'Three', 2, 21], // row 6: new
        ],
      },
    ]);

  it('a preview writes nothing, and importing it gives the same figures without a second upload', async () => {
    const before = await count('fault_codes');
    const preview = await post('/api/faultCodes?preview=true', {
      name: 'codes.xlsx',
      data: await faultSheet('PV'),
    });
    expect(preview.statusCode).toBe(200);
    const body = preview.json();
    expect(body.preview.sheets).toEqual([
      {
        sheet: 'codes',
        totalRows: 5,
        newRows: 2,
        inFileDuplicates: 1,
        databaseDuplicates: 1,
        invalidRows: 1,
      },
    ]);
    expect(body.message).toMatch(/^Nothing was written yet/);
    expect(await count('fault_codes')).toBe(before);
    // Kept for the import: its folder is still there.
    expect(leftovers()).toHaveLength(1);
    const history = await t.app.inject({ url: '/api/imports?status=preview', headers: editor });
    expect(history.json().data.map((r: { id: number }) => r.id)).toContain(body.importId);

    const done = await commit(body.importId);
    expect(done.statusCode).toBe(200);
    const result = done.json();
    expect(result.importId).toBe(body.importId);
    expect(result.stats.insertedCount).toBe(2);
    expect(result.stats.duplicates).toEqual(body.stats.duplicates);
    expect(result.stats.invalidCount).toBe(body.stats.invalidCount);
    expect(result.previewChanged).toBeUndefined();
    expect(await count('fault_codes')).toBe(before + 2);
    expect(leftovers()).toEqual([]);
    // Imported once only: a second commit is refused.
    expect((await commit(body.importId)).statusCode).toBe(409);
    expect(await count('fault_codes')).toBe(before + 2);
  });

  it('a preview whose database changed meanwhile says how its import differs', async () => {
    const preview = await post('/api/faultCodes?preview=true', {
      name: 'codes.xlsx',
      data: await faultSheet('CH'),
    });
    await t.db.kysely
      .insertInto('fault_codes')
      .values({
        dtc: 'CH3',
        company_id: 21,
        make: null,
        generic: 0,
        title: 'Meanwhile',
        severity: 1,
        repair_difficulty: 1,
      })
      .execute();
    const done = await commit(preview.json().importId);
    expect(done.statusCode).toBe(200);
    expect(done.json().stats.insertedCount).toBe(1);
    expect(done.json().previewChanged).toMatch(/insertedCount 2 → 1/);
  });

  it('a cancelled or expired preview answers 410; only its operator or an admin may act on it', async () => {
    const a = (
      await post('/api/faultCodes?preview=true', { name: 'a.xlsx', data: await faultSheet('CA') })
    ).json();
    expect((await commit(a.importId, other)).statusCode).toBe(403);
    expect((await cancel(a.importId, other)).statusCode).toBe(403);
    expect((await cancel(a.importId)).statusCode).toBe(200);
    const gone = await commit(a.importId);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error).toMatch(/was cancelled/);
    expect(leftovers()).toEqual([]);

    const b = (
      await post('/api/faultCodes?preview=true', { name: 'b.xlsx', data: await faultSheet('EX') })
    ).json();
    await t.db.kysely
      .updateTable('imports')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', b.importId)
      .execute();
    const expired = await commit(b.importId, admin);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toMatch(/expired/);
    expect(leftovers()).toEqual([]);
    expect((await commit(999999)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/imports/abc/commit', headers: editor })).statusCode,
    ).toBe(400);
  });

  it('a preview whose file is gone (the server restarted) answers 410; problems of unknown imports are 404s', async () => {
    const p = (
      await post('/api/faultCodes?preview=true', { name: 'g.xlsx', data: await faultSheet('GO') })
    ).json();
    const kept = await t.db.kysely
      .selectFrom('imports')
      .select('preview_path')
      .where('id', '=', p.importId)
      .executeTakeFirstOrThrow();
    // As the sweep of a restarted server would.
    fs.rmSync(path.dirname(kept.preview_path as string), { recursive: true, force: true });
    const gone = await commit(p.importId);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error).toMatch(/no longer on this server/);
    expect((await commit(p.importId)).statusCode).toBe(410);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/imports/999999/problems', headers: editor }))
        .statusCode,
    ).toBe(404);
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/imports/${p.importId}/problems`,
      headers: editor,
    });
    // A link is for its import only, and a made-up ticket is nothing.
    expect((await t.app.inject({ url: link.json().url.replace(`/${p.importId}/`, '/1/') })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ url: `/api/imports/${p.importId}/problems?ticket=nope` })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ url: `/api/imports/${p.importId}/problems` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/imports/999999', headers: editor })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/faultCodes?preview=maybe', method: 'POST', headers: editor }))
        .statusCode,
    ).toBe(400);
  });

  it('two servers committing and cancelling one preview at once import it at most once', async () => {
    const second = await secondServer(t);
    try {
      const before = await count('fault_codes');
      const p = (
        await post('/api/faultCodes?preview=true', { name: 'r.xlsx', data: await faultSheet('RC') })
      ).json();
      const answers = await Promise.all([
        commit(p.importId),
        commit(p.importId, editor, second),
        cancel(p.importId),
      ]);
      const ok = answers.filter((r) => r.statusCode === 200);
      expect(ok.length).toBe(1);
      for (const r of answers) expect([200, 409, 410]).toContain(r.statusCode);
      const added = (await count('fault_codes')) - before;
      // Either the import won (2 rows) or the cancel did (nothing).
      expect([0, 2]).toContain(added);
      expect(leftovers()).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('the problems file lists every problem row as the file had it, with Sheet, Row and Problem', async () => {
    const res = await post('/api/faultCodes', { name: 'codes.xlsx', data: await faultSheet('PF') });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const rows = await problemsFile(body.importId);
    expect(rows[0]).toEqual(['DTC', 'Title', 'Severity', 'Company ID', 'Sheet', 'Row', 'Problem']);
    const problems = rows.slice(1);
    expect(problems.map((r) => [r[4], r[5], r[6]])).toEqual(
      body.errors.map((e: { sheet: string; row: number; reason: string }) => [e.sheet, e.row, e.reason]),
    );
    expect(problems.map((r) => r.slice(0, 4))).toEqual([
      ['PF2', 'Two', '9', '21'],
      ['PF1', 'Again', '1', '21'],
      ['P0420', 'Stored', '2', '21'],
    ]);
  });

  it('the problems file holds all problems, past the 100 an answer lists', async () => {
    const codes: (string | number)[][] = [['ActivationCode', 'Plan', 'Duration', 'Vehicle']];
    for (let i = 0; i < 150; i++) codes.push([`ALL-${i}`, 'basic', '1y', 'car']);
    for (let i = 0; i < 150; i++) codes.push([`ALL-${i}`, 'basic', '1y', 'car']); // in-file repeats
    const first = await post('/api/uplodeactivationcode', {
      name: 'all.csv',
      data: csv(codes.slice(0, 101)),
    });
    expect(first.statusCode).toBe(200);
    const res = await post('/api/uplodeactivationcode', { name: 'all2.csv', data: csv(codes) });
    const body = res.json();
    expect(body.errors).toHaveLength(100);
    const rows = await problemsFile(body.importId);
    expect(rows.length - 1).toBe(body.duplicates.inFile + body.duplicates.inDatabase + body.invalidRows);
    expect(rows.length - 1).toBe(250);
    // Database duplicates keep their cells too.
    expect(rows.filter((r) => /already in the database/.test(String(r[6])))[0]?.slice(0, 4)).toEqual([
      'ALL-0',
      'basic',
      '1y',
      'car',
    ]);
  });

  it('a missing column answers the headers and fields to map; the mapping is applied and offered next time', async () => {
    const data = csv([
      ['Kode', 'Plan', 'Duration', 'Vehicle'],
      ['MAP-1', 'basic', '1y', 'car'],
    ]);
    const missing = await post('/api/uplodeactivationcode', { name: 'm.csv', data });
    expect(missing.statusCode).toBe(400);
    const mapping = missing.json().mapping;
    expect(mapping.headers).toEqual(['Kode', 'Plan', 'Duration', 'Vehicle']);
    expect(mapping.missing).toEqual([{ key: 'code', label: 'ActivationCode', required: true }]);
    expect(mapping.remembered).toBeNull();

    const mapped = await post(
      '/api/uplodeactivationcode',
      { name: 'm.csv', data },
      { mapping: '{"code":"Kode"}' },
    );
    expect(mapped.statusCode).toBe(200);
    expect(mapped.json().importedRows).toBe(1);

    const again = csv([
      ['vehicle', 'KODE', 'plan', 'duration'],
      ['car', 'MAP-2', 'basic', '1y'],
    ]);
    const offered = await post('/api/uplodeactivationcode', { name: 'm2.csv', data: again });
    expect(offered.statusCode).toBe(400);
    expect(offered.json().mapping.remembered).toEqual({ code: 'Kode' });
  });

  it('hostile mappings are 400s with a sentence', async () => {
    const data = csv([
      ['Kode', 'Plan', 'Duration', 'Vehicle'],
      ['HM-1', 'basic', '1y', 'car'],
    ]);
    for (const [mapping, sentence] of [
      ['{not json', /must be JSON/],
      ['[1,2]', /JSON object/],
      ['{"code": 5}', /not valid/],
      ['{"code": "Nope"}', /does not have/],
      ['{"code": "Kode", "plan": "kode"}', /same column/],
      [
        JSON.stringify(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, `h${i}`]))),
        /at most 40/,
      ],
      ['{"__proto__": "Kode"}', /ActivationCode/],
    ] as const) {
      const res = await post('/api/uplodeactivationcode', { name: 'h.csv', data }, { mapping });
      expect(res.statusCode, mapping).toBe(400);
      expect(res.json().error, mapping).toMatch(sentence);
    }
    expect(leftovers()).toEqual([]);
  });
});
