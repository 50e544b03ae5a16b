/**
 * Sort by any column at 1,000,000 rows (issue 12 item 2): over HTTP to the real server, the
 * response cache off, p50/p95 of
 *   - the scans list: every sortable field × {no filter, each single filter of bench/operations.ts}
 *     × pages 1 and 100 × asc/desc;
 *   - special functions and actuations (a representative subset): every sortable field × {no
 *     filter, one make} × pages 1 and 100, descending;
 *   - the app users: every sortable field × {no filter, each of their filters in
 *     bench/operations.ts} × pages 1 and 100 × asc/desc;
 * on the databases of bench/operations.ts (BENCH_OPS_SQLITE, BENCH_OPS_PG; prepared there), or
 * BENCH_SORT_DATABASES (space-separated URLs). Target: p95 ≤ 100 ms for every case.
 *   node --import tsx bench/sort.ts
 * BENCH_SORT_REQUESTS: timed requests per case (default 20); BENCH_SORT_ONLY: keep the cases
 * whose URL contains it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ACTUATION_SORT_FIELDS,
  SCAN_SORT_FIELDS,
  SPECIAL_FUNCTION_SORT_FIELDS,
  USER_SORT_FIELDS,
} from '@obd/contract';
import { latency, signIn, startServer } from './lib.ts';
import { OPERATION_CASES } from './operations.ts';

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * A list's every sortable field, both orders, pages 1 and 100, unfiltered first and then under
 * each of its filters in bench/operations.ts in turn.
 */
function everyFieldUnderEachFilter(listPath: string, fields: readonly string[]): string[] {
  const filters = OPERATION_CASES.find((c) => c.path === listPath)?.filters ?? [];
  const urls: string[] = [];
  for (const filter of ['', ...filters])
    for (const field of fields)
      for (const page of [1, 100])
        for (const order of ['asc', 'desc'])
          urls.push(`${listPath}?sort=${field}&order=${order}${filter ? `&${filter}` : ''}&page=${page}`);
  return urls;
}

/** Every case of the benchmark, as list URLs. */
export function sortCases(): string[] {
  const urls = everyFieldUnderEachFilter('/api/ScanDetail', SCAN_SORT_FIELDS);
  const others = [
    { path: '/api/SpecialFunctions', fields: SPECIAL_FUNCTION_SORT_FIELDS, filter: 'make=hyundai' },
    { path: '/api/ActuationsDetail', fields: ACTUATION_SORT_FIELDS, filter: 'make=bmw' },
  ];
  for (const { path: listPath, fields, filter } of others)
    for (const field of fields)
      for (const f of ['', filter])
        for (const page of [1, 100])
          urls.push(`${listPath}?sort=${field}&order=desc${f ? `&${f}` : ''}&page=${page}`);
  return [...urls, ...everyFieldUnderEachFilter('/api/users', USER_SORT_FIELDS)];
}

