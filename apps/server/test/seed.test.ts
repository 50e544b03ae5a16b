import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendActivity, isEmpty, seedDemo } from '../seed/index.ts';
import { segmentOf, UPDATE_COMMAND_MAKES } from '../seed/lists.ts';
import { type Db, migrate, openDatabase } from '../src/db/database.ts';

/**
 * The demo seed on both dialects: the fixed make list, the reference data, the shape of the
 * generated activity, and determinism (two databases seeded alike hold the same rows).
 */

const OPTIONS = { users: 50, scans: 200, specialFunctions: 80, actuations: 80 };
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database of one dialect, and how to throw it away. */
interface Fresh {
  db: Db;
  drop(): Promise<void>;
}

async function freshSqlite(): Promise<Fresh> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-seed-'));
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

async function freshPostgres(): Promise<Fresh> {
  const schema = `seed_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const db = openDatabase({ dialect: 'postgres', url: PG_URL }, { schema });
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.close();
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The first rows of the tables whose contents the seed decides, for the determinism check. */
async function snapshot(db: Db) {
  const k = db.kysely;
  return {
    makes: await k.selectFrom('makes').selectAll().orderBy('id').execute(),
    models: await k.selectFrom('models').selectAll().orderBy('id').limit(200).execute(),
    mechanic: await k.selectFrom('mechanic_commands').selectAll().orderBy('id').limit(100).execute(),
    custom: await k.selectFrom('custom_commands').selectAll().orderBy('id').limit(50).execute(),
    live: await k.selectFrom('live_data_commands').selectAll().orderBy('id').limit(50).execute(),
    faults: await k.selectFrom('fault_codes').selectAll().orderBy('id').limit(100).execute(),
    users: await k.selectFrom('app_users').selectAll().orderBy('id').limit(20).execute(),
    subscriptions: await k.selectFrom('subscriptions').selectAll().orderBy('id').limit(20).execute(),
    scans: await k.selectFrom('scans').selectAll().orderBy('id').limit(20).execute(),
    runs: await k.selectFrom('special_function_runs').selectAll().orderBy('id').limit(20).execute(),
    actuations: await k.selectFrom('actuation_runs').selectAll().orderBy('id').limit(20).execute(),
  };
}

function seedSuite(open: () => Promise<Fresh>) {
  let first: Fresh;
  let secondSnapshot: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    // One database at a time: Kysely's migrator looks for its lock table in every PostgreSQL
    // schema, so two fresh schemas side by side would confuse the second migration.
    const second = await open();
    try {
      expect(await isEmpty(second.db)).toBe(true);
      await seedDemo(second.db, OPTIONS);
      secondSnapshot = await snapshot(second.db);
    } finally {
      await second.drop();
    }
    first = await open();
    await seedDemo(first.db, OPTIONS);
  }, 240_000); // two full reference-data seeds; PostgreSQL on a busy CI machine needs the margin

  afterAll(async () => {
    await first?.drop();
  });

  it('is no longer empty', async () => {
    expect(await isEmpty(first.db)).toBe(false);
  });

  it('has the 63 Update-commands makes with their segments', async () => {
    const rows = await first.db.kysely
      .selectFrom('makes')
      .select(['name', 'segment'])
      .where('name', 'in', [...UPDATE_COMMAND_MAKES])
      .execute();
    expect(rows).toHaveLength(63);
    const segment = new Map(rows.map((r) => [r.name, r.segment]));
    for (const name of UPDATE_COMMAND_MAKES) expect(segment.get(name), name).toBe(segmentOf(name));
    expect(segment.get('Ashok Leyland')).toBe('hcv');
    expect(segment.get('Bajaj 3 Wheelers')).toBe('three_wheeler');
    expect(segment.get('KTM- Bikes')).toBe('bike');
    expect(segment.get('Honda')).toBe('car');
  });

  it('gives every make at least one model, and every model a group of its make', async () => {
    const k = first.db.kysely;
    const withoutModels = await k
      .selectFrom('makes')
      .select('name')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('models').select('models.id').whereRef('models.make_id', '=', 'makes.id'))),
      )
      .execute();
    expect(withoutModels).toEqual([]);
    const mismatched = await k
      .selectFrom('models')
      .innerJoin('model_groups', 'model_groups.id', 'models.model_group_id')
      .select('models.id')
      .whereRef('model_groups.make_id', '<>', 'models.make_id')
      .execute();
    expect(mismatched).toEqual([]);
    const mahindra = await k
      .selectFrom('models')
      .innerJoin('makes', 'makes.id', 'models.make_id')
      .select('models.name')
      .where('makes.name', '=', 'Mahindra')
      .execute();
    expect(mahindra.map((m) => m.name)).toContain('XUV700');
  });

  it('has Honda Engine and ABS scan commands in the full scan', async () => {
    const rows = await first.db.kysely
      .selectFrom('mechanic_commands')
      .innerJoin('makes', 'makes.id', 'mechanic_commands.make_id')
      .select(['mechanic_commands.module', 'mechanic_commands.command'])
      .where('makes.name', '=', 'Honda')
      .where('mechanic_commands.function_type', '=', 'scan')
      .where('mechanic_commands.full_scan', '=', 1)
      .execute();
    const modules = new Set(rows.map((r) => r.module));
    expect(modules.has('Engine')).toBe(true);
    expect(modules.has('ABS')).toBe(true);
    expect(rows.some((r) => r.command === 'AT Z')).toBe(true);
    expect(rows.some((r) => r.command === '03')).toBe(true);
  });

  it('holds generic and make-specific fault codes', async () => {
    const k = first.db.kysely;
    const p0301 = await k
      .selectFrom('fault_codes')
      .selectAll()
      .where('dtc', '=', 'P0301')
      .where('company_id', '=', 0)
      .execute();
    expect(p0301).toHaveLength(1);
    expect(p0301[0]).toMatchObject({ company_id: 0, make: null, generic: 1 });
    expect(p0301[0]?.title).toMatch(/misfire/i);

    const specific = await k
      .selectFrom('fault_codes')
      .innerJoin('makes', 'makes.id', 'fault_codes.company_id')
      .select(['fault_codes.dtc', 'fault_codes.make', 'makes.name as makeName', 'fault_codes.generic'])
      .where('fault_codes.generic', '=', 0)
      .where('makes.name', '=', 'Honda')
      .limit(5)
      .execute();
    expect(specific.length).toBeGreaterThan(0);
    for (const row of specific) expect(row).toMatchObject({ make: 'Honda', makeName: 'Honda', generic: 0 });
    const orphans = await k
      .selectFrom('fault_codes')
      .leftJoin('makes', 'makes.id', 'fault_codes.company_id')
      .select('fault_codes.id')
      .where('fault_codes.generic', '=', 0)
      .where((eb) => eb.or([eb('makes.id', 'is', null), eb('makes.name', '<>', eb.ref('fault_codes.make'))]))
      .execute();
    expect(orphans).toEqual([]);
  });

  it('holds causes, symptoms and solutions keyed by the sha-256 of their text', async () => {
    const k = first.db.kysely;
    const causes = await k.selectFrom('fault_code_causes').selectAll().orderBy('id').limit(20).execute();
    const symptoms = await k.selectFrom('fault_code_symptoms').selectAll().orderBy('id').limit(20).execute();
    const solutions = await k
      .selectFrom('fault_code_solutions')
      .selectAll()
      .orderBy('id')
      .limit(20)
      .execute();
    expect(causes.length).toBeGreaterThan(0);
    expect(symptoms.length).toBeGreaterThan(0);
    expect(solutions.length).toBeGreaterThan(0);
    for (const c of causes) expect(c.text_hash).toBe(sha256(c.causes));
    for (const s of symptoms) expect(s.text_hash).toBe(sha256(s.symptom));
    for (const s of solutions) expect(s.text_hash).toBe(sha256(s.solution));
    expect(new Set(causes.map((c) => c.language))).toEqual(new Set(['en', 'de']));
    const specificSolutions = await k
      .selectFrom('fault_code_solutions')
      .select(['make', 'company_id'])
      .where('generic', '=', 0)
      .execute();
    expect(specificSolutions.length).toBeGreaterThan(0);
    for (const s of specificSolutions) expect(s.company_id).toBeGreaterThan(0);
  });

  it('links live data of a modelled signal set to its model group', async () => {
    const rows = await first.db.kysely
      .selectFrom('live_data_commands')
      .innerJoin('model_groups', 'model_groups.id', 'live_data_commands.model_group_id')
      .innerJoin('makes', 'makes.id', 'live_data_commands.make_id')
      .select(['model_groups.name as group', 'live_data_commands.reference_json'])
      .where('makes.name', '=', 'Honda')
      .where('model_groups.name', '=', 'Civic')
      .limit(5)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    const reference = JSON.parse(rows[0]?.reference_json ?? 'null') as { signal_id?: string };
    expect(reference.signal_id).toBeTruthy();
  });

  it('writes the requested volumes of users and activity', async () => {
    const k = first.db.kysely;
    const count = async (table: 'app_users' | 'scans' | 'special_function_runs' | 'actuation_runs') =>
      Number(
        (
          await k
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('app_users')).toBe(OPTIONS.users);
    expect(await count('scans')).toBe(OPTIONS.scans);
    expect(await count('special_function_runs')).toBe(OPTIONS.specialFunctions);
    expect(await count('actuation_runs')).toBe(OPTIONS.actuations);
    const secrets = await k
      .selectFrom('app_users')
      .select(['auth_token', 'password_hash'])
      .limit(5)
      .execute();
    for (const s of secrets) {
      expect(s.auth_token).toMatch(/^[0-9a-f]{64}$/);
      expect(s.password_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('gives every scan a non-empty scanResArray of real frames and decoded codes that exist', async () => {
    const k = first.db.kysely;
    const scans = await k.selectFrom('scans').selectAll().orderBy('id').execute();
    const users = new Map(
      (await k.selectFrom('app_users').select(['id', 'email']).execute()).map((u) => [u.id, u.email]),
    );
    const codes = new Set<string>();
    for (const scan of scans) {
      expect(users.get(scan.app_user_id ?? -1)).toBe(scan.email);
      if (scan.vin !== null) expect(scan.vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(scan.scan_ended === 0).toBe(scan.scan_end_time === null);
      const entries = JSON.parse(scan.scan_res_array) as Record<string, unknown>[];
      expect(Array.isArray(entries)).toBe(true);
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) {
        expect(Object.keys(e)).toEqual(['system', 'pid', 'data', 'header', 'protocol', 'make']);
        expect(e.make).toBe(scan.make);
        // Recorded adapter output as received: hex frames, at times with 'NO DATA' or a bus message.
        expect(e.data).toMatch(/[0-9A-F]{2}/);
      }
      const decoded = JSON.parse(scan.decoded_array) as {
        pid: string;
        decodedFaultArray: Record<string, string>;
      }[];
      expect(Array.isArray(decoded)).toBe(true);
      for (const d of decoded) {
        expect(d.pid).toBe('03');
        for (const code of Object.keys(d.decodedFaultArray)) codes.add(code);
      }
    }
    expect(codes.size).toBeGreaterThan(0);
    const known = await k
      .selectFrom('fault_codes')
      .select('dtc')
      .where('dtc', 'in', [...codes])
      .execute();
    expect(new Set(known.map((c) => c.dtc))).toEqual(codes);
  });

  it('gives special-function and actuation runs parseable result arrays', async () => {
    const k = first.db.kysely;
    const runs = await k.selectFrom('special_function_runs').select('scan_res_array').execute();
    const acts = await k
      .selectFrom('actuation_runs')
      .select(['scan_res_array', 'user_car_model_id'])
      .execute();
    for (const run of [...runs, ...acts]) {
      const steps = JSON.parse(run.scan_res_array) as Record<string, unknown>[];
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) expect(Object.keys(s).sort()).toEqual(['data', 'input', 'pid']);
    }
    const modelIds = new Set((await k.selectFrom('models').select('id').execute()).map((m) => m.id));
    for (const a of acts)
      if (a.user_car_model_id !== null) expect(modelIds.has(a.user_car_model_id)).toBe(true);
  });

  it('is deterministic: the same options seed the same rows', async () => {
    expect(await snapshot(first.db)).toEqual(secondSnapshot);
  });

  // After the determinism check: it changes the database.
  it('appends new activity for the users and makes already there', async () => {
    const k = first.db.kysely;
    const before = await k.selectFrom('scans').select(['scan_res_array', 'vin']).orderBy('id').execute();
    const added = await appendActivity(first.db, { scans: 120, specialFunctions: 10, actuations: 10 });
    expect(added).toEqual({ scans: 120, specialFunctions: 10, actuations: 10 });
    const after = await k
      .selectFrom('scans')
      .select(['id', 'email', 'app_user_id', 'vin'])
      .orderBy('id')
      .execute();
    expect(after).toHaveLength(OPTIONS.scans + 120);
    const users = new Map(
      (await k.selectFrom('app_users').select(['id', 'email']).execute()).map((u) => [u.id, u.email]),
    );
    for (const scan of after.slice(OPTIONS.scans)) expect(users.get(scan.app_user_id ?? -1)).toBe(scan.email);
    // A new PRNG stream: the appended scans are not copies of the first ones.
    const newVins = after.slice(OPTIONS.scans).map((s) => s.vin);
    expect(newVins.slice(0, 20)).not.toEqual(before.slice(0, 20).map((s) => s.vin));
  });
}

describe('demo seed on SQLite', () => {
  seedSuite(freshSqlite);
});

const pgReachable = await postgresReachable();

describe('demo seed on PostgreSQL', () => {
  if (!pgReachable) {
    if (process.env.CI) {
      it('needs PostgreSQL', () => {
        throw new Error(
          `PostgreSQL at ${PG_URL} is not reachable; CI must run the PostgreSQL half of this suite.`,
        );
      });
    } else {
      console.warn(`PostgreSQL at ${PG_URL} is not reachable: skipping the PostgreSQL seed tests.`);
      it.skip(`PostgreSQL at ${PG_URL} is not reachable (skipped outside CI)`, () => {});
    }
    return;
  }
  seedSuite(freshPostgres);
});
