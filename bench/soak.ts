/**
 * Soak (issue 9, item 8): 50 connections for 5 minutes over varied list URLs and pages against
 * the server as `npm start` runs it (its node flags, response cache on), on the demo database.
 * Target: 0 errors, 0 non-2xx answers, resident memory never above 400 MB.
 *
 * Every request picks the next of a few thousand distinct URLs (every list endpoint, its filters,
 * pages 1 to 40 at the default page size and at 100 rows, pages 1 to 5 at the largest page of 1,000 rows), so the response cache keeps filling and
 * evicting instead of answering one page from memory. RSS is sampled from /proc every 250 ms.
 *
 * `SOAK_SECONDS=60 node --import tsx bench/soak.ts` for a shorter run; `BENCH_DATABASE_URL` for
 * PostgreSQL (seeded first).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { signIn, startServer } from './lib.ts';
import { LIST_URLS } from './lists.ts';

const CONNECTIONS = 50;
const RSS_CEILING_MB = 400;

/** The URLs the soak walks: each list URL at pages 1–40 (default size and 100 rows) and 1–5 at 1,000 rows. */
export function soakUrls(): string[] {
  const urls: string[] = [];
  for (const base of LIST_URLS) {
    const joiner = base.includes('?') ? '&' : '?';
    for (let page = 1; page <= 40; page += 1) {
      urls.push(`${base}${joiner}page=${page}`);
      urls.push(`${base}${joiner}page=${page}&limit=100`);
      // The largest page a client may ask for: the answers that weigh on memory.
      if (page <= 5) urls.push(`${base}${joiner}page=${page}&limit=1000`);
    }
  }
  return urls;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

interface SoakResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  rssMaxMb: number;
  rssP50Mb: number;
  rssEndMb: number;
}

export async function benchSoak(
  databaseUrl?: string,
  seconds = Number(process.env.SOAK_SECONDS ?? 300),
): Promise<SoakResult> {
  const url = databaseUrl ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-demo.sqlite')}`;
  const server = await startServer(url, { SEED: 'demo' });
  const pid = server.process.pid ?? 0;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(pid)), 250);
  try {
    const headers = await signIn(server.url);
    const urls = soakUrls();
    let next = 0;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        {
          url: server.url,
          connections: CONNECTIONS,
          duration: seconds,
          timeout: 10,
          headers,
          requests: [
            {
              setupRequest: (request) => {
                next = (next + 1) % urls.length;
                return { ...request, path: urls[next] };
              },
            },
          ],
        },
        (error, r) => (error ? reject(error) : resolve(r)),
      );
    });
    const sorted = [...samples].sort((a, b) => a - b);
    const summary: SoakResult = {
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors,
      non2xx: result.non2xx,
      timeouts: result.timeouts,
      rssMaxMb: sorted.at(-1) ?? 0,
      rssP50Mb: sorted[Math.floor(sorted.length / 2)] ?? 0,
      rssEndMb: samples.at(-1) ?? 0,
    };
    const verdict =
      summary.errors === 0 && summary.non2xx === 0 && summary.rssMaxMb <= RSS_CEILING_MB ? 'met' : 'NOT MET';
    console.log(
      `soak ${seconds} s, ${CONNECTIONS} connections, ${urls.length} URLs: ${summary.requests} requests (${summary.rps}/s), ` +
        `latency p50 ${summary.p50} ms p99 ${summary.p99} ms, errors ${summary.errors}, timeouts ${summary.timeouts}, non-2xx ${summary.non2xx}; ` +
        `RSS max ${summary.rssMaxMb} MB, median ${summary.rssP50Mb} MB, end ${summary.rssEndMb} MB (ceiling ${RSS_CEILING_MB} MB: ${verdict})`,
    );
    // The resident memory over time, as the largest sample of each tenth of the run.
    const tenth = Math.max(1, Math.ceil(samples.length / 10));
    const timeline = [];
    for (let i = 0; i < samples.length; i += tenth) timeline.push(Math.max(...samples.slice(i, i + tenth)));
    console.log(`RSS by tenth of the run (MB): ${timeline.join(' ')}`);
    return summary;
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSoak(process.env.BENCH_DATABASE_URL);
