import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failAuditOf } from './auditFaults.ts';
import { insertFaultCodes } from './factories.ts';
import { multipart, xlsx } from './fixtures/uploads.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

/** Exports and imports in the audit log, with their filters and counts (issue 11). */
describe.each(DIALECTS)('exports and imports in the audit log on %s', (dialect) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let viewer: Awaited<ReturnType<typeof signedIn>>;
  let editor: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await signedIn(t.db, 'admin');
    viewer = await signedIn(t.db, 'viewer');
    editor = await signedIn(t.db, 'editor');
    await insertFaultCodes(
      t.db,
      Array.from({ length: 130 }, (_, i) => ({
        dtc: `P${i < 30 ? '7' : '8'}${String(i).padStart(3, '0')}`,
        make: 'Honda',
        company_id: 21,
      })),
    );
  });
  afterAll(() => t.close());

  const events = (action: string) =>
    t.db.kysely.selectFrom('audit_events').selectAll().where('action', '=', action).orderBy('id').execute();
  /**
   * An export's event is written once its download has been sent, a moment after the answer ends:
   * wait for the count to reach `count` (bounded), instead of a fixed pause a loaded machine outruns.
   */
  const eventsOnceThere = (action: string, count: number) =>
    vi.waitFor(
      async () => {
        const found = await events(action);
        expect(found.length).toBeGreaterThanOrEqual(count);
        return found;
      },
      { timeout: 5_000, interval: 20 },
    );
  const download = async (headers: Record<string, string>, body: object, userAgent = 'AuditTest/1.0') => {
    const ticket = await t.app.inject({ method: 'POST', url: '/api/exports', headers, payload: body });
    expect(ticket.statusCode, ticket.body).toBe(201);
    return t.app.inject({
      url: ticket.json().url,
      headers: { 'user-agent': userAgent },
      remoteAddress: '203.0.113.9',
    });
  };

  it('records a finished export with its list, format, filters and row count, by the operator who asked', async () => {
    const before = (await events('export')).length;
    const res = await download(viewer.headers, { list: 'faultCodes', format: 'csv', query: { dtc: 'P7' } });
    expect(res.statusCode).toBe(200);
    const rows: string[][] = parse(res.rawPayload, { bom: true });
    expect(rows).toHaveLength(1 + 30);
    // The event is written when the download has ended.
    const after = await eventsOnceThere('export', before + 1);
    expect(after).toHaveLength(before + 1);
    const event = after.at(-1);
    expect(event).toMatchObject({
      operator_id: viewer.operator.id,
      target: 'faultCodes',
      address: '203.0.113.9',
      user_agent: 'AuditTest/1.0',
    });
    expect(JSON.parse(event?.details ?? '')).toEqual({
      list: 'faultCodes',
      format: 'csv',
      filters: { dtc: 'P7' },
      rows: 30,
      outcome: 'complete',
    });
  });

  it('lets only admins export the audit log and the operators, and audits those exports too', async () => {
    for (const list of ['audit', 'operators']) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: viewer.headers,
        payload: { list, format: 'csv', query: {} },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('This needs the admin role; your account is a viewer. Ask an admin.');
    }
    const exportsBefore = (await events('export')).length;
    const audit = await download(admin.headers, {
      list: 'audit',
      format: 'csv',
      query: { action: 'export' },
    });
    expect(audit.statusCode).toBe(200);
    const auditRows: string[][] = parse(audit.rawPayload, { bom: true });
    expect(auditRows[0]).toEqual([
      'ID',
      'Time',
      'Operator',
      'Action',
      'Target',
      'Details',
      'Address',
      'User Agent',
    ]);
    expect(auditRows.slice(1).every((r) => r[3] === 'export')).toBe(true);
    // Every export before this one: its own event is written when it has been sent.
    expect(auditRows.length - 1).toBe(exportsBefore);
    const operators = await download(admin.headers, {
      list: 'operators',
      format: 'xlsx',
      query: { role: 'editor' },
    });
    expect(operators.statusCode).toBe(200);
    // This export's event and the audit export's before it.
    const last = (await eventsOnceThere('export', exportsBefore + 2)).at(-1);
    expect(JSON.parse(last?.details ?? '')).toMatchObject({
      list: 'operators',
      format: 'xlsx',
      filters: { role: 'editor' },
      rows: 1,
    });
  });

  const upload = (name: string, data: Buffer, headers = editor.headers) => {
    const body = multipart({}, { name, data });
    return t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: body.payload,
      headers: { ...headers, ...body.headers, 'user-agent': 'Uploader/3.0' },
    });
  };
  const header = ['dtc', 'title', 'severity', 'repair_difficulty', 'make', 'company_id', 'generic'];

  it('records an import with its kind, file, size, hash, outcome and counts, in the import transaction', async () => {
    const data = await xlsx([
      {
        name: 'Codes',
        rows: [
          header,
          ['B1001', 'One', 1, 1, 'Honda', 21, 'no'],
          ['B1002', 'Two', 2, 2, 'Honda', 21, 'no'],
          [null, 'No code', 1, 1, 'Honda', 21, 'no'],
        ],
      },
    ]);
    const res = await upload('codes.xlsx', data);
    expect(res.statusCode, res.body).toBe(200);
    const importId = res.json().importId;
    const [event] = (await events('import')).filter((e) => e.target === `import #${importId}`);
    expect(event).toMatchObject({ operator_id: editor.operator.id, user_agent: 'Uploader/3.0' });
    const stored = await t.db.kysely
      .selectFrom('imports')
      .selectAll()
      .where('id', '=', importId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event?.details ?? '')).toMatchObject({
      kind: stored.kind,
      fileName: 'codes.xlsx',
      size: data.length,
      hash: stored.file_hash,
      outcome: 'succeeded',
      counts: { rows: 3, written: 2, problems: 1 },
    });
  });

  it('records a failed import with its sentence', async () => {
    const data = await xlsx([{ name: 'Codes', rows: [header] }]);
    const res = await upload('empty.xlsx', data);
    expect(res.statusCode).toBe(400);
    const event = (await events('import')).at(-1);
    expect(JSON.parse(event?.details ?? '')).toMatchObject({
      fileName: 'empty.xlsx',
      outcome: 'failed',
      message: expect.stringMatching(/no data rows/),
    });
  });

  it('records an upload refused before its import started (a bad form field), by whom', async () => {
    const body = multipart(
      { companyId: 'twelve' },
      { name: 'codes.xlsx', data: await xlsx([{ name: 'Codes', rows: [header] }]) },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: body.payload,
      headers: { ...editor.headers, ...body.headers, 'user-agent': 'Uploader/3.0' },
    });
    expect(res.statusCode).toBe(400);
    const event = (await events('import')).at(-1);
    expect(event).toMatchObject({
      operator_id: editor.operator.id,
      target: `import #${res.json().importId}`,
    });
    expect(JSON.parse(event?.details ?? '')).toMatchObject({
      kind: 'fault_codes',
      fileName: 'codes.xlsx',
      outcome: 'refused',
      message: expect.stringMatching(/companyId must be a whole number/),
    });
  });

  it('writes nothing of an import whose audit event fails', async () => {
    const data = await xlsx([
      { name: 'Codes', rows: [header, ['C2001', 'Rolled back', 1, 1, 'Honda', 21, 'no']] },
    ]);
    const restore = await failAuditOf(t.db, 'import');
    try {
      const res = await upload('rolled-back.xlsx', data);
      expect(res.statusCode).toBe(500);
    } finally {
      await restore();
    }
    const written = await t.db.kysely
      .selectFrom('fault_codes')
      .select('id')
      .where('dtc', '=', 'C2001')
      .execute();
    expect(written).toEqual([]);
  });
});
