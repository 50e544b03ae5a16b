/**
 * Operations lists at 1,000,000 rows (issue 4): the Users Table, Scan Details, Special Function
 * and Actuations Detail lists on a database holding 1,000,000 scans, 1,000,000 special-function
 * runs and 1,000,000 actuation runs. Over HTTP to the real server:
 *   1. latency p50/p95 of every list × {page 1, page 10,000} × {unfiltered, each single filter};
 *      target p95 ≤ 30 ms on SQLite and PostgreSQL;
 *   2. throughput with 50 connections (autocannon) of the scans list against a bare Fastify route
 *      serving the same 30 rows from memory, same run; target ≥ half its requests per second;
 *   3. the 1,000,000-row scans export (XLSX) read to the end, with the server's peak RSS;
 *      target ≤ 200 MB.
 *
 *   node --import tsx bench/operations.ts [latency] [throughput] [export]   (default: all three)
 * Databases: BENCH_OPS_SQLITE (default sqlite:$TMP/obd-bench-ops.sqlite) and, when set,
 * BENCH_OPS_PG (e.g. postgres://postgres@127.0.0.1:5432/obd_ops_bench — a database of its own,
 * never the tests'). An empty one is seeded first with a million rows per activity table and a
 * million app users (`npm run seed -- --scans 1000000 … --users 1000000`, so that the e-mail
 * filters search a realistic number of addresses); one short of a million rows per table is topped
 * up (`--append`; its app users stay as they are — remove it to reseed). ≈ 10+ min on SQLite,
 * more on PostgreSQL.
 * BENCH_OPS_ONLY=ScanDetail keeps the latency cases whose URL contains that text;
 * BENCH_OPS_REQUESTS sets the timed requests per case (default 100).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import {
  freePort,
  latency,
  loadAverage,
  type RunningServer,
  run,
  seedIfEmpty,
  signIn,
  startServer,
} from './lib.ts';

const TARGET_ROWS = 1_000_000;
const DEEP_PAGE = 10_000;

/** Each list and its single filters, with values an operator would type (seed data of issue 2). */
export const OPERATION_CASES: { path: string; filters: string[] }[] = [
  {
    path: '/api/users',
    filters: [
      'email=sharma',
      'email=sharma1', // a surname and a digit: thousands of matches, no folded counter
      'plan=premium',
      'status=active',
      'created_from=2025-01-01',
      'created_to=2024-06-30',
    ],
  },
  {
    path: '/api/ScanDetail',
    filters: [
      'email=joshi',
      'email=joshi1', // a surname and a digit: thousands of matches, no folded counter
      'email=gmail', // a third of all rows: the worst case of a contains filter
      'email=vikram_joshi267%40gmail.com', // a pasted address: '_' is LIKE's wildcard, a plain character here
      'make=toyota',
      'model=city',
      'license_plate=MH%2012',
      'country_id=91',
      'scan_start_time=2026-05-01',
      'scan_end_time=2025-12-31T23:59:59Z',
      'type=generic',
      'app_version=3.5',
    ],
  },
  {
    path: '/api/SpecialFunctions',
    filters: [
      'email=kumar',
      'email=kumar1',
      'make=hyundai',
      'module=ABS',
      'model=creta',
      'function_type=reset',
      'command_type=UDS',
      'item_number=5',
      'variant=diesel',
      'license_plate=KA%2015',
      'scan_ended=true',
      'hard_coded=false',
      'scan_start_time=2026-01-01',
      'scan_end_time=2025-06-30',
    ],
  },
  {
    path: '/api/ActuationsDetail',
    filters: [
      'email=reddy',
      'email=reddy2',
      'make=bmw',
      'model=x5',
      'input=sweep',
      'actuation_type=horn',
      'actuation_option=cycle',
      'user_car_model_id=70',
      'created_from=2026-01-01',
      'created_to=2025-06-30T23:59:59Z',
    ],
  },
];

/** The databases of this benchmark (and of the pairs): BENCH_OPS_SQLITE's, then BENCH_OPS_PG's if set. */
export function operationsDatabases(): string[] {
  const sqlite = process.env.BENCH_OPS_SQLITE ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-ops.sqlite')}`;
  return [sqlite, ...(process.env.BENCH_OPS_PG ? [process.env.BENCH_OPS_PG] : [])];
}

const fmt = (n: number) => n.toLocaleString('en-US');

