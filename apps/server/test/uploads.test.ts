import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { failInterruptedImports } from '../src/import/record.ts';
import { csv, multipart, xlsx } from './fixtures/uploads.ts';
import { DIALECTS, ownTemporaryFolder, type TestContext } from './helpers.ts';
import { uploadsSuite } from './uploadsSuite.ts';

// Every upload's temporary files go to a folder of this test file, so "nothing left behind" is exact.
const { leftovers } = ownTemporaryFolder('obd-uploads-test-');

describe.each(DIALECTS)('uploads on %s', (dialect) => {
  const suite = uploadsSuite(dialect, leftovers);
  const { upload, get, rows, count } = suite;
  let t: TestContext;
  let viewer: Record<string, string>;
  beforeAll(() => {
    ({ t, viewer } = suite);
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
