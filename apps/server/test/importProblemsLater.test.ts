import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStore, PROBLEMS_STORING, PROBLEMS_UNAVAILABLE } from '../src/import/problemStore.ts';
import { multipart, xlsx } from './fixtures/uploads.ts';
import {
  createTestApp,
  DIALECTS,
  ownTemporaryFolder,
  secondServer,
  signedIn,
  type TestContext,
} from './helpers.ts';

/*
 * An upload's problem rows are stored after its answer (import/problemStore.ts). The record says
 * so meanwhile; the problems link waits for a store under way in this process, answers 409 while
 * another process may still be storing them, and 410 with a sentence once they never will be (the
 * store failed, or the server stopped first) — never a file that lacks some of them.
 */

const { leftovers } = ownTemporaryFolder('obd-problems-later-test-');

describe.each(DIALECTS)('problem rows stored after the answer on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Uploads fault codes with one invalid row and one in-file repeat: two problems. */
  async function upload(tag: string) {
    const data = await xlsx([
      {
        name: 'codes',
        rows: [
          ['DTC', 'Title', 'Severity', 'Company ID'],
          [`${tag}1`, 'One', 1, 21],
          [`${tag}2`, 'Two', 9, 21], // severity out of range
          [`${tag}1`, 'Again', 1, 21], // repeats row 2
        ],
      },
    ]);
    const body = multipart({}, { name: 'codes.xlsx', data });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().importId as number;
  }
  const askLink = (id: number, app = t.app) =>
    app.inject({ method: 'POST', url: `/api/imports/${id}/problems`, headers: editor });
  const columnsOf = async (id: number) =>
    (
      await t.db.kysely
        .selectFrom('imports')
        .select('problem_columns')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).problem_columns;
  const setColumns = (id: number, value: string, finishedAt?: string) =>
    t.db.kysely
      .updateTable('imports')
      .set({ problem_columns: value, ...(finishedAt ? { finished_at: finishedAt } : {}) })
      .where('id', '=', id)
      .execute();
  const problemRows = async (id: number) =>
    Number(
      (
        await t.db.kysely
          .selectFrom('import_problems')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('import_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the record never offers part of the rows: storing, then the columns with every row', async () => {
    const id = await upload('PL');
    // Right after the answer: still being stored, or already stored whole.
    const columns = await columnsOf(id);
    expect(columns).not.toBeNull();
    if (columns !== PROBLEMS_STORING) expect(await problemRows(id)).toBe(2);
    const link = await askLink(id);
    expect(link.statusCode, link.body).toBe(201);
    expect(JSON.parse((await columnsOf(id)) as string)).toEqual({
      codes: ['DTC', 'Title', 'Severity', 'Company ID'],
    });
    expect(await problemRows(id)).toBe(2);
    // The upload's folder went with the answer, the store notwithstanding.
    expect(leftovers()).toEqual([]);
  });

  it('asking for the file while this process stores the rows waits for them', async () => {
    const id = await upload('PW');
    expect((await askLink(id)).statusCode).toBe(201);
    const columns = (await columnsOf(id)) as string;
    // A store under way, held until the test lets it finish.
    await setColumns(id, PROBLEMS_STORING);
    const store = expectStore(t.db, id, t.app.log);
    let answered = false;
    const asked = askLink(id).then((res) => {
      answered = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await store(() => setColumns(id, columns).then(() => {}));
    const link = await asked;
    expect(link.statusCode, link.body).toBe(201);
  });

  it('a store that fails leaves the rows marked unavailable, and the link refused with a sentence', async () => {
    const id = await upload('PF');
    expect((await askLink(id)).statusCode).toBe(201);
    await setColumns(id, PROBLEMS_STORING);
    await expectStore(t.db, id, t.app.log)(() => Promise.reject(new Error('disk full')));
    expect(await columnsOf(id)).toBe(PROBLEMS_UNAVAILABLE);
    const link = await askLink(id);
    expect(link.statusCode).toBe(410);
    expect(link.json().error).toMatch(
      /^The problem rows of import #\d+ were not kept: the server stopped or failed before storing them/,
    );
  });

  it('rows no process here is storing: 409 while another may be (PostgreSQL), 410 once it cannot be', async () => {
    const id = await upload('PO');
    expect((await askLink(id)).statusCode).toBe(201);
    // As a server that stopped between its answer and the store leaves the record.
    await t.db.kysely.deleteFrom('import_problems').where('import_id', '=', id).execute();
    await setColumns(id, PROBLEMS_STORING, new Date().toISOString());
    if (dialect === 'postgres') {
      const busy = await askLink(id);
      expect(busy.statusCode).toBe(409);
      expect(busy.json().error).toMatch(/are still being stored; ask for the file again in a few seconds\.$/);
      expect(await columnsOf(id)).toBe(PROBLEMS_STORING);
      // Storing for longer than any store takes: its process is gone.
      await setColumns(id, PROBLEMS_STORING, new Date(Date.now() - 60 * 60 * 1000).toISOString());
    }
    // SQLite: one process serves the file, and it stores nothing for this import.
    const gone = await askLink(id);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error).toMatch(/were not kept/);
    expect(await columnsOf(id)).toBe(PROBLEMS_UNAVAILABLE);
  });

  it.runIf(dialect === 'sqlite')(
    'a server started after one that stopped before storing marks those rows unavailable',
    async () => {
      const id = await upload('PS');
      expect((await askLink(id)).statusCode).toBe(201);
      await t.db.kysely.deleteFrom('import_problems').where('import_id', '=', id).execute();
      await setColumns(id, PROBLEMS_STORING);
      const second = await secondServer(t);
      try {
        expect(await columnsOf(id)).toBe(PROBLEMS_UNAVAILABLE);
        expect((await askLink(id, second)).statusCode).toBe(410);
      } finally {
        await second.close();
      }
    },
  );
});
