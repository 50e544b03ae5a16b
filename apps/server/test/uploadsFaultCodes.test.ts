import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { csv, fixtureFile, xlsx } from './fixtures/uploads.ts';
import { DIALECTS, ownTemporaryFolder, type TestContext } from './helpers.ts';
import { uploadsSuite } from './uploadsSuite.ts';

// Every upload's temporary files go to a folder of this test file, so "nothing left behind" is exact.
const { leftovers } = ownTemporaryFolder('obd-uploads-faultcodes-test-');

describe.each(DIALECTS)('uploads on %s', (dialect) => {
  const suite = uploadsSuite(dialect, leftovers);
  const { upload, rows, count } = suite;
  let t: TestContext;
  beforeAll(() => {
    ({ t } = suite);
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
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
