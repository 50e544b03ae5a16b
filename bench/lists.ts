/**
 * List latency: every list endpoint at its default page size on the demo database, sequential
 * requests over HTTP to the real server. Target (issue 3): p95 ≤ 20 ms.
 * `BENCH_DATABASE_URL=postgres://…` runs it on PostgreSQL (seeded if empty — but seeding
 * PostgreSQL outlasts startServer's 30 s wait: seed it first with `apps/server/src/cli/seed.ts`).
 * Arguments, if any, keep only the URLs containing one of them: `bench/lists.ts Commands`.
 * Besides the latencies, the server's CPU time per request: unlike them, it hardly depends on what
 * else the (shared, noisy) machine is running.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { latency, loadAverage, signIn, startServer } from './lib.ts';

export const LIST_URLS = [
  '/api/faultCodesList',
  '/api/faultCodesList?dtc=P03&generic=true',
  '/api/FaultCodeCauses',
  '/api/FaultCodeSymptoms?make=honda',
  '/api/FaultCodeSolutions',
  '/api/getCoverage?make=Honda',
  '/api/CommandAPI?make=Honda&function_type=scan&full_scan=true&module=%5B%22Engine%22%2C%22ABS%22%5D',
  '/api/FetchMakeList?segement=bike',
  '/api/ModelList?make=Mahindra',
  '/api/CustomCommands',
  '/api/ActuationCommands',
  '/api/SPFCommands',
  '/api/OdometerAPI',
  '/api/LiveDataCommands',
  '/api/LiveDataCommands?make=Toyota&model=RAV4',
  '/api/users',
  '/api/ScanDetail',
  '/api/SpecialFunctions',
  '/api/ActuationsDetail',
];

const TIMED = 200;
const WARMUP = 20;

/** CPU time (user + system) the process has used so far, in ms (Linux /proc, 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function benchLists(databaseUrl?: string, only: string[] = []): Promise<string[]> {
  const url = databaseUrl ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-demo.sqlite')}`;
  // The first start seeds the demo data set (SEED=demo only seeds an empty database). The same
  // request is timed 200 times: without the response cache, so that the queries are measured.
  const server = await startServer(url, { SEED: 'demo', RESPONSE_CACHE: 'off' });
  const lines: string[] = [];
  try {
    const headers = await signIn(server.url);
    const urls = only.length > 0 ? LIST_URLS.filter((u) => only.some((o) => u.includes(o))) : LIST_URLS;
    const pid = server.process.pid ?? 0;
    for (const path of urls) {
      const cpuBefore = cpuMs(pid);
      const s = await latency(`${server.url}${path}`, headers, TIMED, WARMUP);
      const cpu = ((cpuMs(pid) - cpuBefore) / (TIMED + WARMUP)).toFixed(1);
      const line = `${path.padEnd(100)} p50 ${String(s.p50).padStart(5)} ms  p95 ${String(s.p95).padStart(5)} ms  p99 ${String(s.p99).padStart(5)} ms  server CPU ${cpu.padStart(4)} ms/request`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await server.stop();
  }
  return lines;
}

/**
 * Every pair (and with BENCH_PAIRS_TRIPLES=1 every triple) of the lists' filters, pages 1 and 100,
 * as request paths: one frequent value per filter (the cases' own, or the most frequent one).
 * `keepLists` (default: BENCH_PAIRS_LISTS, comma-separated) keeps the lists whose path contains
 * one of its names.
 */
export async function filterPairUrls(
  keepLists: string[] | undefined = process.env.BENCH_PAIRS_LISTS?.split(','),
): Promise<string[]> {
  const { OPERATION_CASES } = await import('./operations.ts');
  const shapes = await import('../apps/server/src/modules/operations/lists.ts');
  // The most frequent value where the cases list several; values for filters they do not list.
  const preferred: Record<string, string> = {
    '/api/ScanDetail email': 'email=gmail',
    '/api/ScanDetail dtc': 'dtc=P0300',
    '/api/ScanDetail scan_start_time': 'scan_start_time=2026-03-01',
    '/api/ScanDetail scan_end_time': 'scan_end_time=2026-03-31T23:59:59Z',
  };
  const lists = [
    { path: '/api/ScanDetail', rules: shapes.scans.rules },
    { path: '/api/SpecialFunctions', rules: shapes.specialFunctionRuns.rules },
    { path: '/api/ActuationsDetail', rules: shapes.actuationRuns.rules },
    { path: '/api/users', rules: shapes.users.rules },
  ].filter((l) => !keepLists || keepLists.some((k) => l.path.includes(k)));
  const urls: string[] = [];
  for (const list of lists) {
    const cases = OPERATION_CASES.find((c) => c.path === list.path)?.filters ?? [];
    const values = Object.keys(list.rules).map(
      (param) => preferred[`${list.path} ${param}`] ?? cases.find((f) => f.startsWith(`${param}=`)),
    );
    const params = values.filter((v): v is string => v !== undefined);
    const combos: string[][] = [];
    params.forEach((a, i) => {
      params.slice(i + 1).forEach((b, j) => {
        combos.push([a, b]);
        if (process.env.BENCH_PAIRS_TRIPLES && list.path === '/api/ScanDetail')
          for (const c of params.slice(i + j + 2)) combos.push([a, b, c]);
      });
    });
    for (const combo of combos)
      for (const page of [1, 100]) urls.push(`${list.path}?${combo.join('&')}&page=${page}`);
  }
  return urls;
}

