import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { createSession, insertOperator } from '../src/auth/repository.ts';
import { type Db, type Dialect, migrate, openDatabase } from '../src/db/database.ts';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The dialects the server suite runs on: always SQLite, and PostgreSQL when reachable. On CI an
 * unreachable PostgreSQL is a failure, never a silent skip (DESIGN.md, Tests).
 */
export const DIALECTS: Dialect[] = await (async () => {
  if (await postgresReachable()) return ['sqlite', 'postgres'];
  if (process.env.CI) throw new Error(`PostgreSQL is not reachable at ${PG_URL}; CI needs it.`);
  console.warn(`skipped: no PostgreSQL at ${PG_URL} — running the server suite on SQLite only`);
  return ['sqlite'];
})();

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  /** Another connection to the same database, as a second server process would hold. */
  reopen(): Db;
  close(): Promise<void>;
}

async function appOver(db: Db, options: { closesDb?: boolean } = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    config: { corsOrigins: [], webRoot: path.join(os.tmpdir(), 'no-web-app'), logLevel: 'silent' },
    db,
    logger: false,
  });
  if (options.closesDb) app.addHook('onClose', () => db.close());
  await app.ready();
  return app;
}

/**
 * Another server process's app over the same database, on a connection of its own (as when
 * several servers share one database); closing the app closes that connection.
 */
export function secondServer(t: TestContext): Promise<FastifyInstance> {
  return appOver(t.reopen(), { closesDb: true });
}

/** A fresh, migrated, empty database of the dialect and an app over it (no listening). */
export async function createTestApp(dialect: Dialect): Promise<TestContext> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  let db: Db;
  let reopen: () => Db;
  let dropDatabase: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-test-'));
    reopen = () => openDatabase({ dialect: 'sqlite', file: path.join(dir, `${name}.sqlite`) });
    db = reopen();
    dropDatabase = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${name}`);
    await admin.end();
    reopen = () => openDatabase({ dialect: 'postgres', url: PG_URL }, { schema: name });
    db = reopen();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${name} CASCADE`);
      await c.end();
    };
  }
  await migrate(db);
  const app = await appOver(db);
  return {
    app,
    db,
    reopen,
    async close() {
      await app.close();
      await db.close();
      await dropDatabase();
    },
  };
}

let operatorCount = 0;

/** Creates an operator directly in the database and returns a bearer header for it. */
export async function signedIn(db: Db, role: 'viewer' | 'editor' | 'admin' = 'viewer') {
  operatorCount += 1;
  const email = `operator${operatorCount}-${role}@example.com`;
  const operator = await insertOperator(db.kysely, {
    email,
    passwordHash: await hashPassword('correct horse battery'),
    role,
  });
  const token = await createSession(db.kysely, operator.id);
  return { operator, token, headers: { authorization: `Bearer ${token}` } };
}

/**
 * Points this test file's temporary files (every upload's private folder) at a folder of its own,
 * removed after the file, so that "no upload folder is left behind" can be checked exactly.
 * Call at the top level of a test file; `leftovers()` names the upload folders still there.
 */
export function ownTemporaryFolder(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  afterAll(() => {
    if (previous === undefined) Reflect.deleteProperty(process.env, 'TMPDIR');
    else process.env.TMPDIR = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, leftovers: () => fs.readdirSync(dir).filter((name) => name.startsWith('obd-upload-')) };
}

/** The valid indexes of `fault_codes`, by name (what an import dropped and built again). */
export async function faultCodeIndexes(t: TestContext): Promise<string[]> {
  const rows =
    t.db.dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select c.relname as name from pg_index x join pg_class c on c.oid = x.indexrelid
          where x.indrelid = 'fault_codes'::regclass and x.indisvalid order by 1`.execute(t.db.kysely)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index'
          and tbl_name = 'fault_codes' order by 1`.execute(t.db.kysely);
  return rows.rows.map((r) => r.name);
}