async function totals(server: RunningServer, headers: Record<string, string>) {
  const total = async (p: string) =>
    ((await (await fetch(`${server.url}${p}?limit=1`, { headers })).json()) as { total: number }).total;
  return {
    scans: await total('/api/ScanDetail'),
    specialFunctions: await total('/api/SpecialFunctions'),
    actuations: await total('/api/ActuationsDetail'),
    users: await total('/api/users'),
  };
}

/**
 * Brings each activity table to a million rows. An empty database is seeded with a million of
 * each and a million app users in one bulk load; any other is migrated first (migration 004
 * counts existing rows: minutes at a million, longer than a server start may take), then
 * `--append` adds the missing rows.
 */
export async function prepareOperationsDatabase(databaseUrl: string): Promise<void> {
  const n = String(TARGET_ROWS);
  await seedIfEmpty(databaseUrl, [
    ...['--scans', n, '--special-functions', n, '--actuations', n],
    ...['--users', n],
  ]);
  const server = await startServer(databaseUrl, { SEED: 'none' });
  let have: Awaited<ReturnType<typeof totals>>;
  try {
    have = await totals(server, await signIn(server.url));
  } finally {
    await server.stop();
  }
  if (have.users < TARGET_ROWS)
    console.log(
      `${databaseUrl}: ${fmt(have.users)} app users (an empty database is seeded with ${fmt(TARGET_ROWS)})`,
    );
  const missing = {
    scans: TARGET_ROWS - have.scans,
    'special-functions': TARGET_ROWS - have.specialFunctions,
    actuations: TARGET_ROWS - have.actuations,
  };
  const args = Object.entries(missing).flatMap(([k, n]) => (n > 0 ? [`--${k}`, String(n)] : []));
  if (args.length === 0) return;
  console.log(`seeding ${databaseUrl}: ${args.join(' ')} --append`);
  await run('npm', ['run', 'seed', '--', ...args, '--append'], { DATABASE_URL: databaseUrl });
}

/** Part 1: every list × page × filter, sequential requests, p50/p95/p99. */
export async function benchOperationLatency(
  databaseUrl: string,
  requests = Number(process.env.BENCH_OPS_REQUESTS ?? 100),
): Promise<string[]> {
  const only = process.env.BENCH_OPS_ONLY;
  // Each case repeats one request: without the response cache, or only the first would be timed.
  const server = await startServer(databaseUrl, { RESPONSE_CACHE: 'off' });
  const lines: string[] = [
    `latency on ${databaseUrl} — ${requests} requests per case, load ${loadAverage()}`,
  ];
  console.log(lines[0]);
  try {
    const headers = await signIn(server.url);
    const worst = { p95: 0, what: '' };
    for (const { path: listPath, filters } of OPERATION_CASES) {
      for (const filter of ['', ...filters]) {
        for (const page of [1, DEEP_PAGE]) {
          const query = [filter, page > 1 ? `page=${page}` : ''].filter(Boolean).join('&');
          const url = `${listPath}${query ? `?${query}` : ''}`;
          if (only && !url.includes(only)) continue;
          const first = (await (await fetch(`${server.url}${url}`, { headers })).json()) as Record<
            string,
            unknown
          >;
          const rows = Object.values(first).find(Array.isArray)?.length ?? 0;
          const s = await latency(
            `${server.url}${url}`,
            headers,
            requests,
            Math.min(10, Math.ceil(requests / 4)),
          );
          if (s.p95 > worst.p95) Object.assign(worst, { p95: s.p95, what: url });
          const line = `${url.padEnd(64)} total ${fmt(Number(first.total)).padStart(9)} rows ${String(rows).padStart(2)}  p50 ${s.p50.toFixed(1).padStart(6)} ms  p95 ${s.p95.toFixed(1).padStart(6)} ms  p99 ${s.p99.toFixed(1).padStart(6)} ms`;
          console.log(line);
          lines.push(line);
        }
      }
    }
    const summary = `worst p95 ${worst.p95} ms (${worst.what}), load ${loadAverage()}`;
    console.log(summary);
    lines.push(summary);
  } finally {
    await server.stop();
  }
  return lines;
}

/** A bare Fastify server in its own process: one route answering the given JSON from memory. */
async function startBareServer(body: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--bare-server', String(port)],
    {
      stdio: ['pipe', 'inherit', 'inherit'],
    },
  );
  child.stdin.end(body);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`${url}/rows`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

