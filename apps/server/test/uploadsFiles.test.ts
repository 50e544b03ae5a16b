import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkbook } from '../src/import/formats/open.ts';
import type { SheetRow } from '../src/import/formats/workbook.ts';
import { xlsxWorkerOptions } from '../src/import/formats/xlsx/workers.ts';
import { KeySet } from '../src/import/keySet.ts';
import {
  csv,
  fixtureFile,
  handWrittenWorkbook,
  multipart,
  scrambledSheet,
  truncated,
  xlsx,
  zip,
  zipBomb,
} from './fixtures/uploads.ts';
import { createTestApp, DIALECTS, ownTemporaryFolder, signedIn, type TestContext } from './helpers.ts';

const { dir: TMP, leftovers } = ownTemporaryFolder('obd-upload-files-test-');
const WORKER_MIN_BYTES = xlsxWorkerOptions.minBytes;

const DAMAGED_XLSX =
  /^The file is damaged: it could not be read as an Excel workbook \(\.xlsx\)( \(.*\))?\. Open it in Excel, save it again and retry\.$/;
const PASSWORD = 'The workbook is password-protected. Remove the password and retry.';
const WRONG_TYPE = 'This file is not an Excel workbook (.xlsx, .xls) or a CSV file. Upload one of those.';

describe.each(DIALECTS)('bad upload files on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  let goodWorkbook: Buffer;

  const upload = (url: string, name: string, data: Buffer, fields: Record<string, string> = {}) => {
    const body = multipart(fields, { name, data });
    return t.app.inject({
      method: 'POST',
      url,
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db, 'editor')).headers;
    goodWorkbook = await xlsx([
      {
        name: 'Codes',
        rows: [
          ['ActivationCode', 'Plan'],
          ['GOOD-1', 'Pro'],
        ],
      },
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, () => Promise<Buffer> | Buffer, string | RegExp, string?][] = [
    ['a truncated workbook', () => truncated(goodWorkbook), DAMAGED_XLSX],
    ['a workbook whose sheet data is scrambled', scrambledSheet, DAMAGED_XLSX],
    [
      'a zip bomb',
      () => zipBomb(64),
      'The workbook expands to far more data than a spreadsheet of its size can hold (a zip bomb?), so it was not read.',
    ],
    ['a password-protected .xlsx', () => fixtureFile('encrypted.xlsx'), PASSWORD],
    ['a password-protected .xls', () => fixtureFile('encrypted.xls'), PASSWORD],
    [
      'a zip that is not a workbook',
      () => zip({ 'readme.txt': 'hello' }),
      'This zip file is not an Excel workbook: it has no workbook part.',
    ],
    [
      'a PNG image',
      () => Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
      WRONG_TYPE,
    ],
    [
      'a workbook with only a header row',
      () => xlsx([{ name: 'Codes', rows: [['ActivationCode', 'Plan']] }]),
      "The sheet 'Codes' has no data rows: it is empty or holds only its header row.",
    ],
    [
      'an empty worksheet',
      () => xlsx([{ name: 'Codes', rows: [] }]),
      "The sheet 'Codes' has no data rows: it is empty or holds only its header row.",
    ],
    [
      'a CSV without the code column',
      () =>
        csv([
          ['Plan', 'Vehicle'],
          ['Pro', 'Car'],
        ]),
      "The sheet 'file' has no 'ActivationCode' column. Its first row holds 'Plan', 'Vehicle'. Put the column names in the first row.",
    ],
  ];

  for (const [what, make, message] of cases) {
    it(`answers ${what} with 400 and a sentence, writes nothing and records the failure`, async () => {
      const res = await upload('/api/uplodeactivationcode', 'file.xlsx', await make());
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json();
      expect(body.code).toBe('BAD_REQUEST');
      expect(body.message).toBe(body.error);
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
      const stored = await t.db.kysely.selectFrom('activation_codes').select('code').execute();
      expect(stored).toEqual([]);
      const record = await t.app.inject({ url: `/api/imports/${body.importId}`, headers });
      expect(record.json()).toMatchObject({
        status: 'failed',
        message: body.message,
        kind: 'activation_codes',
      });
      expect(leftovers()).toEqual([]);
    });
  }

  it('answers the same for a damaged sheet or a zip bomb read in a worker thread', async () => {
    xlsxWorkerOptions.minBytes = 0;
    try {
      for (const [make, message] of [
        [scrambledSheet, DAMAGED_XLSX],
        [() => zipBomb(64), /zip bomb/],
      ] as const) {
        const res = await upload('/api/uplodeactivationcode', 'file.xlsx', await make());
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toMatch(message);
      }
      const stored = await t.db.kysely.selectFrom('activation_codes').select('code').execute();
      expect(stored).toEqual([]);
      expect(leftovers()).toEqual([]);
    } finally {
      xlsxWorkerOptions.minBytes = WORKER_MIN_BYTES;
    }
  });

  it('answers an empty file, a missing file field, two files and a non-multipart body with 400', async () => {
    const empty = await upload('/api/uplodeactivationcode', 'empty.csv', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The file is empty.');

    const noFile = multipart({ sheetName: 'Honda' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/UpdatesCommands',
      payload: noFile.payload,
      headers: { ...headers, ...noFile.headers },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Choose a file to upload: the request has no field named "file".');

    const wrongField = multipart({}, { name: 'a.csv', data: csv([['code'], ['A']]), field: 'upload' });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/uplodeactivationcode',
      payload: wrongField.payload,
      headers: { ...headers, ...wrongField.headers },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Send exactly one file, in the field named "file".');

    const json = await t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: { file: 'x' },
      headers,
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({
      error: 'Send the file as multipart/form-data, in a field named "file".',
      message: 'Send the file as multipart/form-data, in a field named "file".',
      code: 'BAD_REQUEST',
      importId: expect.any(Number),
      errors: [],
    });
    expect(leftovers()).toEqual([]);
    // Every refused upload is in the history too.
    for (const [answer, kind] of [
      [empty, 'activation_codes'],
      [res, 'update_commands'],
      [wrong, 'activation_codes'],
      [json, 'fault_codes'],
    ] as const) {
      const record = await t.app.inject({ url: `/api/imports/${answer.json().importId}`, headers });
      expect(record.json()).toMatchObject({
        status: 'failed',
        kind,
        message: answer.json().message,
        errors: [],
      });
    }
  });

  it('applies each endpoint its own size limit: 11 MB is too big for update commands, not for the fault importer', async () => {
    const data = Buffer.alloc(11 * 1024 * 1024, 0);
    const commands = await upload('/api/UpdatesCommands', 'big.bin', data, { sheetName: 'Honda' });
    expect(commands.statusCode).toBe(413);
    expect(commands.json().message).toBe(
      'The file is larger than the 10 MB this upload accepts, so nothing was imported. Split it into smaller files.',
    );
    const refused = await t.app.inject({ url: `/api/imports/${commands.json().importId}`, headers });
    expect(refused.json()).toMatchObject({
      status: 'failed',
      kind: 'update_commands',
      fileName: 'big.bin',
      message: commands.json().message,
    });
    expect(refused.json().fileSize).toBeGreaterThan(10 * 1024 * 1024);
    const badField = await upload('/api/UpdatesCommands', 'c.csv', csv([['command'], ['x']]), {
      sheetName: 'Nowhere',
    });
    expect(badField.statusCode).toBe(400);
    const listed = await t.app.inject({
      url: '/api/imports?kind=update_commands&status=failed&limit=5',
      headers,
    });
    expect(listed.json().data[0]).toMatchObject({
      id: badField.json().importId,
      fileName: 'c.csv',
      message: badField.json().message,
    });
    const faults = await upload('/api/faultCodes', 'big.bin', data);
    expect(faults.statusCode).toBe(400);
    expect(faults.json().message).toBe(WRONG_TYPE);
    expect(leftovers()).toEqual([]);
  });
});

describe('spreadsheet readers', () => {
  const read = async (file: Buffer, name = 'file.xlsx') => {
    const target = path.join(TMP, `reader-${Math.random().toString(36).slice(2)}-${name}`);
    fs.writeFileSync(target, file);
    const workbook = await openWorkbook(target, name, ['xlsx', 'xls', 'csv']);
    const sheets: Record<string, SheetRow[]> = {};
    for (const sheet of workbook.sheetNames) {
      const rows: SheetRow[] = [];
      for await (const batch of workbook.read(sheet).rows) rows.push(...batch);
      sheets[sheet] = rows.map((r) => ({ row: r.row, cells: Array.from(r.cells, (c) => c ?? '') }));
    }
    await workbook.close();
    fs.rmSync(target);
    return sheets;
  };

  it('reads namespace prefixes, cells without references, rich and phonetic text, entities and escapes', async () => {
    const strings = `<?xml version="1.0" encoding="UTF-8"?><x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3" uniqueCount="3"><x:si><x:t>DTC</x:t></x:si><x:si><x:r><x:rPr><x:b/></x:rPr><x:t xml:space="preserve">Rich </x:t></x:r><x:r><x:t>text</x:t></x:r><x:rPh sb="0" eb="1"><x:t>PHONETIC</x:t></x:rPh></x:si><x:si><x:t>caf&#233; &amp; &#x41;&lt;b&gt;_x000D_&#10;end _x005F_x0041_</x:t></x:si></x:sst>`;
    const sheet = `<?xml version="1.0" encoding="UTF-8"?>
<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">
  <x:dimension ref="A1:E4"/>
  <x:sheetData>
    <x:row r="1"><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c r="E1" t="inlineStr"><x:is><x:t>Last</x:t></x:is></x:c></x:row>
    <!-- a comment between rows -->
    <x:row r="3" spans="1:5">
      <x:c r="A3" t="s"><x:v>2</x:v></x:c>
      <x:c r="B3" s="4"/>
      <x:c r="C3"><x:f>1+1</x:f><x:v>2</x:v></x:c>
      <x:c r="D3" t="b"><x:v>1</x:v></x:c>
      <x:c r="E3" t="str"><x:f t="shared" si="0"/><x:v>formula &amp; text</x:v></x:c>
    </x:row>
    <x:row><x:c r="B4" t="inlineStr"><x:is><x:r><x:t>in</x:t></x:r><x:r><x:t>line</x:t></x:r></x:is></x:c><x:c r="AA4"><x:v>3.5</x:v></x:c></x:row>
    <x:row r="6"><x:c r="A6" t="s"/></x:row>
  </x:sheetData>
  <x:extLst><x:ext><xm:f>Sheet1!A1</xm:f></x:ext></x:extLst>
</x:worksheet>`;
    const sheets = await read(await handWrittenWorkbook(sheet, strings, 'Odd &amp; prefixed'));
    const rows = sheets['Odd & prefixed'] as SheetRow[];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({ row: 1, cells: ['DTC', 'Rich text', '', '', 'Last'] });
    expect(rows[1]).toEqual({
      row: 3,
      cells: ['café & A<b>\r\nend _x0041_', '', '2', 'TRUE', 'formula & text'],
    });
    expect(rows[2]?.row).toBe(4);
    expect(rows[2]?.cells[1]).toBe('inline');
    expect(rows[2]?.cells[26]).toBe('3.5');
  });

  it('reads the same rows from an ExcelJS workbook with shared strings and with inline strings', async () => {
    const data = [
      ['Code', 'Text', 'Number'],
      ['A-1', 'Ünïcødé ✓ & <tags>', 42],
      ['A-2', '  spaced  ', 1.25],
      ['A-3', null, -7],
      ['A-4', 'line\nbreak', 0],
    ];
    const expected = data.map((cells, i) => ({
      row: i + 1,
      cells: cells.map((c) => (c === null ? '' : String(c))),
    }));
    for (const inline of [false, true]) {
      const sheets = await read(await xlsx([{ name: 'S', rows: data }], { inline }));
      expect(sheets.S).toEqual(expected);
    }
  });

  it('reads the same rows in a worker thread as on the main thread, whatever the cell text', async () => {
    const data = [
      ['Code', 'Text', 'Number'],
      ['A-1', 'Ünïcødé ✓ & <tags> \u001f\u001e', 42],
      ['A-2', '', 1.25],
      ['A-3', null, -7],
      ...Array.from({ length: 12_000 }, (_, i) => [`B-${i}`, `text ${i % 7}`, i]),
    ];
    for (const inline of [false, true]) {
      const file = await xlsx([{ name: 'S', rows: data }], { inline });
      const onMain = await read(file);
      xlsxWorkerOptions.minBytes = 0;
      const reads = xlsxWorkerOptions.reads;
      try {
        expect(await read(file)).toEqual(onMain);
        expect(xlsxWorkerOptions.reads).toBe(reads + 1);
      } finally {
        xlsxWorkerOptions.minBytes = WORKER_MIN_BYTES;
      }
      expect(onMain.S).toHaveLength(data.length);
    }
  });

  it('reads CSV in UTF-8 with BOM, in Windows-1252 and in UTF-16, with quoted fields over lines', async () => {
    const rows = [
      ['Code', 'Vehicle'],
      ['É-1', 'Größe, "XL"'],
      ['É-2', 'two\nlines'],
    ];
    const expected = rows.map((cells, i) => ({ row: i + 1, cells }));
    const utf8 = csv(rows, { bom: true });
    expect((await read(utf8, 'a.csv')).a).toEqual(expected);
    const latin1 = Buffer.from(csv(rows).toString('utf8'), 'latin1');
    expect((await read(latin1, 'b.csv')).b).toEqual(expected);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(csv(rows, { delimiter: '\t' }).toString('utf8'), 'utf16le'),
    ]);
    expect((await read(utf16, 'c.csv')).c).toEqual(expected);
  });

  it('keeps keys exactly, whatever their characters', () => {
    const keys = new KeySet();
    const key = (i: number) => `${i % 3 === 0 ? 'Ω' : 'P'}${i}\u0000${i % 7}\u0000`;
    for (let i = 0; i < 100_000; i++) expect(keys.add(key(i), i + 2)).toBe(-1);
    for (let i = 0; i < 100_000; i += 997) expect(keys.add(key(i), 1_000_000)).toBe(i + 2);
    expect(keys.add('Ω1\u00001\u0000', 5)).toBe(-1); // differs from key(1) only in its first character
    expect(keys.add('\u0080', 6)).toBe(-1);
    expect(keys.add('\u0100', 7)).toBe(-1);
    expect(keys.add('\u0080', 8)).toBe(6);
    expect(keys.size).toBe(100_003);
  });
});
