import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendActivity, seedDemo } from '../seed/index.ts';
import { type Db, type Dialect, migrate, openDatabase } from '../src/db/database.ts';
import { DIALECTS, PG_URL } from './helpers.ts';

/**
 * The bulk seed (`seed/bulk.ts`: triggers and indexes set aside, derived tables recomputed with
 * set-based SQL) against the trigger path: the same options give the same rows, and every table
 * the triggers keep — list counters per value, day, month and pair, the per-scan DTCs, the
 * overview's day and month counters, the app users' counters, SQLite's FTS5 indexes — holds exactly what the triggers
 * wrote, row for row; so after a bulk append, and after a write through the restored triggers.
 */

const OPTIONS = { users: 60, scans: 3000, specialFunctions: 1000, actuations: 1000 };
const APPEND = { scans: 300, specialFunctions: 100, actuations: 100 };
const ACTIVITY = ['scans', 'special_function_runs', 'actuation_runs'] as const;

interface Fresh {
  db: Db;
  schema?: string;
  drop(): Promise<void>;
}

async function fresh(dialect: Dialect): Promise<Fresh> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-bulk-'));
    const db = openDatabase({ dialect: 'sqlite', file: path.join(dir, 'seed.sqlite') });
    await migrate(db);
    return {
      db,
      drop: async () => {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bulk_test_${randomBytes(6).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const db = openDatabase({ dialect: 'postgres', url: PG_URL }, { schema });
  await migrate(db);
  return {
    db,
    schema,
    drop: async () => {
      await db.close();
      await admin(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

async function rows(db: Db, text: string): Promise<Record<string, unknown>[]> {
  return (await sql.raw<Record<string, unknown>>(text).execute(db.kysely)).rows;
}

/** A month object in one form whatever the dialect and key order: sorted keys, numbers. */
function months(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const object = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  return JSON.stringify(
    Object.entries(object)
      .map(([k, v]) => [k, Number(v)])
      .sort(),
  );
}

/** Every derived row, in one order, as plain comparable values. */
async function derived(db: Db) {
  const plain = (list: Record<string, unknown>[]) =>
    list.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'months' ? months(v) : String(v)])),
    );
  return {
    list_totals: plain(await rows(db, 'SELECT tbl, col, val, n, months FROM list_totals ORDER BY 1, 2, 3')),
    list_days: plain(await rows(db, 'SELECT tbl, col, val, day, n FROM list_days ORDER BY 1, 2, 3, 4')),
    list_pairs: plain(await rows(db, 'SELECT tbl, a, b, av, bv, n FROM list_pairs ORDER BY 1, 2, 3, 4, 5')),
    list_end_days: plain(
      await rows(db, 'SELECT tbl, col, val, day, n FROM list_end_days ORDER BY 1, 2, 3, 4'),
    ),
    scan_dtcs: plain(await rows(db, 'SELECT scan_id, dtc, scan_start_time FROM scan_dtcs ORDER BY 1, 2')),
    list_code_pairs: plain(
      await rows(db, 'SELECT dtc, col, val, n FROM list_code_pairs WHERE n <> 0 ORDER BY 1, 2, 3'),
    ),
    overview_days: plain(await rows(db, 'SELECT topic, key, day, n FROM overview_days ORDER BY 1, 2, 3')),
    overview_months: plain(
      await rows(db, 'SELECT topic, key, month, n FROM overview_months ORDER BY 1, 2, 3'),
    ),
    user_counts: plain(await rows(db, 'SELECT col, val, day, n FROM user_counts ORDER BY 1, 2, 3')),
    // 022's scanner pairs: the triggers' row-by-row result equals the seed's GROUP BY.
    ...Object.fromEntries(
      await Promise.all(
        ['overview_scanner_days', 'overview_scanner_months', 'overview_scanner_day_months'].map(
          async (t) => [t, plain(await rows(db, `SELECT * FROM ${t} WHERE n <> 0 ORDER BY 1, 2`))] as const,
        ),
      ),
    ),
  };
}

/** SQLite: every (term, row, column, offset) of each FTS5 index, hashed. */
async function searchIndexes(db: Db) {
  if (db.dialect !== 'sqlite') return {};
  const out: Record<string, string> = {};
  for (const table of [...ACTIVITY, 'app_users']) {
    const vocab = `vocab_${table}`;
    await sql.raw(`DROP TABLE IF EXISTS temp.${vocab}`).execute(db.kysely);
    await sql
      .raw(`CREATE VIRTUAL TABLE temp.${vocab} USING fts5vocab(main, '${table}_search', 'instance')`)
      .execute(db.kysely);
    const all = await rows(db, `SELECT term, doc, col, "offset" FROM temp.${vocab} ORDER BY 1, 2, 3, 4`);
    out[table] = `${all.length}:${createHash('sha256').update(JSON.stringify(all)).digest('hex')}`;
    await sql.raw(`DROP TABLE temp.${vocab}`).execute(db.kysely);
  }
  // 026 and 027 index counter rows by rowid, which differ between the paths: what a search finds.
  for (const [index, column] of [
    ['list_values_search', 'val'],
    ['list_locals_search', 'local'],
  ] as const) {
    const found = await rows(
      db,
      `SELECT t.tbl, t.col, t.val FROM ${index} f JOIN list_totals t ON t.rowid = f.rowid WHERE f.${column} LIKE '%mail%' ORDER BY 1, 2, 3`,
    );
    const [indexed] = await rows(db, `SELECT count(*) AS n FROM ${index}`);
    out[index] =
      `${indexed?.n}:${found.length}:${createHash('sha256').update(JSON.stringify(found)).digest('hex')}`;
  }
  return out;
}

/** The activity rows themselves, hashed (the two paths must have inserted the same rows). */
async function activity(db: Db) {
  const out: Record<string, string> = {};
  for (const table of [...ACTIVITY, 'app_users', 'subscriptions']) {
    const all = await rows(db, `SELECT * FROM ${table} ORDER BY id`);
    out[table] = `${all.length}:${createHash('sha256').update(JSON.stringify(all)).digest('hex')}`;
  }
  return out;
}

/** Triggers and indexes of the activity tables, by name and (normalised) definition. */
async function schemaObjects(f: Fresh) {
  const tables = ['scans', 'special_function_runs', 'actuation_runs', 'scan_dtcs', 'app_users'];
  const list = tables.map((t) => `'${t}'`).join(', ');
  if (f.db.dialect === 'sqlite')
    return rows(
      f.db,
      `SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'index') AND tbl_name IN (${list}) ORDER BY 1, 2`,
    );
  const own = (text: unknown) => String(text).replaceAll(`${f.schema}.`, '');
  const triggers = await rows(
    f.db,
    `SELECT t.tgname AS name, t.tgenabled AS enabled, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t
      WHERE t.tgrelid IN (${tables.map((t) => `to_regclass('${t}')`).join(', ')}) AND NOT t.tgisinternal ORDER BY 1`,
  );
  const indexes = await rows(
    f.db,
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN (${list}) ORDER BY 1`,
  );
  return [...triggers, ...indexes].map((r) => ({ ...r, def: own(r.def) }));
}

/** One scan written through the triggers, as the import or an API would. */
async function writeOneScan(db: Db) {
  await db.kysely
    .insertInto('scans')
    .values({
      email: 'late.writer@example.com',
      scan_start_time: '2026-06-29T10:00:00.000Z',
      scan_end_time: '2026-06-29T10:05:00.000Z',
      make: 'Honda',
      model: 'Civic',
      scan_ended: 1,
      country_id: 91,
      type: 'OBD',
      app_version: '9.9.9',
      scan_res_array: '[]',
      decoded_array: '[{"system":"Engine","decodedFaultArray":{"p0300":"Misfire"}}]',
    })
    .execute();
}

describe.each(DIALECTS)('bulk seed (%s)', (dialect) => {
  let slow: Fresh;
  let fast: Fresh;

  beforeAll(async () => {
    slow = await fresh(dialect);
    fast = await fresh(dialect);
    await seedDemo(slow.db, { ...OPTIONS, bulk: false });
    await seedDemo(fast.db, { ...OPTIONS, bulk: true });
  }, 400_000);
  afterAll(async () => {
    await slow?.drop();
    await fast?.drop();
  });

  it('inserts the same rows as the trigger path', async () => {
    expect(await activity(fast.db)).toEqual(await activity(slow.db));
  });

  it('leaves every derived table exactly as the triggers do', async () => {
    const expected = await derived(slow.db);
    expect(expected.list_pairs.length).toBeGreaterThan(1000);
    expect(expected.scan_dtcs.length).toBeGreaterThan(1000);
    expect(new Set(expected.list_code_pairs.map((r) => r.col)).size).toBe(6);
    expect(expected.user_counts.length).toBeGreaterThan(10);
    expect(expected.list_end_days.length).toBeGreaterThan(100);
    expect(expected.list_totals.some((r) => r.col === 'email@')).toBe(true);
    expect(await derived(fast.db)).toEqual(expected);
    expect(await searchIndexes(fast.db)).toEqual(await searchIndexes(slow.db));
  });

  it('puts back every trigger and index as it was', async () => {
    expect(await schemaObjects(fast)).toEqual(await schemaObjects(slow));
  });

  it('keeps the list totals equal to the rows', async () => {
    for (const table of ACTIVITY) {
      const [count] = await rows(fast.db, `SELECT count(*) AS n FROM ${table}`);
      const [total] = await rows(fast.db, `SELECT n FROM list_totals WHERE tbl = '${table}' AND col = ''`);
      expect(Number(total?.n)).toBe(Number(count?.n));
    }
    const byMake = await rows(
      fast.db,
      'SELECT make AS val, count(*) AS n FROM scans GROUP BY make ORDER BY 1',
    );
    const counted = await rows(
      fast.db,
      `SELECT val, n FROM list_totals WHERE tbl = 'scans' AND col = 'make' ORDER BY 1`,
    );
    expect(counted.map((r) => [r.val, Number(r.n)])).toEqual(byMake.map((r) => [r.val, Number(r.n)]));
  });

  it('appends in bulk as the trigger path does, and the restored triggers count the next write', async () => {
    await appendActivity(slow.db, { ...APPEND, bulk: false });
    await appendActivity(fast.db, { ...APPEND, bulk: true });
    expect(await activity(fast.db)).toEqual(await activity(slow.db));
    expect(await derived(fast.db)).toEqual(await derived(slow.db));
    await writeOneScan(slow.db);
    await writeOneScan(fast.db);
    const after = await derived(fast.db);
    expect(after).toEqual(await derived(slow.db));
    expect(await searchIndexes(fast.db)).toEqual(await searchIndexes(slow.db));
    expect(
      after.scan_dtcs.some((r) => r.dtc === 'P0300' && String(r.scan_start_time).startsWith('2026-06-29')),
    ).toBe(true);
  }, 300_000);
});