/** A list's single filters (bench/operations.ts's cases), each at the given pages, as request paths. */
export async function singleFilterUrls(listPath = '/api/ScanDetail', pages = [1, 100]): Promise<string[]> {
  const { OPERATION_CASES } = await import('./operations.ts');
  const filters = OPERATION_CASES.find((c) => c.path === listPath)?.filters ?? [];
  return filters.flatMap((filter) => pages.map((page) => `${listPath}?${filter}&page=${page}`));
}

export interface CaseTiming {
  url: string;
  total: number;
  p50: number;
  p95: number;
}

/**
 * One case of the filter benchmarks: a first request (which must succeed; its total is kept),
 * then `requests` timed sequential ones after a few untimed.
 */
export async function timeCase(
  serverUrl: string,
  headers: Record<string, string>,
  url: string,
  requests: number,
): Promise<CaseTiming> {
  const first = await fetch(`${serverUrl}${url}`, { headers });
  if (!first.ok) throw new Error(`${url}: ${first.status} ${await first.text()}`);
  const body = (await first.json()) as { total: number };
  const s = await latency(`${serverUrl}${url}`, headers, requests, Math.min(3, requests));
  return { url, total: body.total, p50: s.p50, p95: s.p95 };
}

/**
 * Filters together (issue 12 item 1): every pair of a list's filters — the pairs generated from
 * its shape module (`modules/operations/lists.ts`), not a chosen few — pages 1 and 100, over HTTP
 * with the response cache off, on the 1,000,000-row databases of bench/operations.ts. A value per
 * filter: an operator's (bench/operations.ts's cases; the most frequent where it lists several),
 * so most pairs are frequent × frequent, the worst for counting. Target p95 ≤ 100 ms.
 *   node --import tsx bench/lists.ts pairs [sqlite:/tmp/obd-bench-ops.sqlite | postgres://…]
 * BENCH_PAIRS_LISTS=ScanDetail keeps those lists; BENCH_PAIRS_TRIPLES=1 adds every triple of the
 * scans list; BENCH_PAIRS_REQUESTS sets the timed requests per case (default 20); BENCH_PAIRS_ONLY
 * keeps the cases whose URL contains it.
 */
export async function benchFilterPairs(databaseUrl: string, lists?: string[]): Promise<string[]> {
  const requests = Number(process.env.BENCH_PAIRS_REQUESTS ?? 20);
  const urls = await filterPairUrls(lists);
  const server = await startServer(databaseUrl, { RESPONSE_CACHE: 'off' });
  const lines = [`filter pairs on ${databaseUrl} — ${requests} requests per case, load ${loadAverage()}`];
  console.log(lines[0]);
  const results: CaseTiming[] = [];
  try {
    const headers = await signIn(server.url);
    for (const url of urls) {
      if (process.env.BENCH_PAIRS_ONLY && !url.includes(process.env.BENCH_PAIRS_ONLY)) continue;
      const r = await timeCase(server.url, headers, url, requests);
      results.push(r);
      const line = `${url.padEnd(96)} total ${String(r.total).padStart(8)}  p50 ${r.p50.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await server.stop();
  }
  results.sort((a, b) => b.p95 - a.p95);
  const over = results.filter((r) => r.p95 > 100);
  const summary = `${results.length} cases; over 100 ms p95: ${over.length}; worst: ${results
    .slice(0, 5)
    .map((r) => `${r.p95.toFixed(1)} ms ${r.url}`)
    .join(' | ')}; load ${loadAverage()}`;
  console.log(summary);
  return [...lines, summary];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'pairs')
    await benchFilterPairs(process.argv[3] ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-ops.sqlite')}`);
  else await benchLists(process.env.BENCH_DATABASE_URL, process.argv.slice(2));
}
