/**
 * Export benchmark: 1,000,000 fault codes streamed as CSV and as XLSX through the real server
 * (download link → HTTP response read to the end), with the server's peak RSS.
 * Target (issue 3): CSV ≤ 3 s, XLSX ≤ 8 s, server peak RSS ≤ 200 MB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { signIn, startServer } from './lib.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);

export async function benchExport(): Promise<string[]> {
  const file = path.join(os.tmpdir(), `obd-bench-export-${ROWS}.sqlite`);
  if (!fs.existsSync(file)) {
    // Let the server create the schema, then fill it with SQL (fast, and independent of the seed).
    const server = await startServer(`sqlite:${file}`);
    await server.stop();
    const db = new SQLite(file);
    db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
      INSERT INTO fault_codes (dtc, title, severity, repair_difficulty, make, company_id, generic)
      SELECT printf('P%05d', i), 'Cylinder ' || (i % 12) || ' misfire detected, bank ' || (i % 2 + 1),
             i % 4, i % 3 + 1, CASE WHEN i % 3 = 0 THEN NULL ELSE 'Honda' END, i, i % 3 = 0
      FROM n;`);
    db.close();
  }
  const lines: string[] = [];
  for (const format of ['csv', 'xlsx'] as const) {
    const server = await startServer(`sqlite:${file}`);
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
      const line = `export ${ROWS.toLocaleString('en')} rows ${format.toUpperCase()}: ${seconds.toFixed(2)} s, ${(bytes / 1e6).toFixed(1)} MB file, server peak RSS ${server.peakRssMb()} MB (idle ${before} MB)`;
      console.log(line);
      lines.push(line);
    } finally {
      await server.stop();
    }
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExport();
