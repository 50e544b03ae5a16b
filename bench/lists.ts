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
import { latency, signIn, startServer } from './lib.ts';

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

if (import.meta.url === `file://${process.argv[1]}`)
  await benchLists(process.env.BENCH_DATABASE_URL, process.argv.slice(2));
