import { beforeAll, describe, expect, it } from 'vitest';
import { csv, fixtureFile } from './fixtures/uploads.ts';
import { DIALECTS, ownTemporaryFolder, type TestContext } from './helpers.ts';
import { uploadsSuite } from './uploadsSuite.ts';

// Every upload's temporary files go to a folder of this test file, so "nothing left behind" is exact.
const { leftovers } = ownTemporaryFolder('obd-uploads-activation-test-');

describe.each(DIALECTS)('uploads on %s', (dialect) => {
  const suite = uploadsSuite(dialect, leftovers);
  const { upload, get, rows, count } = suite;
  let t: TestContext;
  beforeAll(() => {
    ({ t } = suite);
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
});
