import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.ts';
import { inIndexOrder } from '../src/lib/sql.ts';
import { createTestApp, DIALECTS, type TestContext } from './helpers.ts';

/**
 * `inIndexOrder` prices sorting out (and, `serial`, parallel workers) for one statement on
 * PostgreSQL: the answer is the same, and the settings never outlive it — not on a pooled
 * connection the next request gets, not in a transaction the caller goes on with.
 */
describe.each(DIALECTS)('inIndexOrder on %s', (dialect) => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const newestCodes = (db: Kysely<Database> = t.db.kysely) =>
    db.selectFrom('fault_codes').select('dtc').orderBy('dtc', 'desc').orderBy('id', 'desc').limit(5);
  const sortSetting = async (db = t.db.kysely) =>
    (await sql<{ enable_sort: string }>`SHOW enable_sort`.execute(db)).rows[0]?.enable_sort;
  const workersSetting = async (db = t.db.kysely) =>
    (await sql<{ w: string }>`SELECT current_setting('max_parallel_workers_per_gather') AS w`.execute(db))
      .rows[0]?.w;

  it('answers as the statement alone does', async () => {
    expect(await inIndexOrder(t.db.kysely, dialect, (db) => newestCodes(db).execute())).toEqual(
      await newestCodes().execute(),
    );
  });

  it.runIf(dialect === 'postgres')('leaves every pooled connection sorting', async () => {
    // More reads at once than the pool has connections: each one is handed back and reused.
    const workers = await workersSetting();
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        inIndexOrder(t.db.kysely, dialect, (db) => newestCodes(db).execute(), { serial: i % 2 === 0 }),
      ),
    );
    const settings = await Promise.all(Array.from({ length: 25 }, () => sortSetting()));
    expect(new Set(settings)).toEqual(new Set(['on']));
    const workerSettings = await Promise.all(Array.from({ length: 25 }, () => workersSetting()));
    expect(new Set(workerSettings)).toEqual(new Set([workers]));
  });

  it.runIf(dialect === 'postgres')(
    'inside a transaction, resets the setting after the statement',
    async () => {
      const workers = await workersSetting();
      const after = await t.db.kysely.transaction().execute(async (trx) => {
        await inIndexOrder(trx, dialect, (db) => newestCodes(db).execute(), { serial: true });
        return [await sortSetting(trx), await workersSetting(trx)];
      });
      expect(after).toEqual(['on', workers]);
    },
  );
});
