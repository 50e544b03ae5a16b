import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProgressWriter, startImport, trackProgress } from '../src/import/record.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

/**
 * An import writes in one transaction for seconds; on SQLite that transaction holds the only
 * writing connection. Sign-in checks and progress polls read through `Db.reader`, so they are
 * answered meanwhile (before, every request waited for the transaction to end).
 */
describe.each(DIALECTS)('requests during a long write transaction on %s', (dialect) => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  let written = 0;
  /** Runs `during` while a write transaction (one inserted row) stays open, then commits. */
  async function whileWriting<T>(during: () => Promise<T>): Promise<T> {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let begun = () => {};
    const open = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const transaction = t.db.kysely.transaction().execute(async (trx) => {
      written += 1;
      await trx
        .insertInto('fault_codes')
        .values({ dtc: `P0${written}`, company_id: 0, generic: 1 })
        .execute();
      begun();
      await held;
    });
    await open;
    try {
      return await during();
    } finally {
      release();
      await transaction;
    }
  }

  it('signs in a request (a session it has not seen before) while the transaction writes', async () => {
    const { headers, operator } = await signedIn(t.db);
    const me = await whileWriting(() => t.app.inject({ url: '/api/me', headers }));
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(operator.email);
  });

  it("answers an import's progress poll with its live figures while the transaction writes", async () => {
    const { headers, operator } = await signedIn(t.db, 'editor');
    const record = await startImport(t.db, {
      operatorId: operator.id,
      kind: 'fault_codes',
      fileName: 'codes.xlsx',
      fileSize: 1000,
      fileHash: 'f'.repeat(64),
    });
    const writer = new ProgressWriter(t.db, record.id);
    const untrack = trackProgress(record.id, writer);
    try {
      await writer.flush();
      writer.hold(true); // as runImport does on SQLite while it writes
      writer.update(600, 80, 'writing', 1000);
      const poll = await whileWriting(() => t.app.inject({ url: `/api/imports/${record.id}`, headers }));
      expect(poll.statusCode).toBe(200);
      expect(poll.json()).toMatchObject({
        id: record.id,
        status: 'running',
        phase: 'writing',
        progress: 80,
        rowsProcessed: 600,
        rowsTotal: 1000,
      });
    } finally {
      writer.hold(false);
      untrack();
    }
    // Not running here any more: the record as stored.
    const stored = await t.app.inject({ url: `/api/imports/${record.id}`, headers });
    expect(stored.json()).toMatchObject({ status: 'running', phase: 'reading', progress: 0 });
  });
});
