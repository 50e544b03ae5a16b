import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeferredIndexes, deferredBuilds } from '../src/import/deferredIndexes.ts';
import { multipart, xlsx } from './fixtures/uploads.ts';
import {
  createTestApp,
  DIALECTS,
  faultCodeIndexes,
  secondServer,
  signedIn,
  type TestContext,
} from './helpers.ts';

/*
 * Issue 15 item 5, the bulk write path: PostgreSQL loads the staged rows with COPY (its text
 * escapes must keep every cell as it was), builds the trigram indexes after the commit (a note
 * in the transaction, so a crash cannot lose one), and SQLite gives back its page cache.
 */
const HEADER = ['DTC', 'Title', 'Severity', 'Repair Difficulty', 'Make', 'Company ID', 'Generic'];

describe.each(DIALECTS)('the bulk write path on %s', (dialect) => {
  let t: TestContext;
  let editor: Record<string, string>;

  const upload = async (rows: (string | number)[][]) => {
    const body = multipart(
      {},
      { name: 'codes.xlsx', data: await xlsx([{ name: 'Codes', rows: [HEADER, ...rows] }]) },
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/faultCodes',
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
  };
  const indexes = () => faultCodeIndexes(t);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    editor = (await signedIn(t.db, 'editor')).headers;
  });
  afterAll(async () => {
    await deferredBuilds(t.db);
    await t.close();
  });

  it('stores cells with tabs, line breaks, backslashes and \\N exactly as the file had them', async () => {
    const titles = [
      'tab\there',
      'line\nbreak',
      'carriage\r\nreturn',
      'back\\slash \\N \\t',
      '\\N',
      'quote " and \' and ; , |',
      'unicode é ß 漢字 🚗',
    ];
    const res = await upload(titles.map((title, i) => [`P7${i}00`, title, 1, 1, 'Honda', 3, 'no']));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({ insertedCount: titles.length });
    const stored = await t.db.kysely
      .selectFrom('fault_codes')
      .select(['dtc', 'title', 'make', 'company_id'])
      .where('dtc', 'like', 'P7%')
      .orderBy('id')
      .execute();
    expect(stored.map((r) => r.title)).toEqual(titles);
    expect(stored.map((r) => r.dtc)).toEqual(titles.map((_, i) => `P7${i}00`));
  });

  it('writes a big load in file order with every index back, and the page cache as it was', async () => {
    const before = await indexes();
    const cache = async () =>
      dialect === 'sqlite'
        ? (await sql<{ cache_size: number }>`pragma cache_size`.execute(t.db.kysely)).rows[0]?.cache_size
        : null;
    const cacheBefore = await cache();
    const rows = 60_000;
    const res = await upload(
      Array.from({ length: rows }, (_, i) => [
        `B${(i % 20_000).toString(16).toUpperCase().padStart(4, '0')}`,
        `Title ${i}`,
        1,
        1,
        i % 2 ? 'Honda' : 'Toyota',
        10 + Math.floor(i / 20_000),
        'no',
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stats).toMatchObject({ insertedCount: rows, duplicates: { inFile: 0, inDatabase: 0 } });
    // Ids follow the file's rows.
    const ordered = await t.db.kysely
      .selectFrom('fault_codes')
      .select(['title'])
      .where('dtc', 'like', 'B%')
      .orderBy('id')
      .limit(3)
      .execute();
    expect(ordered.map((r) => r.title)).toEqual(['Title 0', 'Title 1', 'Title 2']);
    await deferredBuilds(t.db);
    expect(await indexes()).toEqual(before);
    expect(await cache()).toBe(cacheBefore);
    // Searches answer the same whether or not an index was there yet.
    const search = await t.app.inject({ url: '/api/faultCodesList?dtc=B0001&make=honda', headers: editor });
    expect(search.json().total).toBe(3);
  }, 120_000);

  // What a process that died after its import's commit leaves: the index gone, its note there.
  const crashAfterCommit = async () => {
    const def = await sql<{
      def: string;
    }>`select pg_get_indexdef('fault_codes_title_trgm'::regclass) as def`.execute(t.db.kysely);
    await t.db.kysely.transaction().execute(async (trx) => {
      await sql`drop index fault_codes_title_trgm`.execute(trx);
      await sql`insert into import_deferred_indexes (name, table_name, definition)
        values ('fault_codes_title_trgm', 'fault_codes', ${def.rows[0]?.def})`.execute(trx);
    });
    expect(await indexes()).not.toContain('fault_codes_title_trgm');
  };

  it.runIf(dialect === 'postgres')('builds the trigram indexes a crashed process left noted', async () => {
    await deferredBuilds(t.db);
    const before = await indexes();
    expect(before).toContain('fault_codes_title_trgm');
    await crashAfterCommit();
    await buildDeferredIndexes(t.db);
    expect(await indexes()).toEqual(before);
    const notes = await sql<{ n: number }>`select count(*) as n from import_deferred_indexes`.execute(
      t.db.kysely,
    );
    expect(Number(notes.rows[0]?.n)).toBe(0);
  });

  it.runIf(dialect === 'postgres')(
    'a server that starts builds what a crashed process left noted',
    async () => {
      await deferredBuilds(t.db);
      const before = await indexes();
      await crashAfterCommit();
      const second = await secondServer(t);
      try {
        for (let tries = 0; tries < 200 && (await indexes()).length < before.length; tries += 1)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await indexes()).toEqual(before);
      } finally {
        await second.close();
      }
    },
  );
});
