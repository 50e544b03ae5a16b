/**
 * Shared helpers of the benchmarks: start the real server on a prepared database, sign in,
 * time requests and read the server's peak memory. Benchmarks print figures; they never
 * assert timings (DESIGN.md: speed is measured, not tested).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Peak resident memory of the server process so far, in MB (Linux VmHWM). */
  peakRssMb(): number;
  stop(): Promise<void>;
}

let built: Promise<void> | undefined;

/**
 * The node flags `npm start` gives the server, read from its script (apps/server/package.json) so
 * that the benchmarks run exactly what operators run; BENCH_SERVER_FLAGS adds more (e.g. `--trace-gc`).
 */
function serverNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'apps/server/package.json'), 'utf8'));
  const start = /\bnode ((?:--\S+ )*)dist\/main\.js/.exec(manifest.scripts.start);
  if (!start)
    throw new Error('apps/server/package.json: the start script no longer runs node … dist/main.js');
  return `${start[1]} ${process.env.BENCH_SERVER_FLAGS ?? ''}`.split(' ').filter(Boolean);
}

/**
 * Starts the server as `npm start` runs it — the bundled `apps/server/dist/main.js`, built once
 * per benchmark run — on a database that is already migrated and seeded. The node process is
 * started directly (not through npm) so that its memory is the server's own.
 */
/** How long a bench server may take to start, seeding included (BENCH_START_TIMEOUT_MS). */
const START_TIMEOUT_MS = Number(process.env.BENCH_START_TIMEOUT_MS ?? 600_000);

export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  built ??= run(process.execPath, ['apps/server/build.mjs']);
  await built;
  const port = await freePort();
  const child = spawn(process.execPath, [...serverNodeFlags(), 'apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      SEED: 'none',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // A first start may seed the demo database (~40 s on this machine, more under load): wait for
  // it, but say so instead of letting the first request fail with ECONNREFUSED.
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited !== null) throw new Error(`The server exited (code ${exited}) before it answered.`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`The server did not answer /api/health within ${START_TIMEOUT_MS / 1000} s.`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: child,
    peakRssMb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Signs in (creating the first operator on an empty operators table) and returns the bearer header. */
export async function signIn(url: string): Promise<Record<string, string>> {
  const credentials = { email: 'bench@example.com', password: 'benchmark password' };
  let res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!res.ok) {
    res = await fetch(`${url}/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
  }
  if (!res.ok) throw new Error(`Could not sign in: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Times `count` sequential GETs after `warmup` untimed ones; milliseconds. */
export async function latency(
  url: string,
  headers: Record<string, string>,
  count = 200,
  warmup = 20,
): Promise<LatencySummary> {
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i += 1) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    if (i >= warmup) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1));
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Number((times.at(-1) ?? 0).toFixed(1)) };
}

/** Runs a command to completion, inheriting output; rejects on a non-zero exit. */
export function run(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** The machine's load averages (1, 5, 15 min), for the benchmarks' headers and summaries. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/**
 * Seeds a database that holds nothing yet (or does not exist) with `npm run seed -- <args>`: on an
 * empty database the volumes given replace the demo's (`--scans N --users N`, bulk-loaded from
 * 200,000 rows on). Any other database is only migrated, as the seed command and the server would.
 * Returns whether it seeded.
 */
export async function seedIfEmpty(databaseUrl: string, args: string[]): Promise<boolean> {
  const { parseDatabaseUrl } = await import('../apps/server/src/config.ts');
  const { migrate, openDatabase } = await import('../apps/server/src/db/database.ts');
  const { isEmpty } = await import('../apps/server/seed/index.ts');
  const db = openDatabase(parseDatabaseUrl(databaseUrl));
  let empty: boolean;
  try {
    await migrate(db);
    empty = await isEmpty(db);
  } finally {
    await db.close();
  }
  if (!empty) return false;
  console.log(`seeding ${databaseUrl}: ${args.join(' ')}`);
  await run('npm', ['run', 'seed', '--', ...args], { DATABASE_URL: databaseUrl });
  return true;
}
