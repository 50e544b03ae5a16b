import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, migrate, openDatabase } from '../src/db/database.ts';
import { DIALECTS, PG_URL, signedIn } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

/** Starts the real server (`main.ts`) and waits for the line with its address. */
function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SEED: 'none', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/[\d.]+:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] as string, exited });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

/** An activation-codes CSV just under the route's 10 MB limit: about 390,000 rows. */
function bigCodes(): Buffer {
  const lines = ['ActivationCode,Plan,Duration,Vehicle'];
  const line = (i: number) => `CRASH-${String(i).padStart(8, '0')},Pro,30,Car`;
  let size = 0;
  for (let i = 0; size < 9.5 * 1024 * 1024; i += 1) {
    const l = line(i);
    lines.push(l);
    size += l.length + 2;
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/**
 * The upload folders in the temporary directory that a process made (each names its owner). The
 * server shares the temporary directory with everything else, the TypeScript loader's cache
 * among them (a private one would make every start compile the sources afresh).
 */
const uploadFoldersOf = (pid: number | undefined) =>
  fs
    .readdirSync(os.tmpdir())
    .filter((name) => name.startsWith('obd-upload-'))
    .filter((name) => {
      try {
        return fs.readFileSync(path.join(os.tmpdir(), name, 'owner'), 'utf8').startsWith(`${pid}:`);
      } catch {
        return false;
      }
    });

describe.each(DIALECTS)('a server killed during an import on %s', (dialect) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-crash-test-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let db: Db | undefined;
  const servers: Server[] = [];

  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await db?.close();
    if (dialect === 'postgres') {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    }
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('leaves the tables unchanged, shows the import failed and leaves no folder after the next start', async () => {
    let databaseUrl: string;
    if (dialect === 'sqlite') {
      const file = path.join(base, 'obd.sqlite');
      databaseUrl = `sqlite:${file}`;
      db = openDatabase({ dialect: 'sqlite', file });
    } else {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`CREATE SCHEMA ${schema}`);
      await c.end();
      // The server's pool confines itself to the schema through the connection's options.
      const url = new URL(PG_URL);
      url.searchParams.set('options', `-c search_path=${schema},public`);
      databaseUrl = url.toString();
      db = openDatabase({ dialect: 'postgres', url: PG_URL }, { schema });
    }
    await migrate(db);
    const { headers } = await signedIn(db, 'editor');
    const env = { DATABASE_URL: databaseUrl };
    const countCodes = async () =>
      Number(
        (
          await (db as Db).kysely
            .selectFrom('activation_codes')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    const first = await startServer(env);
    servers.push(first);
    const form = new FormData();
    form.append('file', new Blob([bigCodes()]), 'codes.csv');
    const answer = fetch(`${first.url}/api/uplodeactivationcode`, {
      method: 'POST',
      headers,
      body: form,
    }).catch((error: unknown) => error);

    // Kill it once the import is writing: its transaction is open.
    let importId: number | undefined;
    let phase = '';
    const deadline = Date.now() + 40_000;
    while (phase !== 'writing' && Date.now() < deadline) {
      if (importId === undefined) {
        const res = await fetch(`${first.url}/api/imports?limit=1`, { headers });
        importId = ((await res.json()) as { data: { id: number }[] }).data[0]?.id;
      } else {
        const res = await fetch(`${first.url}/api/imports/${importId}`, { headers });
        const detail = (await res.json()) as { status: string; phase: string };
        if (detail.status !== 'running')
          throw new Error(`the import ended before it could be killed: ${JSON.stringify(detail)}`);
        phase = detail.phase;
      }
      if (phase !== 'writing') await new Promise((r) => setTimeout(r, 10));
    }
    expect(phase).toBe('writing');
    expect(importId).toBeDefined();
    first.child.kill('SIGKILL');
    await first.exited;
    await answer;
    // What a kill leaves: the upload's folder, and a record still saying running.
    expect(uploadFoldersOf(first.child.pid)).toHaveLength(1);
    const record = () =>
      (db as Db).kysely
        .selectFrom('imports')
        .select(['status', 'message'])
        .where('id', '=', importId as number)
        .executeTakeFirstOrThrow();
    expect((await record()).status).toBe('running');
    expect(await countCodes()).toBe(0);

    const second = await startServer(env);
    servers.push(second);
    expect(uploadFoldersOf(first.child.pid)).toEqual([]);
    // SQLite fails it at start; PostgreSQL (shared by several servers) once its heartbeat is silent.
    const until = Date.now() + 30_000;
    let shown = (await (await fetch(`${second.url}/api/imports/${importId}`, { headers })).json()) as {
      status: string;
      message: string;
    };
    while (shown.status === 'running' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      shown = (await (
        await fetch(`${second.url}/api/imports/${importId}`, { headers })
      ).json()) as typeof shown;
    }
    expect(shown).toMatchObject({
      status: 'failed',
      message:
        'The server stopped before this import finished, so nothing of it was imported. Upload the file again.',
    });
    expect(await countCodes()).toBe(0);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
