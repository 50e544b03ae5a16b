/**
 * What compressing JSON answers costs and saves (issue 14): 50 connections on two list pages of
 * the demo database, asking for brotli, gzip or nothing (`accept-encoding`), alternating twice so
 * each sees the same machine load; the server as `npm start` runs it, response cache on (the
 * answer is kept as JSON text and compressed as it leaves). Reports requests/s, latency, bytes
 * per answer and the server's CPU per request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { signIn, startServer } from './lib.ts';

const URLS = (process.env.BENCH_URLS ?? '/api/ScanDetail,/api/faultCodesList').split(',');
const ENCODINGS = ['identity', 'br', 'gzip'] as const;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function benchCompression(databaseUrl?: string): Promise<string[]> {
  const url = databaseUrl ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-demo.sqlite')}`;
  const server = await startServer(url, { SEED: 'demo' });
  const pid = server.process.pid ?? 0;
  const lines: string[] = [];
  try {
    const auth = await signIn(server.url);
    for (const target of URLS) {
      for (let round = 1; round <= 2; round += 1) {
        for (const encoding of ENCODINGS) {
          const headers = { ...auth, 'accept-encoding': encoding };
          const sample = await fetch(`${server.url}${target}`, { headers });
          const bytes =
            Number(sample.headers.get('content-length') ?? 0) || (await sample.arrayBuffer()).byteLength;
          const cpuBefore = cpuMs(pid);
          const r = await new Promise<autocannon.Result>((resolve, reject) =>
            autocannon(
              { url: `${server.url}${target}`, connections: 50, duration: SECONDS, headers },
              (e, res) => (e ? reject(e) : resolve(res)),
            ),
          );
          const cpu = (cpuMs(pid) - cpuBefore) / Math.max(1, r.requests.total);
          const line = `${target} ${encoding.padEnd(8)} round ${round}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${bytes} bytes/answer (${Math.round((r.throughput.average * 8) / 1e6)} Mbit/s), server CPU ${cpu.toFixed(3)} ms/request, errors ${r.errors + r.non2xx}, load ${os.loadavg()[0]?.toFixed(1)}`;
          console.log(line);
          lines.push(line);
        }
      }
    }
  } finally {
    await server.stop();
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCompression(process.env.BENCH_DATABASE_URL);
