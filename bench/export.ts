/**
 * Export benchmark: 1,000,000 fault codes streamed as CSV and as XLSX through the real server
 * (download link → HTTP response read to the end), with the server's peak RSS.
 * Target (issue 3): CSV ≤ 3 s, XLSX ≤ 8 s, server peak RSS ≤ 200 MB.
 *
 * Run: node --import tsx bench/export.ts   (BENCH_EXPORT_ROWS=… for another size;
 * BENCH_DATABASE_URL=postgres://…/postgres adds a run on PostgreSQL, in a database of its own)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { signIn, startServer } from './lib.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);

// The same rows on both databases: 8 columns, two of them shown as labels, a third of makes empty.
const fill = (numbers: string, dtc: string, generic: string) => `
  INSERT INTO fault_codes (dtc, title, severity, repair_difficulty, make, company_id, generic)
  SELECT ${dtc}, 'Cylinder ' || (i % 12) || ' misfire detected, bank ' || (i % 2 + 1),
         i % 4, i % 3 + 1, CASE WHEN i % 3 = 0 THEN NULL ELSE 'Honda' END, i, ${generic}
  FROM ${numbers}`;

/** An SQLite file with ROWS fault codes (made once, then reused). */
export async function sqliteDatabase(): Promise<string> {
  const file = path.join(os.tmpdir(), `obd-bench-export-${ROWS}.sqlite`);
  if (!fs.existsSync(file)) {
    // Let the server create the schema, then fill it with SQL (fast, and independent of the seed).
    const server = await startServer(`sqlite:${file}`);
    await server.stop();
    const db = new SQLite(file);
    db.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
       ${fill('n', "printf('P%05d', i)", 'i % 3 = 0')}`,
    );
    db.close();
  }
  return `sqlite:${file}`;
}

/** A PostgreSQL database `obd_bench_export_<rows>` next to BENCH_DATABASE_URL (made once). */
export async function postgresDatabase(adminUrl: string): Promise<string> {
  const name = `obd_bench_export_${ROWS}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const server = await startServer(url.href); // migrates
  await server.stop();
  const db = new pg.Client({ connectionString: url.href });
  await db.connect();
  const count = Number((await db.query('SELECT count(*) AS n FROM fault_codes')).rows[0].n);
  if (count !== ROWS) {
    await db.query('TRUNCATE fault_codes');
    await db.query(
      fill(`generate_series(1, ${ROWS}) AS n(i)`, "'P' || lpad(i::text, 5, '0')", '(i % 3 = 0)::integer'),
    );
    await db.query('VACUUM ANALYZE fault_codes');
  }
  await db.end();
  return url.href;
}

async function measure(databaseUrl: string, label: string): Promise<string[]> {
  const lines: string[] = [];
  for (const format of ['csv', 'xlsx'] as const) {
    const server = await startServer(databaseUrl);
    try {
      const headers = await signIn(server.url);
      const before = server.peakRssMb();
      const started = performance.now();
      const ticket = await fetch(`${server.url}/api/exports`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ list: 'faultCodes', format, query: {} }),
      });
      const { url } = (await ticket.json()) as { url: string };
      const res = await fetch(`${server.url}${url}`);
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      const seconds = (performance.now() - started) / 1000;
      const line = `export ${ROWS.toLocaleString('en')} rows ${format.toUpperCase()} (${label}): ${seconds.toFixed(2)} s, ${(bytes / 1e6).toFixed(1)} MB file, server peak RSS ${server.peakRssMb()} MB (idle ${before} MB), load ${os.loadavg()[0]?.toFixed(1)}`;
      console.log(line);
      lines.push(line);
    } finally {
      await server.stop();
    }
  }
  return lines;
}

export async function benchExport(): Promise<string[]> {
  const lines = await measure(await sqliteDatabase(), 'SQLite');
  if (process.env.BENCH_DATABASE_URL) {
    lines.push(...(await measure(await postgresDatabase(process.env.BENCH_DATABASE_URL), 'PostgreSQL')));
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExport();
