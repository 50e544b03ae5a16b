/**
 * Growth from 1,000,000 to 3,000,000 rows (issue 12): at 3,000,000 scans no case of the scans list
 * may take more than 1.5× its 1,000,000-row p95. The cases: the unfiltered list and every single
 * filter (bench/operations.ts's cases; target p95 ≤ 30 ms) and every pair of filters
 * (bench/lists.ts's filterPairUrls; target ≤ 100 ms; BENCH_PAIRS_TRIPLES=1 adds every triple,
 * same target), each at pages 1 and 100, over HTTP with the response cache off.
 *   node --import tsx bench/scale.ts
 * Databases: BENCH_SCALE_1M (default sqlite:$TMP/obd-bench-ops.sqlite, the operations database)
 * and BENCH_SCALE_3M (default sqlite:$TMP/obd-bench-ops-3m.sqlite). An empty or missing one is
 * seeded first with `npm run seed -- --scans N --users 1000000` (N = 1,000,000 / 3,000,000): ≈ 10 min
 * and ≈ 30+ min on this 2-core machine.
 * Both servers run at once and each case is timed on one right after the other (alternating which
 * goes first), so that both sizes see the same machine load. Per case: p95 at each size, their
 * ratio, and a flag where 3M > 1.5 × 1M and 3M is over the case's target as well.
 * BENCH_SCALE_REQUESTS sets the timed requests per case and size (default 20); BENCH_SCALE_ONLY
 * keeps the cases whose URL contains it.
 */
import os from 'node:os';
import path from 'node:path';
import { loadAverage, type RunningServer, seedIfEmpty, signIn, startServer } from './lib.ts';
import { type CaseTiming, filterPairUrls, singleFilterUrls, timeCase } from './lists.ts';

const LIMIT_RATIO = 1.5;
const SINGLE_TARGET_MS = 30;
const PAIR_TARGET_MS = 100;

export function scaleDatabases(): { label: string; rows: number; url: string }[] {
  const tmp = os.tmpdir();
  return [
    {
      label: '1M',
      rows: 1_000_000,
      url: process.env.BENCH_SCALE_1M ?? `sqlite:${path.join(tmp, 'obd-bench-ops.sqlite')}`,
    },
    {
      label: '3M',
      rows: 3_000_000,
      url: process.env.BENCH_SCALE_3M ?? `sqlite:${path.join(tmp, 'obd-bench-ops-3m.sqlite')}`,
    },
  ];
}

interface ScaleCase {
  url: string;
  target: number;
  small: CaseTiming;
  large: CaseTiming;
  ratio: number;
}

export async function benchScale(): Promise<string[]> {
  const requests = Number(process.env.BENCH_SCALE_REQUESTS ?? 20);
  const only = process.env.BENCH_SCALE_ONLY;
  const [small, large] = scaleDatabases() as [
    ReturnType<typeof scaleDatabases>[0],
    ReturnType<typeof scaleDatabases>[0],
  ];
  // A million app users for both: the scale cases are the scans list's, and the seed holds its
  // users in memory (3,000,000 of them ran out of Node's default heap).
  for (const db of [small, large])
    await seedIfEmpty(db.url, ['--scans', String(db.rows), '--users', '1000000']);

  const singles = ['/api/ScanDetail?page=1', '/api/ScanDetail?page=100', ...(await singleFilterUrls())];
  const cases = [
    ...singles.map((url) => ({ url, target: SINGLE_TARGET_MS })),
    ...(await filterPairUrls(['ScanDetail'])).map((url) => ({ url, target: PAIR_TARGET_MS })),
  ].filter((c) => !only || c.url.includes(only));

  const servers: RunningServer[] = [];
  const lines: string[] = [];
  const say = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  const results: ScaleCase[] = [];
  try {
    for (const db of [small, large]) servers.push(await startServer(db.url, { RESPONSE_CACHE: 'off' }));
    const [a, b] = servers as [RunningServer, RunningServer];
    const headers = [await signIn(a.url), await signIn(b.url)] as const;
    const scans = async (server: RunningServer, h: Record<string, string>) =>
      (
        (await (await fetch(`${server.url}/api/ScanDetail?limit=1`, { headers: h })).json()) as {
          total: number;
        }
      ).total;
    say(
      `scale: ${small.label} = ${small.url} (${(await scans(a, headers[0])).toLocaleString('en-US')} scans), ` +
        `${large.label} = ${large.url} (${(await scans(b, headers[1])).toLocaleString('en-US')} scans); ` +
        `${cases.length} cases, ${requests} requests per case and size; load ${loadAverage()}`,
    );
    say(`${'case'.padEnd(92)} ${'total 1M'.padStart(9)} ${'total 3M'.padStart(9)}  p95 1M    p95 3M   ratio`);
    for (const [i, { url, target }] of cases.entries()) {
      // Alternate which size goes first, so that a drift in load favours neither.
      let s: CaseTiming;
      let l: CaseTiming;
      if (i % 2 === 0) {
        s = await timeCase(a.url, headers[0], url, requests);
        l = await timeCase(b.url, headers[1], url, requests);
      } else {
        l = await timeCase(b.url, headers[1], url, requests);
        s = await timeCase(a.url, headers[0], url, requests);
      }
      const ratio = l.p95 / Math.max(s.p95, 0.1);
      results.push({ url, target, small: s, large: l, ratio });
      const flags = [
        ratio > LIMIT_RATIO && l.p95 > target ? `OVER: > ${LIMIT_RATIO}× and > ${target} ms` : '',
        ratio > LIMIT_RATIO && l.p95 <= target ? `> ${LIMIT_RATIO}× (under ${target} ms)` : '',
        ratio <= LIMIT_RATIO && l.p95 > target ? `3M > ${target} ms` : '',
        s.p95 > target ? `1M > ${target} ms` : '',
      ].filter(Boolean);
      say(
        `${url.padEnd(92)} ${String(s.total).padStart(9)} ${String(l.total).padStart(9)} ` +
          `${s.p95.toFixed(1).padStart(7)} ${l.p95.toFixed(1).padStart(9)} ${ratio.toFixed(2).padStart(7)}` +
          `${flags.length > 0 ? `  ${flags.join('; ')}` : ''}`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
  }

  const count = (pick: (r: ScaleCase) => boolean, target?: number) =>
    results.filter((r) => (target === undefined || r.target === target) && pick(r)).length;
  const kinds = (pick: (r: ScaleCase) => boolean) =>
    `${count(pick)} (single ${count(pick, SINGLE_TARGET_MS)}, pairs ${count(pick, PAIR_TARGET_MS)})`;
  const overRatio = (r: ScaleCase) => r.ratio > LIMIT_RATIO;
  say(
    `${results.length} cases (single ${count(() => true, SINGLE_TARGET_MS)}, pairs ${count(() => true, PAIR_TARGET_MS)}); ` +
      `ratio > ${LIMIT_RATIO}: ${kinds(overRatio)}; ` +
      `ratio > ${LIMIT_RATIO} and 3M over target: ${kinds((r) => overRatio(r) && r.large.p95 > r.target)}; ` +
      `3M over target: ${kinds((r) => r.large.p95 > r.target)}; ` +
      `1M over target: ${kinds((r) => r.small.p95 > r.target)}`,
  );
  const worst = [...results].sort((x, y) => y.ratio - x.ratio).slice(0, 8);
  say(
    `worst ratios: ${worst.map((r) => `${r.ratio.toFixed(2)} (${r.small.p95.toFixed(1)} → ${r.large.p95.toFixed(1)} ms) ${r.url}`).join(' | ')}`,
  );
  say(`load ${loadAverage()}`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchScale();
