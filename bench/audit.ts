/**
 * The audit list at 1,000,000 events (issue 11): page 1 with no filter and with each single
 * filter, over HTTP to the real server with the response cache off, on SQLite and PostgreSQL.
 * Target: p95 ≤ 30 ms. Totals are exact (from the counters migration 010 keeps, or counted).
 *
 *   node --import tsx bench/audit.ts
 * Databases: BENCH_AUDIT_SQLITE (default sqlite:$TMP/obd-bench-audit.sqlite) and BENCH_AUDIT_PG
 * (default postgres://postgres@127.0.0.1:5432/obd_audit_bench, created if missing — never the
 * tests' database; BENCH_AUDIT_PG=none skips it). A database short of a million events is topped up
 * first with `npm run seed -- --audit N --append` (≈ 1 min on SQLite, a few on PostgreSQL).
 * BENCH_AUDIT_REQUESTS sets the timed requests per case (default 100); BENCH_AUDIT_EVENTS the volume
 * (default 1,000,000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parseDatabaseUrl } from '../apps/server/src/config.ts';
import { migrate, openDatabase } from '../apps/server/src/db/database.ts';
import { latency, run, signIn, startServer } from './lib.ts';

const TARGET_EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_AUDIT_REQUESTS ?? 100);

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** No filter, then each single filter with a common and a rare value (the seed's mix: seed/audit.ts). */
export const AUDIT_CASES = [
  '',
  'action=export', // a quarter of all events
  'action=role-changed', // one in a hundred
  'operator=bench%40example.com', // the busiest operator
  'operator=operator17', // one of the quietest
  'operator=ops.example', // nineteen operators at once
  'target=scans',
  'target=operator05%40ops.example.com',
  `from=${daysAgo(30)}&to=${daysAgo(20)}`, // ten whole days
  `from=${new Date(Date.now() - 45.5 * 86_400_000).toISOString()}&to=${new Date(Date.now() - 40.25 * 86_400_000).toISOString()}`, // partial first and last day
  `from=${daysAgo(7)}`,
  `to=${daysAgo(300)}`,
];

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function ensurePostgresDatabase(url: string) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '')}"`);
  await client.end();
}

/** Migrates the database and tops it up to a million audit events. */
export async function prepareAuditDatabase(databaseUrl: string) {
  const config = parseDatabaseUrl(databaseUrl);
  if (config.dialect === 'postgres') await ensurePostgresDatabase(config.url);
  const db = openDatabase(config);
  let have = 0;
  try {
    await migrate(db);
    const row = await db.kysely
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    have = Number(row.n);
  } finally {
    await db.close();
  }
  if (have < TARGET_EVENTS) {
    console.log(`seeding ${databaseUrl}: --audit ${TARGET_EVENTS - have} --append`);
    await run('npm', ['run', 'seed', '--', '--audit', String(TARGET_EVENTS - have), '--append'], {
      DATABASE_URL: databaseUrl,
    });
  }
}

export async function benchAudit(databaseUrl: string): Promise<string[]> {
  await prepareAuditDatabase(databaseUrl);
  const server = await startServer(databaseUrl, { RESPONSE_CACHE: 'off' });
  const lines: string[] = [];
  try {
    const headers = await signIn(server.url);
    for (const query of AUDIT_CASES) {
      const url = `${server.url}/api/audit?${query}`;
      const total = ((await (await fetch(url, { headers })).json()) as { total: number }).total;
      const pid = server.process.pid ?? 0;
      const cpuBefore = cpuMs(pid);
      const s = await latency(url, headers, REQUESTS, 10);
      // The server's own CPU per request hardly depends on what else the shared machine runs.
      const cpu = ((cpuMs(pid) - cpuBefore) / (REQUESTS + 10)).toFixed(1);
      const line = `${(query || '(no filter)').padEnd(70)} total ${String(total).padStart(9)}  p50 ${String(s.p50).padStart(5)} ms  p95 ${String(s.p95).padStart(5)} ms  p99 ${String(s.p99).padStart(5)} ms  server CPU ${cpu.padStart(4)} ms/request`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await server.stop();
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sqlite =
    process.env.BENCH_AUDIT_SQLITE ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-audit.sqlite')}`;
  const postgres = process.env.BENCH_AUDIT_PG ?? 'postgres://postgres@127.0.0.1:5432/obd_audit_bench';
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  console.log('SQLite');
  await benchAudit(sqlite);
  if (postgres !== 'none') {
    console.log('PostgreSQL');
    await benchAudit(postgres);
  }
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
}
