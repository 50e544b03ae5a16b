import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CellValue, csv, multipart, xlsx } from './fixtures/uploads.ts';
import {
  createTestApp,
  DIALECTS,
  ownTemporaryFolder,
  secondServer,
  signedIn,
  type TestContext,
} from './helpers.ts';

ownTemporaryFolder('obd-import-undo-test-');

const FAULT_HEADER = ['dtc', 'title', 'severity', 'repair difficulty', 'make', 'company id', 'generic'];
const faultFile = (codes: string[], company = 7) =>
  csv([FAULT_HEADER, ...codes.map((c): CellValue[] => [c, `Title ${c}`, 2, 2, 'Honda', company, 'no'])]);
const commandsFile = (commands: string[]) =>
  csv([
    ['command', 'module', 'function_type', 'full_scan'],
    ...commands.map((c): CellValue[] => [c, 'Engine', 'scan', 0]),
  ]);

describe.each(DIALECTS)('undo an import on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;
  let viewer: Record<string, string>;
  let hondaId: number;

  const post = (app: FastifyInstance, url: string, data: Buffer, fields: Record<string, string> = {}) => {
    const body = multipart(fields, { name: 'file.csv', data });
    return app.inject({
      method: 'POST',
      url,
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
  };
  const importFaults = async (codes: string[], app = t.app) => {
    const res = await post(app, '/api/faultCodes', faultFile(codes));
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { importId: number; stats: { insertedCount: number } };
  };
  const importCommands = async (commands: string[]) => {
    const res = await post(t.app, '/api/UpdatesCommands', commandsFile(commands), { sheetName: 'Honda' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { importId: number; stats: { insertedCount: number; deletedCount: number } };
  };
  const undo = (id: number, as = editor, app = t.app) =>
    app.inject({ method: 'POST', url: `/api/imports/${id}/undo`, headers: as });
  const rows = <T = Record<string, unknown>>(query: string) =>
    sql
      .raw<T>(query)
      .execute(t.db.kysely)
      .then((r) => r.rows as T[]);
  const dtcs = async (company = 7) =>
    (
      await rows<{ dtc: string }>(`select dtc from fault_codes where company_id = ${company} order by dtc`)
    ).map((r) => r.dtc);
  const hondaCommands = async () =>
    rows<{ id: number; command: string; import_id: number | null }>(
      `select id, command, import_id from mechanic_commands where make_id = ${hondaId} order by id`,
    ).then((r) =>
      r.map((c) => ({
        ...c,
        id: Number(c.id),
        import_id: c.import_id === null ? null : Number(c.import_id),
      })),
    );

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
    viewer = (await signedIn(t.db, 'viewer')).headers;
    hondaId = (
      await t.db.kysely
        .insertInto('makes')
        .values({ name: 'Honda', segment: 'car' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('removes exactly the rows the import inserted, shows it undone, logs it, and refuses a second undo', async () => {
    await t.db.kysely
      .insertInto('fault_codes')
      .values({ dtc: 'P0100', company_id: 7, make: 'Honda', generic: 0, title: 'Stored before' })
      .execute();
    const first = await importFaults(['P0100', 'P0101', 'P0102']);
    expect(first.stats.insertedCount).toBe(2);
    expect(await dtcs()).toEqual(['P0100', 'P0101', 'P0102']);

    expect((await undo(first.importId, viewer)).statusCode).toBe(403);
    const res = await undo(first.importId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ importId: first.importId, removed: 2, restored: 0 });
    // The row stored before (a database duplicate of the import) stays.
    expect(await dtcs()).toEqual(['P0100']);

    const record = await t.app.inject({ url: `/api/imports/${first.importId}`, headers: editor });
    expect(record.json()).toMatchObject({ status: 'undone', undoneAt: expect.any(String) });
    const history = await t.app.inject({ url: '/api/imports?status=undone', headers: editor });
    expect(history.json().data.map((r: { id: number }) => r.id)).toContain(first.importId);
    const audit = await rows<{ target: string; details: string }>(
      `select target, details from audit_events where action = 'import-undone'`,
    );
    expect(audit).toEqual([
      { target: `import #${first.importId}`, details: expect.stringContaining('"removed":2') },
    ]);

    const again = await undo(first.importId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already undone/);
    expect((await undo(999_999)).statusCode).toBe(404);

    // The same file again is new data, not "already imported" (the undone import does not count).
    const reimport = await importFaults(['P0100', 'P0101', 'P0102']);
    expect(reimport.stats.insertedCount).toBe(2);
    expect((await undo(reimport.importId)).statusCode).toBe(200);
  });

  it('undoes a Bulk Uploader workbook from all four of its tables', async () => {
    const data = await xlsx([
      {
        name: 'fault_descriptions',
        rows: [
          ['DTC', 'Title', 'Company ID'],
          ['W0001', 'One', 9],
          ['W0002', 'Two', 9],
        ],
      },
      {
        name: 'causes',
        rows: [
          ['DTC', 'Cause', 'Company ID'],
          ['W0001', 'A cause', 9],
        ],
      },
      {
        name: 'symptoms',
        rows: [
          ['DTC', 'Symptom', 'Company ID'],
          ['W0001', 'A symptom', 9],
        ],
      },
      {
        name: 'solutions',
        rows: [
          ['DTC', 'Solution', 'Company ID'],
          ['W0002', 'A fix', 9],
        ],
      },
    ]);
    const body = multipart({}, { name: 'faults.xlsx', data });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/FaultUplodes',
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    const count = async () =>
      Number(
        (
          await rows<{ n: number }>(`select
            (select count(*) from fault_codes where company_id = 9) +
            (select count(*) from fault_code_causes where company_id = 9) +
            (select count(*) from fault_code_symptoms where company_id = 9) +
            (select count(*) from fault_code_solutions where company_id = 9) as n`)
        )[0]?.n,
      );
    expect(await count()).toBe(5);
    const undone = await undo(res.json().importId);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ removed: 5, restored: 0 });
    expect(await count()).toBe(0);
  });

  it('refuses, changing nothing, when a row of the import was edited since', async () => {
    const imported = await importFaults(['P0200', 'P0201']);
    await sql`update fault_codes set title = 'Edited by hand' where dtc = 'P0201'`.execute(t.db.kysely);
    const res = await undo(imported.importId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(
      `1 row of the 2 rows import #${imported.importId} added has been edited or removed since (by a later import or by hand), so nothing was undone.`,
    );
    expect(await dtcs()).toEqual(['P0100', 'P0200', 'P0201']);
    const record = await t.app.inject({ url: `/api/imports/${imported.importId}`, headers: editor });
    expect(record.json()).toMatchObject({ status: 'succeeded', undoneAt: null });
    await sql`delete from fault_codes where dtc in ('P0200', 'P0201')`.execute(t.db.kysely);
  });

  it('puts back the commands an Update commands import replaced; refuses while a later import has replaced its own', async () => {
    await t.db.kysely
      .insertInto('mechanic_commands')
      .values([
        { make_id: hondaId, command: 'old-1', module: 'Engine', function_type: 'scan', full_scan: 0 },
        { make_id: hondaId, command: 'old-2', module: 'Engine', function_type: 'scan', full_scan: 1 },
      ])
      .execute();
    const before = await hondaCommands();
    const a = await importCommands(['a-1', 'a-2', 'a-3']);
    expect(a.stats).toMatchObject({ insertedCount: 3, deletedCount: 2 });
    const afterA = await hondaCommands();
    const b = await importCommands(['b-1']);
    expect(b.stats).toMatchObject({ insertedCount: 1, deletedCount: 3 });

    // B replaced A's rows: A cannot be undone while they are gone.
    const refused = await undo(a.importId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(
      /^3 rows of the 3 rows import #\d+ added have been edited or removed since/,
    );
    expect((await hondaCommands()).map((c) => c.command)).toEqual(['b-1']);

    // Undo B: A's commands come back as they were (ids and import id), then A can be undone.
    const undoB = await undo(b.importId);
    expect(undoB.statusCode, undoB.body).toBe(200);
    expect(undoB.json()).toMatchObject({ removed: 1, restored: 3 });
    expect(await hondaCommands()).toEqual(afterA);
    const undoA = await undo(a.importId);
    expect(undoA.statusCode, undoA.body).toBe(200);
    expect(undoA.json()).toMatchObject({ removed: 3, restored: 2 });
    expect(await hondaCommands()).toEqual(before);
    expect(await rows('select * from import_replaced_commands')).toEqual([]);
  });

  it('an undo racing a new import of the same rows leaves each import with exactly its own rows', async () => {
    // PostgreSQL: a second server process on its own connection. SQLite has one server process
    // (one writing connection, `import/record.ts`): the race is two requests to it at once.
    const other = dialect === 'postgres' ? await secondServer(t) : t.app;
    try {
      const codes = Array.from({ length: 400 }, (_, i) => `R${String(i).padStart(4, '0')}`);
      for (let round = 0; round < 3; round++) {
        const first = await importFaults(codes);
        expect(first.stats.insertedCount).toBe(400);
        const [undone, second] = await Promise.all([
          undo(first.importId),
          post(other, '/api/faultCodes', faultFile(codes)),
        ]);
        expect(undone.statusCode, undone.body).toBe(200);
        expect(undone.json().removed).toBe(400);
        expect(second.statusCode, second.body).toBe(200);
        const s = second.json() as {
          importId: number;
          stats: { insertedCount: number; duplicates: { inDatabase: number } };
        };
        expect(s.stats.insertedCount + s.stats.duplicates.inDatabase).toBe(400);
        const owners = await rows<{ import_id: number; n: number }>(
          `select import_id, count(*) as n from fault_codes where dtc like 'R%' group by import_id`,
        );
        // The first import's rows are all gone; the second holds exactly what it says it inserted.
        const mine = owners.map((o) => ({ import_id: Number(o.import_id), n: Number(o.n) }));
        expect(mine).toEqual(
          s.stats.insertedCount ? [{ import_id: s.importId, n: s.stats.insertedCount }] : [],
        );
        await sql`delete from fault_codes where dtc like 'R%'`.execute(t.db.kysely);
      }
    } finally {
      if (other !== t.app) await other.close();
    }
  });

  it('an undo racing a new Update commands of the same make ends with exactly the new commands', async () => {
    const other = dialect === 'postgres' ? await secondServer(t) : t.app;
    try {
      const a = await importCommands(['r-1', 'r-2']);
      const [undone, replaced] = await Promise.all([
        undo(a.importId),
        post(other, '/api/UpdatesCommands', commandsFile(['s-1', 's-2', 's-3']), { sheetName: 'Honda' }),
      ]);
      expect(replaced.statusCode, replaced.body).toBe(200);
      // Either the undo went first (then the new import replaced what it restored) or it found
      // A's rows replaced and refused: in both cases the make holds the new import's commands.
      expect([200, 409]).toContain(undone.statusCode);
      expect((await hondaCommands()).map((c) => c.command).sort()).toEqual(['s-1', 's-2', 's-3']);
    } finally {
      if (other !== t.app) await other.close();
    }
  });
});