function cannon(url: string, headers: Record<string, string>, seconds: number) {
  return new Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }>(
    (resolve, reject) => {
      autocannon(
        { url, connections: 50, duration: seconds, headers },
        (error: unknown, r: AutocannonResult) => {
          if (error) reject(error);
          else
            resolve({
              rps: r.requests.average,
              p50: r.latency.p50,
              p99: r.latency.p99,
              errors: r.errors,
              non2xx: r.non2xx,
            });
        },
      );
    },
  );
}
interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}

/**
 * Part 2: 50 connections on the scans list against a bare route with the same 30 rows — with the
 * server as operators run it (response cache on: the repeated page is answered from memory after
 * the sign-in check), then with the cache off (every request runs its queries).
 */
export async function benchOperationThroughput(databaseUrl: string, seconds = 10): Promise<string[]> {
  const lines: string[] = [];
  for (const [mode, env] of [
    ['response cache on', {}],
    ['response cache off', { RESPONSE_CACHE: 'off' }],
  ] as const) {
    const server = await startServer(databaseUrl, env);
    try {
      const headers = await signIn(server.url);
      const listUrl = `${server.url}/api/ScanDetail`;
      const body = await (await fetch(listUrl, { headers })).text();
      const bare = await startBareServer(body);
      try {
        // Alternate, twice each, so both see the same machine load; warm both up first.
        await cannon(listUrl, headers, 2);
        await cannon(`${bare.url}/rows`, {}, 2);
        const list: number[] = [];
        const base: number[] = [];
        for (let round = 0; round < 2; round += 1) {
          const a = await cannon(listUrl, headers, seconds);
          const b = await cannon(`${bare.url}/rows`, {}, seconds);
          list.push(a.rps);
          base.push(b.rps);
          const line = `${mode}, round ${round + 1}: /api/ScanDetail ${fmt(Math.round(a.rps))} req/s (p50 ${a.p50} ms, p99 ${a.p99} ms, errors ${a.errors + a.non2xx}); bare route ${fmt(Math.round(b.rps))} req/s (p50 ${b.p50} ms, p99 ${b.p99} ms); ratio ${(a.rps / b.rps).toFixed(2)}; load ${loadAverage()}`;
          console.log(line);
          lines.push(line);
        }
        const ratio = list.reduce((s, x) => s + x, 0) / base.reduce((s, x) => s + x, 0);
        const line = `throughput on ${databaseUrl}, ${mode}: scans list / bare route = ${ratio.toFixed(2)} (target ≥ 0.50)`;
        console.log(line);
        lines.push(line);
      } finally {
        bare.stop();
      }
    } finally {
      await server.stop();
    }
  }
  return lines;
}

/** Part 3: the unfiltered scans export (every row) as XLSX, with the server's peak RSS. */
export async function benchScansExport(databaseUrl: string): Promise<string[]> {
  const server = await startServer(databaseUrl);
  try {
    const headers = await signIn(server.url);
    const idle = server.peakRssMb();
    const started = performance.now();
    const ticket = await fetch(`${server.url}/api/exports`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ list: 'scans', format: 'xlsx', query: {} }),
    });
    if (!ticket.ok) throw new Error(`export ticket: ${ticket.status} ${await ticket.text()}`);
    const { url } = (await ticket.json()) as { url: string };
    const res = await fetch(`${server.url}${url}`);
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const seconds = (performance.now() - started) / 1000;
    const line = `scans export XLSX on ${databaseUrl}: ${seconds.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB, server peak RSS ${server.peakRssMb()} MB (idle ${idle} MB), load ${loadAverage()}`;
    console.log(line);
    return [line];
  } finally {
    await server.stop();
  }
}

export async function benchOperations(parts: string[] = []): Promise<string[]> {
  const want = (part: string) => parts.length === 0 || parts.includes(part);
  const lines: string[] = [];
  for (const url of operationsDatabases()) {
    await prepareOperationsDatabase(url);
    if (want('latency')) lines.push(...(await benchOperationLatency(url)));
    if (want('throughput')) lines.push(...(await benchOperationThroughput(url)));
    if (want('export')) lines.push(...(await benchScansExport(url)));
  }
  return lines;
}

if (process.argv[2] === '--bare-server') {
  // The bare route of part 2: no authentication, validation or database; the body is fixed.
  let body = '';
  for await (const chunk of process.stdin) body += chunk;
  const rows = JSON.parse(body) as unknown;
  const app = Fastify({ logger: false });
  app.get('/rows', async () => rows);
  await app.listen({ port: Number(process.argv[3]), host: '127.0.0.1' });
} else if (import.meta.url === `file://${process.argv[1]}`) {
  await benchOperations(process.argv.slice(2));
}
