import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failInterruptedImports } from '../src/import/record.ts';
import { csv, fixtureFile, multipart, xlsx } from './fixtures/uploads.ts';
import { createTestApp, DIALECTS, ownTemporaryFolder, signedIn, type TestContext } from './helpers.ts';

// Every upload's temporary files go to a folder of this test file, so "nothing left behind" is exact.
const { leftovers } = ownTemporaryFolder('obd-uploads-test-');

describe.each(DIALECTS)('uploads on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;
  let viewer: Record<string, string>;

  const upload = (
    url: string,
    file: { name: string; data: Buffer } | undefined,
    fields: Record<string, string> = {},
    as = editor,
  ) => {
    const body = multipart(fields, file);
    return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...as, ...body.headers } });
  };
  const get = (url: string) => t.app.inject({ url, headers: editor });
  const rows = <T = Record<string, unknown>>(query: string) =>
    sql
      .raw<T>(query)
      .execute(t.db.kysely)
      .then((r) => r.rows as T[]);
  const count = async (table: string) =>
    Number((await rows<{ n: number }>(`select count(*) as n from ${table}`))[0]?.n);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
    viewer = (await signedIn(t.db, 'viewer')).headers;
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    expect(leftovers()).toEqual([]);
  });

  describe('POST /api/faultCodes', () => {
    beforeAll(async () => {
      await t.db.kysely
        .insertInto('fault_codes')
        .values({
          dtc: 'P0420',
          company_id: 21,
          make: 'Honda',
          generic: 0,
          title: 'Stored before',
          severity: 2,
          repair_difficulty: 2,
        })
        .execute();
    });

    const header = [
      'dtc',
      ' TITLE ',
      'severity',
      'REPAIR_DIFFICULTY',
      'make',
      'Company-ID',
      'is generic',
      'notes',
    ];
    const sheetRows = [
      header,
      ['p0300', 'Random misfire & "more"', 3, 2, 'Honda', 21, 'yes', 'x'], // row 2: imported, DTC upper-cased
      ['P0301', 'Cylinder 1 misfire', 7, 2, 'Honda', 21, 'no'], // row 3: severity out of range
      [null, 'No code', 1, 1, 'Honda', 21, 'no'], // row 4: DTC missing
      ['P0300', 'Repeat', 3, 2, 'Honda', 21, 'no'], // row 5: repeats row 2
      ['P0420', 'Catalyst', 2, 6, 'Honda', 21, 'no'], // row 6: difficulty out of range
      ['P0420', 'Catalyst', 2, 3, 'Honda', 21, 'no'], // row 7: already in the database
      [null, null, null, null, null, null, null, 'only a note'], // row 8: blank for the import
      ['U0100', 'Lost communication', null, null, null, 987654321, 'T'], // row 9: any company id, empty scales
      ['B0001', 'Airbag', 1, '5.0', 'Toyota', '', 'maybe'], // row 10: bad generic flag
    ];
    const expectedErrors = [
      { sheet: 'Codes', row: 3, reason: "Severity must be a whole number from 1 to 5, not '7'" },
      { sheet: 'Codes', row: 4, reason: 'DTC is empty' },
      { sheet: 'Codes', row: 5, reason: 'P0300 (company 21) repeats row 2 of this file' },
      { sheet: 'Codes', row: 6, reason: "Repair Difficulty must be a whole number from 1 to 5, not '6'" },
      { sheet: 'Codes', row: 7, reason: 'P0420 (company 21) is already in the database' },
      { sheet: 'Codes', row: 10, reason: "Generic must be yes or no (1/0, true/false), not 'maybe'" },
    ];

    for (const variant of ['shared strings', 'inline strings'] as const) {
      it(`imports a workbook with ${variant}, reporting invalid rows and both kinds of duplicate by row`, async () => {
        await t.db.kysely.deleteFrom('fault_codes').where('dtc', 'in', ['P0300', 'U0100']).execute();
        const data = await xlsx([{ name: 'Codes', rows: sheetRows }], {
          inline: variant === 'inline strings',
        });
        const res = await upload('/api/faultCodes', { name: 'codes.xlsx', data });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body.stats).toMatchObject({
          insertedCount: 2,
          skippedCount: 6,
          totalRowsProcessed: 8,
          worksheetName: 'Codes',
          companyId: null,
          invalidCount: 4,
          duplicates: { inFile: 1, inDatabase: 1 },
        });
        expect(body.stats.processingTimeMs).toBeGreaterThanOrEqual(0);
        expect(body.stats.rowsPerSecond).toBeGreaterThan(0);
        expect(body.message).toContain('Imported 2 fault codes');
        expect(body.errors).toEqual(expectedErrors);
        expect(typeof body.importId).toBe('number');
        const stored = await rows(
          `select dtc, title, severity, repair_difficulty, make, company_id, generic from fault_codes where dtc in ('P0300', 'U0100') order by dtc`,
        );
        expect(stored.map((r) => ({ ...r, company_id: Number(r.company_id) }))).toEqual([
          {
            dtc: 'P0300',
            title: 'Random misfire & "more"',
            severity: 3,
            repair_difficulty: 2,
            make: 'Honda',
            company_id: 21,
            generic: 1,
          },
          {
            dtc: 'U0100',
            title: 'Lost communication',
            severity: null,
            repair_difficulty: null,
            make: null,
            company_id: 987654321,
            generic: 1,
          },
        ]);
      });
    }

    it('takes the sheet named in sheetName and the companyId field as the default company', async () => {
      const data = await xlsx([
        { name: 'Notes', rows: [['nothing here']] },
        {
          name: 'Company codes',
          rows: [
            ['DTC', 'Title'],
            ['C1234', 'Chassis'],
            ['C1235', 'Chassis 2'],
          ],
        },
      ]);
      const res = await upload(
        '/api/faultCodes',
        { name: 'c.xlsx', data },
        { sheetName: 'company codes', companyId: '77' },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().stats).toMatchObject({
        insertedCount: 2,
        worksheetName: 'Company codes',
        companyId: 77,
      });
      expect(await rows(`select dtc from fault_codes where company_id = 77 order by dtc`)).toEqual([
        { dtc: 'C1234' },
        { dtc: 'C1235' },
      ]);
      const missing = await upload('/api/faultCodes', { name: 'c.xlsx', data }, { sheetName: 'Elsewhere' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe(
        "The workbook has no sheet named 'Elsewhere'. Its sheets are 'Notes', 'Company codes'.",
      );
      const badCompany = await upload('/api/faultCodes', { name: 'c.xlsx', data }, { companyId: '-3' });
      expect(badCompany.statusCode).toBe(400);
      expect(badCompany.json().error).toBe("companyId must be a whole number of 0 or more, not '-3'.");
    });
  });

  describe('POST /api/FaultUplodes', () => {
    it('imports the four sheets into the four tables with a summary for each', async () => {
      await t.db.kysely
        .insertInto('fault_code_causes')
        .values({
          dtc: 'P0171',
          company_id: 0,
          make: null,
          generic: 1,
          language: 'en',
          causes: 'Vacuum leak',
          text_hash: sha('Vacuum leak'),
        })
        .execute();
      const data = await xlsx([
        {
          name: 'Fault_Descriptions',
          rows: [
            ['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'],
            ['P0171', 'System Too Lean (Bank 1)', 2, 2, null, 0, true],
            ['P0172', 'System Too Rich (Bank 1)', 0, 2, null, 0, true], // row 3: severity 0
          ],
        },
        {
          name: 'causes',
          rows: [
            ['DTC', 'Cause', 'Language', 'Make', 'Company ID', 'Generic'],
            ['P0171', 'Vacuum leak', 'EN', null, 0, 1], // already stored (language is lower-cased)
            ['P0171', 'Dirty MAF sensor', 'en', null, 0, 1],
            ['P0171', 'Dirty MAF sensor', 'en', null, 0, 1], // row 4: repeats row 3
            ['P0171', 'Unterdruckleck', 'de', null, 0, 1],
            ['P0171', null, 'en', null, 0, 1], // row 6: no text
          ],
        },
        {
          name: 'symptoms',
          rows: [
            ['dtc', 'symptoms'],
            ['P0171', 'Rough idle'],
          ],
        },
        { name: 'Solutions', rows: [['DTC', 'Solution', 'Language']] },
      ]);
      const res = await upload('/api/FaultUplodes', { name: 'faults.xlsx', data });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.stats).toMatchObject({ totalRowsInserted: 4, fileSize: data.length });
      expect(body.stats.performance.rowsPerSecond).toBeGreaterThan(0);
      expect(typeof body.stats.performance.improvement).toBe('string');
      expect(body.summary.my_fault_codes).toMatchObject({
        totalRows: 2,
        inserted: 1,
        duplicates: 0,
        skipped: 1,
        duplicateBreakdown: { excelDuplicates: 0, databaseDuplicates: 0 },
      });
      expect(body.summary.my_fault_code_causes).toMatchObject({
        totalRows: 5,
        inserted: 2,
        duplicates: 2,
        skipped: 1,
        duplicateBreakdown: { excelDuplicates: 1, databaseDuplicates: 1 },
      });
      expect(body.summary.my_fault_code_symptoms).toMatchObject({ totalRows: 1, inserted: 1 });
      expect(body.summary.my_fault_code_solutions).toMatchObject({ totalRows: 0, inserted: 0 });
      expect(body.errors).toEqual([
        {
          sheet: 'Fault_Descriptions',
          row: 3,
          reason: "Severity must be a whole number from 1 to 5, not '0'",
        },
        { sheet: 'causes', row: 2, reason: 'P0171 (company 0, en) is already in the database' },
        { sheet: 'causes', row: 4, reason: 'P0171 (company 0, en) repeats row 3 of this file' },
        { sheet: 'causes', row: 6, reason: 'Causes is empty' },
      ]);
      const causes = await rows<{ causes: string; language: string; text_hash: string }>(
        `select causes, language, text_hash from fault_code_causes where dtc = 'P0171' order by id`,
      );
      expect(causes.map((c) => [c.causes, c.language])).toEqual([
        ['Vacuum leak', 'en'],
        ['Dirty MAF sensor', 'en'],
        ['Unterdruckleck', 'de'],
      ]);
      for (const c of causes) expect(c.text_hash).toBe(sha(c.causes));
      expect(await rows(`select symptom from fault_code_symptoms where dtc = 'P0171'`)).toEqual([
        { symptom: 'Rough idle' },
      ]);
    });

    it('reads an .xls workbook written by xlwt', async () => {
      const res = await upload('/api/FaultUplodes', {
        name: 'legacy.xls',
        data: fixtureFile('fault-workbook.xls'),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.summary.my_fault_codes).toMatchObject({
        totalRows: 4,
        inserted: 2,
        skipped: 1,
        duplicateBreakdown: { excelDuplicates: 1 },
      });
      expect(body.summary.my_fault_code_causes).toMatchObject({ inserted: 2 });
      expect(body.errors).toContainEqual({
        sheet: 'fault_descriptions',
        row: 5,
        reason: "Severity must be a whole number from 1 to 5, not '9'",
      });
      expect(
        await rows(`select dtc, make, company_id, generic from fault_codes where dtc = 'P1456'`),
      ).toEqual([{ dtc: 'P1456', make: 'Honda', company_id: 21, generic: 0 }]);
    });

    it('answers a missing sheet with a sentence naming it, and success: false', async () => {
      const data = await xlsx([
        { name: 'fault_descriptions', rows: [['DTC'], ['P0001']] },
        { name: 'causes', rows: [['DTC', 'Causes']] },
        { name: 'solutions', rows: [['DTC', 'Solution']] },
      ]);
      const res = await upload('/api/FaultUplodes', { name: 'f.xlsx', data });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(body.message).toBe(body.error);
      expect(body.error).toContain("The workbook has no sheet named 'symptoms'.");
      expect(await count(`fault_codes where dtc = 'P0001'`)).toBe(0);
    });

    it('refuses a CSV file: the Bulk Uploader takes Excel workbooks only', async () => {
      const res = await upload('/api/FaultUplodes', { name: 'f.csv', data: csv([['DTC'], ['P0001']]) });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'This upload needs an Excel workbook (.xlsx or .xls); the file is text (CSV).',
      );
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const image = await upload('/api/FaultUplodes', { name: 'f.xlsx', data: png });
      expect(image.statusCode).toBe(400);
      expect(image.json().message).toBe('This file is not an Excel workbook. Upload an .xlsx or .xls file.');
    });
  });

  describe('POST /api/uplodeactivationcode', () => {
    it('imports a CSV with an odd header, a BOM, semicolons and quotes; duplicates in the file and the database never overlap', async () => {
      await t.db.kysely
        .insertInto('activation_codes')
        .values({ code: 'OLD-1', plan: 'Pro', created_at: new Date().toISOString() })
        .execute();
      const data = csv(
        [
          ['activation_code', 'PLAN', 'Duration', 'vehicle'],
          ['NEW-1', 'Pro', '12 months', 'Car; "SUV"'],
          ['NEW-2', 'Basic', 30, 'Bike'],
          ['OLD-1', 'Pro', 30, 'Car'], // row 4: stored before
          ['NEW-1', 'Pro', 30, 'Car'], // row 5: repeats row 2
          ['', 'Pro', 30, 'Car'], // row 6: no code
          [],
          ['NEW-1', 'Fleet', 30, 'Truck'], // row 8: repeats row 2 again
          ['OLD-1', 'Pro', 30, 'Car'], // row 9: repeats row 4 (an in-file duplicate, not counted twice)
        ],
        { delimiter: ';', bom: true },
      );
      const res = await upload('/api/uplodeactivationcode', { name: 'codes.csv', data });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        totalRows: 7,
        importedRows: 2,
        invalidRows: 1,
        duplicates: {
          inFile: 3,
          inDatabase: 1,
          fileDuplicateDetails: [
            { code: 'NEW-1', rows: [2, 5, 8] },
            { code: 'OLD-1', rows: [4, 9] },
          ],
          dbDuplicateCodes: ['OLD-1'],
        },
      });
      expect(body.errors).toEqual([
        { sheet: 'codes', row: 4, reason: 'Code OLD-1 is already in the database' },
        { sheet: 'codes', row: 5, reason: 'Code NEW-1 repeats row 2 of this file' },
        { sheet: 'codes', row: 6, reason: 'ActivationCode is empty' },
        { sheet: 'codes', row: 8, reason: 'Code NEW-1 repeats row 2 of this file' },
        { sheet: 'codes', row: 9, reason: 'Code OLD-1 repeats row 4 of this file' },
      ]);
      const stored = await rows<{
        code: string;
        plan: string;
        duration: string;
        vehicle: string;
        import_id: number;
      }>(
        `select code, plan, duration, vehicle, import_id from activation_codes where code like 'NEW-%' order by code`,
      );
      expect(stored).toEqual([
        {
          code: 'NEW-1',
          plan: 'Pro',
          duration: '12 months',
          vehicle: 'Car; "SUV"',
          import_id: body.importId,
        },
        { code: 'NEW-2', plan: 'Basic', duration: '30', vehicle: 'Bike', import_id: body.importId },
      ]);
    });

    it('skips and reports a row whose Plan, Duration or Vehicle is empty: all four are required', async () => {
      const data = csv([
        ['ActivationCode', 'Plan', 'Duration', 'Vehicle'],
        ['REQ-1', 'Pro', '30', 'Car'],
        ['REQ-2', '', '30', 'Car'],
        ['REQ-3', 'Pro', ' ', 'Car'],
        ['REQ-4', 'Pro', '30', ''],
        ['REQ-5', 'Basic', '90', 'Bike'],
      ]);
      const res = await upload('/api/uplodeactivationcode', { name: 'required.csv', data });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ totalRows: 5, importedRows: 2, invalidRows: 3 });
      expect(res.json().errors).toEqual([
        { sheet: 'required', row: 3, reason: 'Plan is empty' },
        { sheet: 'required', row: 4, reason: 'Duration is empty' },
        { sheet: 'required', row: 5, reason: 'Vehicle is empty' },
      ]);
      expect(await rows(`select code from activation_codes where code like 'REQ-%' order by code`)).toEqual([
        { code: 'REQ-1' },
        { code: 'REQ-5' },
      ]);
    });

    it('counts stored codes right when a file mixes many stored codes with new ones', async () => {
      const codes = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => [`MIX-${from + i}`, 'Pro', '30', 'Car']);
      const first = await upload('/api/uplodeactivationcode', {
        name: 'a.csv',
        data: csv([['Code', 'Plan', 'Duration', 'Vehicle'], ...codes(0, 4500)]),
      });
      expect(first.json()).toMatchObject({ importedRows: 4500 });
      // The stored codes fill the first batches; the new ones come after them.
      const mixed = await upload('/api/uplodeactivationcode', {
        name: 'b.csv',
        data: csv([['Code', 'Plan', 'Duration', 'Vehicle'], ...codes(0, 6500)]),
      });
      expect(mixed.statusCode, mixed.body).toBe(200);
      expect(mixed.json()).toMatchObject({
        totalRows: 6500,
        importedRows: 2000,
        duplicates: { inFile: 0, inDatabase: 4500 },
      });
      expect(mixed.json().duplicates.dbDuplicateCodes).toHaveLength(1000);
      expect(await count(`activation_codes where code like 'MIX-%'`)).toBe(6500);
      const record = (await get(`/api/imports/${mixed.json().importId}`)).json();
      expect(record.errorCount).toBe(4500);
      expect(record.errors).toHaveLength(100);
    });

    it('reads an .xls with UTF-16 texts and a shared-string table split over CONTINUE records', async () => {
      const res = await upload('/api/uplodeactivationcode', {
        name: 'codes.xls',
        data: fixtureFile('activation-codes.xls'),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ totalRows: 803, importedRows: 801, invalidRows: 1 });
      expect(body.duplicates.fileDuplicateDetails).toEqual([{ code: 'XLS-00001', rows: [3, 802] }]);
      expect(body.errors).toContainEqual({ sheet: 'Codes', row: 803, reason: 'ActivationCode is empty' });
      expect(
        await rows(`select plan, duration, vehicle from activation_codes where code = 'XLS-00700-Ω'`),
      ).toEqual([{ plan: 'Pro', duration: '90', vehicle: 'Größe 0' }]);
      expect(await rows(`select duration from activation_codes where code = '123456789'`)).toEqual([
        { duration: '1.5' },
      ]);
    });

    it('says which column is missing', async () => {
      const res = await upload('/api/uplodeactivationcode', {
        name: 'c.csv',
        data: csv([
          ['Serial', 'Plan'],
          ['X', 'Pro'],
        ]),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        "The sheet 'c' has no 'ActivationCode' column. Its first row holds 'Serial', 'Plan'. Put the column names in the first row.",
      );
    });

    it('refuses a file over 10 MB with 413 while it streams in: nothing written, nothing left behind', async () => {
      const before = await count('imports');
      const line = 'CODE-0000000000,Pro,30,Car\r\n';
      const data = Buffer.from(
        `ActivationCode,Plan,Duration,Vehicle\r\n${line.repeat(Math.ceil((10 * 1024 * 1024) / line.length) + 10)}`,
      );
      const res = await upload('/api/uplodeactivationcode', { name: 'big.csv', data });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        error:
          'The file is larger than the 10 MB this upload accepts, so nothing was imported. Split it into smaller files.',
        message:
          'The file is larger than the 10 MB this upload accepts, so nothing was imported. Split it into smaller files.',
        code: 'PAYLOAD_TOO_LARGE',
        importId: expect.any(Number),
        errors: [],
      });
      expect(await count(`activation_codes where code = 'CODE-0000000000'`)).toBe(0);
      // The refusal is in the history (every upload is), as a failed import of nothing.
      expect(await count('imports')).toBe(before + 1);
      const record = await get(`/api/imports/${res.json().importId}`);
      expect(record.json()).toMatchObject({
        status: 'failed',
        kind: 'activation_codes',
        fileName: 'big.csv',
        rowsProcessed: 0,
        message: res.json().message,
      });
      expect(leftovers()).toEqual([]);
    });
  });

  describe('POST /api/UpdatesCommands', () => {
    let hondaId: number;
    beforeAll(async () => {
      hondaId = (
        await t.db.kysely
          .insertInto('makes')
          .values({ name: 'Honda', segment: 'car' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const toyota = await t.db.kysely
        .insertInto('makes')
        .values({ name: 'Toyota', segment: 'car' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.db.kysely
        .insertInto('mechanic_commands')
        .values([
          { make_id: hondaId, command: 'OLD 1', module: 'Engine', function_type: 'scan', full_scan: 1 },
          { make_id: hondaId, command: 'OLD 2', module: 'ABS', function_type: 'scan', full_scan: 0 },
          { make_id: toyota.id, command: 'TOYOTA 1', module: 'Engine', function_type: 'scan', full_scan: 1 },
        ])
        .execute();
    });
    const commands = (make: string) =>
      rows(
        `select m.command, m.module, m.function_type, m.full_scan from mechanic_commands m join makes k on k.id = m.make_id where k.name = '${make}' order by m.id`,
      );

    const workbook = () =>
      xlsx([
        {
          name: 'Toyota',
          rows: [
            ['command', 'module', 'function_type', 'full_scan'],
            ['NOT THIS', 'Engine', 'scan', 1],
          ],
        },
        {
          name: 'honda',
          rows: [
            ['id', 'Command', 'MODULE', 'Function Type', 'Full_Scan', 'created_at', 'make_id'],
            [1, '22 F1 90', 'Engine', 'scan', 'T', '2024-01-01', 99],
            [2, '0902', 'Engine', 'VIN', '0', null, null],
            [3, '01 0C', 'Engine', 'Live Data', 'YES', null, null],
            [4, '22 F1 90', 'Engine', 'scan', 'no', null, null], // row 5: repeats row 2
            [5, '19 02 FF', 'ABS', 'reprogram', 'T', null, null], // row 6: unknown function type
            [6, '', 'ABS', 'scan', 'T', null, null], // row 7: no command
            [7, '03', 'ABS', 'clear codes', 'maybe', null, null], // row 8: bad full_scan
          ],
        },
      ]);

    it("replaces the chosen make's commands with its sheet in one go", async () => {
      const res = await upload(
        '/api/UpdatesCommands',
        { name: 'commands.xlsx', data: await workbook() },
        { sheetName: 'Honda' },
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.stats).toMatchObject({
        totalRowsProcessed: 7,
        insertedCount: 3,
        skippedCount: 4,
        deletedCount: 2,
        fileName: 'commands.xlsx',
        sheetName: 'honda',
        invalidCount: 3,
        duplicateCount: 1,
      });
      expect(body.stats.fileSize).toBeGreaterThan(0);
      expect(body.message).toContain('Replaced the commands of Honda');
      expect(body.errors.map((e: { row: number }) => e.row)).toEqual([5, 6, 7, 8]);
      expect(body.errors[1].reason).toBe(
        "function_type must be one of scan, live_data, vin, clear_codes, not 'reprogram'",
      );
      expect(body.errors[3].reason).toBe("full_scan must be TRUE or FALSE (1/0, yes/no), not 'maybe'");
      expect(await commands('Honda')).toEqual([
        { command: '22 F1 90', module: 'Engine', function_type: 'scan', full_scan: 1 },
        { command: '0902', module: 'Engine', function_type: 'vin', full_scan: 0 },
        { command: '01 0C', module: 'Engine', function_type: 'live_data', full_scan: 1 },
      ]);
      expect(await commands('Toyota')).toEqual([
        { command: 'TOYOTA 1', module: 'Engine', function_type: 'scan', full_scan: 1 },
      ]);
    });

    it('creates the make of the list when the database lacks it, with its segment', async () => {
      const data = csv([
        ['command', 'module', 'function_type'],
        ['AT Z', 'Engine', 'scan'],
      ]);
      const res = await upload(
        '/api/UpdatesCommands',
        { name: 'tvs.csv', data },
        { sheetName: 'TVS 3 Wheelers' },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().stats).toMatchObject({ insertedCount: 1, deletedCount: 0, sheetName: 'tvs' });
      expect(await rows(`select segment from makes where name = 'TVS 3 Wheelers'`)).toEqual([
        { segment: 'three_wheeler' },
      ]);
    });

    it('changes nothing when no row is valid', async () => {
      const before = await commands('Honda');
      const data = csv([
        ['command', 'module', 'function_type'],
        ['X', 'Engine', 'teleport'],
        ['', 'ABS', 'scan'],
      ]);
      const res = await upload('/api/UpdatesCommands', { name: 'bad.csv', data }, { sheetName: 'Honda' });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.message).toBe(
        'None of the 2 data rows can be imported (see the row problems), so nothing was changed.',
      );
      expect(body.errors).toHaveLength(2);
      expect(await commands('Honda')).toEqual(before);
      const record = (await get(`/api/imports/${body.importId}`)).json();
      expect(record).toMatchObject({
        status: 'failed',
        kind: 'update_commands',
        message: body.message,
        errorCount: 2,
      });
    });

    it('needs a sheet name from the list, and that sheet in the workbook', async () => {
      const data = await workbook();
      const none = await upload('/api/UpdatesCommands', { name: 'c.xlsx', data });
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe(
        'Sheet name is required: choose the make whose commands this file replaces.',
      );
      const unknown = await upload(
        '/api/UpdatesCommands',
        { name: 'c.xlsx', data },
        { sheetName: 'Trabant' },
      );
      expect(unknown.json().message).toBe(
        "'Trabant' is not one of the makes of the list; choose a make from the list.",
      );
      const absent = await upload('/api/UpdatesCommands', { name: 'c.xlsx', data }, { sheetName: 'Volvo' });
      expect(absent.statusCode).toBe(400);
      expect(absent.json().message).toBe(
        "The workbook has no sheet named 'Volvo'. Its sheets are 'Toyota', 'honda'.",
      );
    });
  });

  describe('roles', () => {
    it('lets only editors upload: a viewer gets 403 and a sentence in message', async () => {
      const data = csv([['ActivationCode'], ['VIEWER-1']]);
      const res = await upload('/api/uplodeactivationcode', { name: 'c.csv', data }, {}, viewer);
      expect(res.statusCode).toBe(403);
      const body = res.json();
      expect(body.code).toBe('FORBIDDEN');
      expect(body.message).toBe(body.error);
      expect(body.error).toContain('editor');
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/FaultUplodes',
        ...multipart({}, { name: 'c.csv', data }),
      });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED', success: false });
      expect(await count(`activation_codes where code = 'VIEWER-1'`)).toBe(0);
      // Viewers may read the history.
      expect((await t.app.inject({ url: '/api/imports', headers: viewer })).statusCode).toBe(200);
    });
  });

  describe('atomicity', () => {
    it('leaves every table exactly as before when the database fails in the middle of an import', async () => {
      const snapshot = async () =>
        Object.fromEntries(
          await Promise.all(
            [
              'fault_codes',
              'fault_code_causes',
              'fault_code_symptoms',
              'fault_code_solutions',
              'activation_codes',
              'mechanic_commands',
              'makes',
            ].map(async (table) => [table, await rows(`select * from ${table} order by id`)] as const),
          ),
        );
      // A trigger that fails on one symptom: the third sheet, after two sheets have been written.
      if (dialect === 'sqlite') {
        await sql`create trigger fail_midway before insert on fault_code_symptoms when new.symptom = 'BOOM' begin select raise(abort, 'injected failure'); end`.execute(
          t.db.kysely,
        );
      } else {
        await sql`create function fail_midway() returns trigger language plpgsql as $$ begin if new.symptom = 'BOOM' then raise exception 'injected failure'; end if; return new; end $$`.execute(
          t.db.kysely,
        );
        await sql`create trigger fail_midway before insert on fault_code_symptoms for each row execute function fail_midway()`.execute(
          t.db.kysely,
        );
      }
      try {
        const before = await snapshot();
        const codes = Array.from({ length: 1500 }, (_, i) => [
          `X${String(i).padStart(4, '0')}`,
          `Code ${i}`,
          1,
          1,
          null,
          5,
          0,
        ]);
        const symptoms = Array.from({ length: 1200 }, (_, i) => [
          'X0001',
          i === 1100 ? 'BOOM' : `Symptom ${i}`,
          'en',
        ]);
        const data = await xlsx([
          {
            name: 'fault_descriptions',
            rows: [
              ['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'],
              ...codes,
            ],
          },
          {
            name: 'causes',
            rows: [
              ['DTC', 'Causes'],
              ['X0001', 'A cause'],
            ],
          },
          { name: 'symptoms', rows: [['DTC', 'Symptom', 'Language'], ...symptoms] },
          { name: 'solutions', rows: [['DTC', 'Solution']] },
        ]);
        const res = await upload('/api/FaultUplodes', { name: 'boom.xlsx', data });
        expect(res.statusCode).toBe(500);
        const body = res.json();
        expect(body).toMatchObject({ success: false, code: 'INTERNAL' });
        expect(body.message).toBe(
          'The import failed on the server, so nothing was imported. Try again; if it persists, tell the team.',
        );
        expect(body.error).not.toContain('injected');
        expect(await snapshot()).toEqual(before);
        const record = (await get(`/api/imports/${body.importId}`)).json();
        expect(record).toMatchObject({ status: 'failed', message: body.message, phase: 'done' });
        expect(leftovers()).toEqual([]);
      } finally {
        await sql`drop trigger fail_midway${sql.raw(dialect === 'postgres' ? ' on fault_code_symptoms' : '')}`.execute(
          t.db.kysely,
        );
        if (dialect === 'postgres') await sql`drop function fail_midway()`.execute(t.db.kysely);
      }
    });
  });

  describe('import records and history', () => {
    it('records each upload and warns when the same file comes again', async () => {
      const data = csv([
        ['Code', 'Plan', 'Duration', 'Vehicle'],
        ['HIST-1', 'Pro', 30, 'Car'],
        ['HIST-2', 'Pro', 30, 'Car'],
        ['', 'Pro', 30, 'Car'],
      ]);
      const first = (await upload('/api/uplodeactivationcode', { name: 'history.csv', data })).json();
      expect(first.duplicateOfImportId).toBeNull();
      expect(first.warning).toBeUndefined();
      const again = await upload('/api/uplodeactivationcode', { name: 'renamed.csv', data });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({
        importedRows: 0,
        duplicateOfImportId: first.importId,
        duplicates: { inDatabase: 2 },
      });
      expect(again.json().warning).toMatch(
        /^This file was already imported on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(import #\d+\)\./,
      );

      const detail = await get(`/api/imports/${first.importId}`);
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({
        id: first.importId,
        kind: 'activation_codes',
        operator: { email: expect.stringContaining('editor') },
        fileName: 'history.csv',
        fileSize: data.length,
        fileHash: createHash('sha256').update(data).digest('hex'),
        status: 'succeeded',
        phase: 'done',
        progress: 100,
        rowsProcessed: 3,
        errorCount: 1,
        errors: [{ sheet: 'history', row: 4, reason: 'ActivationCode is empty' }],
        stats: { totalRows: 3, importedRows: 2, duplicates: { inFile: 0, inDatabase: 0 } },
      });
      expect(detail.json().finishedAt >= detail.json().startedAt).toBe(true);
    });

    it('lists imports newest first with filters, paging and an exact total', async () => {
      const all = (await get('/api/imports?limit=1000')).json();
      expect(all.total).toBe(all.data.length);
      const ids = all.data.map((r: { id: number }) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(all.data[0]).not.toHaveProperty('errors');

      const failed = (await get('/api/imports?status=failed&kind=update_commands')).json();
      expect(failed.total).toBeGreaterThan(0);
      for (const r of failed.data) expect(r).toMatchObject({ status: 'failed', kind: 'update_commands' });

      const page2 = (await get('/api/imports?limit=2&page=2')).json();
      expect(page2.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(2, 4));
      expect(page2.total).toBe(all.total);

      const bad = await get('/api/imports?status=maybe');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toContain('status');
      const unknown = await get('/api/imports/999999');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'There is no import #999999.', code: 'NOT_FOUND' });
    });

    it('marks imports left running by a stopped server as failed', async () => {
      const operator =
        (await rows<{ id: number }>(`select id from operators order by id limit 1`))[0]?.id ?? null;
      const stale = await t.db.kysely
        .insertInto('imports')
        .values({
          operator_id: operator,
          kind: 'fault_codes',
          file_name: 'stale.xlsx',
          file_size: 1,
          file_hash: 'x',
          status: 'running',
          rows_processed: 10,
          started_at: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await failInterruptedImports(t.db);
      expect((await get(`/api/imports/${stale.id}`)).json()).toMatchObject({
        status: 'failed',
        message:
          'The server stopped before this import finished, so nothing of it was imported. Upload the file again.',
      });
    });

    it('shows progress in the record while an import runs', async () => {
      const lines = Array.from({ length: 60_000 }, (_, i) => [`PROG-${i}`, 'Pro', 30, 'Car']);
      const data = csv([['ActivationCode', 'Plan', 'Duration', 'Vehicle'], ...lines]);
      const latest = async () => (await get('/api/imports?kind=activation_codes&limit=1')).json().data[0];
      const previousId = (await latest())?.id ?? 0;
      const running = upload('/api/uplodeactivationcode', { name: 'progress.csv', data });
      const seen: { status: string; rowsProcessed: number; progress: number }[] = [];
      let done = false;
      running.finally(() => {
        done = true;
      });
      while (!done) {
        const r = await latest();
        if (r && r.id > previousId && r.status === 'running') seen.push(r);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect((await running).statusCode).toBe(200);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.some((r) => r.rowsProcessed > 0 && r.rowsProcessed <= 60_000)).toBe(true);
      const progresses = seen.map((r) => r.progress);
      expect(progresses).toEqual([...progresses].sort((a, b) => a - b));
      const final = await latest();
      expect(final).toMatchObject({ status: 'succeeded', rowsProcessed: 60_000, progress: 100 });
    });
  });
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