export async function benchSort(
  databaseUrl: string,
  requests = Number(process.env.BENCH_SORT_REQUESTS ?? 20),
): Promise<string[]> {
  const only = process.env.BENCH_SORT_ONLY;
  const server = await startServer(databaseUrl, { RESPONSE_CACHE: 'off' });
  const lines = [`sort latency on ${databaseUrl} — ${requests} requests per case, load ${load()}`];
  console.log(lines[0]);
  const worst: { p95: number; url: string }[] = [];
  try {
    const headers = await signIn(server.url);
    for (const url of sortCases()) {
      if (only && !url.includes(only)) continue;
      const first = await fetch(`${server.url}${url}`, { headers });
      if (!first.ok) throw new Error(`${url}: ${first.status} ${await first.text()}`);
      const body = (await first.json()) as Record<string, unknown>;
      const s = await latency(`${server.url}${url}`, headers, requests, Math.min(5, requests));
      worst.push({ p95: s.p95, url });
      const line = `${url.padEnd(96)} total ${String(body.total).padStart(8)}  p50 ${s.p50.toFixed(1).padStart(6)} ms  p95 ${s.p95.toFixed(1).padStart(6)} ms`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await server.stop();
  }
  worst.sort((a, b) => b.p95 - a.p95);
  const over = worst.filter((w) => w.p95 > 100);
  const summary = [
    `${worst.length} cases; over 100 ms p95: ${over.length}; worst: ${worst
      .slice(0, 5)
      .map((w) => `${w.p95.toFixed(1)} ms ${w.url}`)
      .join(' | ')}; load ${load()}`,
  ];
  console.log(summary[0]);
  return [...lines, ...summary];
}

export async function benchSortAll(): Promise<string[]> {
  const urls = process.env.BENCH_SORT_DATABASES?.split(/\s+/).filter(Boolean) ?? [
    process.env.BENCH_OPS_SQLITE ?? `sqlite:${path.join(os.tmpdir(), 'obd-bench-ops.sqlite')}`,
    ...(process.env.BENCH_OPS_PG ? [process.env.BENCH_OPS_PG] : []),
  ];
  const lines: string[] = [];
  for (const url of urls) lines.push(...(await benchSort(url)));
  return lines;
}

/** The scans' sortable columns migration 015 indexes (SQLite: each alone; PostgreSQL: with the id). */
const SCAN_INDEXED = [
  'email',
  'scan_start_time',
  'scan_end_time',
  'model',
  'license_plate',
  'vin',
  'scan_ended',
  'make',
  'country_id',
  'function',
  'type',
  'app_version',
];

/**
 * What the sort indexes cost a write: rows inserted per second into a scans-shaped table
 * (200,000 rows already in it, then 100,000 more in transactions of 1,000) without and with the
 * twelve indexes of migration 015, on SQLite (a temporary file) and PostgreSQL (BENCH_OPS_PG).
 *   node --import tsx bench/sort.ts writes
 */
export async function benchSortWrites(): Promise<string[]> {
  const { default: Database } = await import('better-sqlite3');
  const { default: pg } = await import('pg');
  const lines: string[] = [];
  const row = (i: number) => [
    `driver${i % 5000}@example.com`,
    new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    i % 7 ? new Date(Date.UTC(2025, 0, 1) + i * 60_000 + 600_000).toISOString() : null,
    ['City', 'Civic', 'Creta', 'X5'][i % 4],
    `MH ${i % 99} AB ${i % 9999}`,
    `VIN${i}`,
    i % 2,
    ['Honda', 'Toyota', 'Hyundai', 'BMW'][i % 4],
    [91, 44, 1][i % 3],
    'Full Scan',
    ['OBD', 'generic'][i % 2],
    ['3.4', '3.5', '3.10'][i % 3],
  ];
  const columns = `email TEXT NOT NULL, scan_start_time TEXT NOT NULL, scan_end_time TEXT, model TEXT, license_plate TEXT, vin TEXT, scan_ended INTEGER NOT NULL, make TEXT NOT NULL, country_id INTEGER, function TEXT, type TEXT, app_version TEXT`;
  const names = SCAN_INDEXED.map((c) => `"${c}"`).join(', ');
  for (const indexed of [false, true]) {
    const file = path.join(os.tmpdir(), `obd-sort-writes-${process.pid}.sqlite`);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec(`DROP TABLE IF EXISTS s; CREATE TABLE s (id INTEGER PRIMARY KEY, ${columns})`);
    if (indexed) for (const c of SCAN_INDEXED) db.exec(`CREATE INDEX s_${c} ON s ("${c}")`);
    const insert = db.prepare(`INSERT INTO s (${names}) VALUES (${SCAN_INDEXED.map(() => '?').join(', ')})`);
    const batch = db.transaction((from: number) => {
      for (let i = from; i < from + 1000; i += 1) insert.run(...row(i));
    });
    for (let i = 0; i < 200_000; i += 1000) batch(i);
    const started = performance.now();
    for (let i = 200_000; i < 300_000; i += 1000) batch(i);
    const seconds = (performance.now() - started) / 1000;
    db.close();
    const line = `SQLite insert, ${indexed ? 'with' : 'without'} the 12 sort indexes: ${Math.round(100_000 / seconds).toLocaleString('en-US')} rows/s; load ${load()}`;
    console.log(line);
    lines.push(line);
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}-wal`, { force: true });
    fs.rmSync(`${file}-shm`, { force: true });
  }
  if (process.env.BENCH_OPS_PG) {
    const client = new pg.Client({ connectionString: process.env.BENCH_OPS_PG });
    await client.connect();
    try {
      for (const indexed of [false, true]) {
        await client.query(`DROP TABLE IF EXISTS bench_sort_writes`);
        await client.query(`CREATE TABLE bench_sort_writes (id serial PRIMARY KEY, ${columns})`);
        if (indexed)
          for (const c of SCAN_INDEXED)
            await client.query(`CREATE INDEX ON bench_sort_writes ("${c}" NULLS FIRST, id)`);
        const insertBatch = async (from: number) => {
          const values: unknown[] = [];
          const tuples: string[] = [];
          for (let i = from; i < from + 1000; i += 1) {
            const r = row(i);
            tuples.push(`(${r.map((_, k) => `$${values.length + k + 1}`).join(', ')})`);
            values.push(...r);
          }
          await client.query(`INSERT INTO bench_sort_writes (${names}) VALUES ${tuples.join(', ')}`, values);
        };
        for (let i = 0; i < 200_000; i += 1000) await insertBatch(i);
        const started = performance.now();
        for (let i = 200_000; i < 300_000; i += 1000) await insertBatch(i);
        const seconds = (performance.now() - started) / 1000;
        const line = `PostgreSQL insert, ${indexed ? 'with' : 'without'} the 12 sort indexes: ${Math.round(100_000 / seconds).toLocaleString('en-US')} rows/s; load ${load()}`;
        console.log(line);
        lines.push(line);
      }
      await client.query(`DROP TABLE IF EXISTS bench_sort_writes`);
    } finally {
      await client.end();
    }
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('writes')) await benchSortWrites();
  else await benchSortAll();
}
