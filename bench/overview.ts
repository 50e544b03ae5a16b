/**
 * The overview and the search at 1,000,000 scans (issue 13): over HTTP to the real server with
 * the response cache off, p50/p95 of
 *   - GET /api/overview for a day, 7 days, 30 days, a calendar month, this month of the clock, a
 *     year, the whole data set (18 months), a custom range and the default period (the last 30
 *     days of the clock);
 *   - GET /api/search for each kind: a fault code (common and rare), a VIN, an e-mail (whole and a
 *     fragment shared by thousands of scans), a plate (whole and in part), a make, free text.
 * Target p95 ≤ 100 ms on SQLite and PostgreSQL.
 *
 *   node --import tsx bench/overview.ts
 * Databases: BENCH_OVERVIEW_SQLITE (default sqlite:$TMP/obd-bench-overview.sqlite) and, when set,
 * BENCH_OVERVIEW_PG (a database of its own, e.g. postgres://postgres@127.0.0.1:5432/obd_overview_bench).
 * A database short of 1,000,000 scans is seeded and topped up first (`npm run seed`, then
 * `--scans N --append`). BENCH_OVERVIEW_REQUESTS sets the timed requests per case (default 100).
 */
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { latency, run, signIn, startServer } from './lib.ts';

const TARGET_SCANS = 1_000_000;

/** This month of the clock, from its first day to today (the screen's "this month"). */
const today = new Date().toISOString().slice(0, 10);
const thisMonth = `from=${today.slice(0, 8)}01&to=${today}`;

const PERIODS: [string, string][] = [
  ['a day', 'from=2026-06-15&to=2026-06-15'],
  ['7 days', 'from=2026-06-09&to=2026-06-15'],
  ['30 days', 'from=2026-05-17&to=2026-06-15'],
  ['a month (June 2026)', 'from=2026-06-01&to=2026-06-30'],
  ['this month (clock)', thisMonth],
  ['a year', 'from=2025-06-16&to=2026-06-15'],
  ['all (18 months)', 'from=2025-01-01&to=2026-06-30'],
  // Custom: edge days at both ends around whole months, as a picked range usually is.
  ['custom (2025-03-10..2025-08-22)', 'from=2025-03-10&to=2025-08-22'],
  ['default (last 30 days)', ''],
];

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Scans in the database, as the scans list counts them. */
async function scanCount(server: { url: string }, headers: Record<string, string>) {
  const res = await fetch(`${server.url}/api/ScanDetail?limit=1`, { headers });
  return ((await res.json()) as { total: number }).total;
}

export async function benchOverview(databaseUrl: string): Promise<string[]> {
  const requests = Number(process.env.BENCH_OVERVIEW_REQUESTS ?? 100);
  await run('npm', ['run', 'seed'], { DATABASE_URL: databaseUrl });
  let server = await startServer(databaseUrl, { RESPONSE_CACHE: 'off' });
  let headers = await signIn(server.url);
  const have = await scanCount(server, headers);
  if (have < TARGET_SCANS) {
    await server.stop();
    await run('npm', ['run', 'seed', '--', '--scans', String(TARGET_SCANS - have), '--append'], {
      DATABASE_URL: databaseUrl,
    });
    server = await startServer(databaseUrl, { RESPONSE_CACHE: 'off' });
    headers = await signIn(server.url);
  }
  if (databaseUrl.startsWith('postgres')) {
    // The seed vacuums only the table it filled; the counters the triggers updated a million times
    // need their statistics (the planner) and visibility maps (index-only probes) too.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        'VACUUM (ANALYZE) scans, scan_dtcs, overview_days, overview_months, overview_scanner_days, overview_scanner_months, list_totals, list_days, fault_codes',
      );
    } finally {
      await client.end();
    }
  }
  const lines = [`${databaseUrl}: ${requests} requests per case, load ${load()}`];
  console.log(lines[0]);
  try {
    // Real values of this database for the searches.
    const page = (await (
      await fetch(`${server.url}/api/ScanDetail?limit=1&page=5000`, { headers })
    ).json()) as {
      scans: { vin: string | null; email: string; license_plate: string | null }[];
    };
    const scan = page.scans[0];
    const cases: [string, string][] = [
      ...PERIODS.map(([name, q]): [string, string] => [`overview ${name}`, `/api/overview?${q}`]),
      ['search DTC P0300 (common)', '/api/search?q=P0300'],
      ['search DTC B1000 (rare)', '/api/search?q=B1000'],
      ['search VIN', `/api/search?q=${encodeURIComponent(scan?.vin ?? '1HGCM82633A004352')}`],
      ['search e-mail (whole)', `/api/search?q=${encodeURIComponent(scan?.email ?? 'a@b.c')}`],
      ['search e-mail fragment @gmail', '/api/search?q=%40gmail'],
      ['search plate (whole)', `/api/search?q=${encodeURIComponent(scan?.license_plate ?? 'MH 12 AB 1234')}`],
      ['search plate (part) MH 12', '/api/search?q=MH%2012'],
      ['search make honda', '/api/search?q=honda'],
      ['search text misfire', '/api/search?q=misfire'],
    ];
    for (const [name, url] of cases) {
      const r = await latency(`${server.url}${url}`, headers, requests, 10);
      const line = `${name.padEnd(34)} p50 ${String(r.p50).padStart(6)} ms  p95 ${String(r.p95).padStart(6)} ms  max ${r.max} ms`;
      console.log(line);
      lines.push(line);
    }
    lines.push(`load after: ${load()}`);
    console.log(lines.at(-1));
  } finally {
    await server.stop();
  }
  return lines;
}

/** SQLite (BENCH_OVERVIEW_SQLITE or a file in the temporary folder), and PostgreSQL when BENCH_OVERVIEW_PG is set. */
export function overviewDatabases(): string[] {
  return [
    process.env.BENCH_OVERVIEW_SQLITE ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-overview.sqlite')}`,
    ...(process.env.BENCH_OVERVIEW_PG ? [process.env.BENCH_OVERVIEW_PG] : []),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const url of overviewDatabases()) await benchOverview(url);
}
