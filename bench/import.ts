/**
 * Import benchmark (issue 5): uploads through the real server over HTTP, end to end (upload,
 * read, check, write, answer), with the server's peak RSS for each upload.
 *
 * - 1,000,000 fault codes in one .xlsx sheet with a shared-string table (as Excel writes), then
 *   the same file again (every row a database duplicate), then the inline-string variant into
 *   a fresh database. Target on SQLite: ≤ 10 s, server peak RSS ≤ 300 MB; re-upload no slower.
 * - 100,000 activation codes as CSV. Target: ≤ 2 s.
 * - A ~100 MB Bulk Uploader workbook (four sheets of 920,000 rows): accepted; time and RSS noted.
 *
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL names a server (a database
 * `obd_bench_import` is created there and dropped afterwards).
 * Run: node --import tsx bench/import.ts   (BENCH_IMPORT_ROWS=… for a smaller run,
 * BENCH_IMPORT_WORKBOOK_ROWS=0 to leave out the 100 MB workbook, BENCH_IMPORT_SQLITE=0 for
 * PostgreSQL only). On PostgreSQL each fault-code upload is followed by a wait for the trigram
 * indexes it left to build (they are built after the answer): the next upload meets every index.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { writeActivationCsv, writeFaultCodesXlsx, writeFaultWorkbookXlsx } from './importFiles.ts';
import { type RunningServer, signIn, startServer } from './lib.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const CODES = Number(process.env.BENCH_IMPORT_CODES ?? 100_000);
/** Rows on each of the four sheets of the Bulk Uploader workbook: 920,000 make it ~99 MB. */
const WORKBOOK_ROWS = Number(process.env.BENCH_IMPORT_WORKBOOK_ROWS ?? 920_000);
const DIR = path.join(os.tmpdir(), 'obd-bench-import');
/** The PostgreSQL database the benchmark creates and drops (another name for a second run beside). */
const PG_DB = process.env.BENCH_IMPORT_PG_DB ?? 'obd_bench_import';

async function files() {
  fs.mkdirSync(DIR, { recursive: true });
  const shared = path.join(DIR, `fault-codes-${ROWS}.xlsx`);
  const inline = path.join(DIR, `fault-codes-${ROWS}-inline.xlsx`);
  const codes = path.join(DIR, `activation-codes-${CODES}.csv`);
  const workbook = path.join(DIR, `fault-workbook-${WORKBOOK_ROWS}.xlsx`);
  const second = path.join(DIR, `fault-codes-${ROWS}-second.xlsx`);
  if (!fs.existsSync(shared)) await writeFaultCodesXlsx(shared, ROWS);
  if (!fs.existsSync(inline)) await writeFaultCodesXlsx(inline, ROWS, { inline: true });
  if (!fs.existsSync(second)) await writeFaultCodesXlsx(second, ROWS, { first: ROWS });
  if (!fs.existsSync(codes)) await writeActivationCsv(codes, CODES);
  if (WORKBOOK_ROWS > 0 && !fs.existsSync(workbook)) await writeFaultWorkbookXlsx(workbook, WORKBOOK_ROWS);
  return { shared, inline, codes, workbook, second };
}

/** Forgets the process's peak RSS so far (Linux), so each upload gets its own peak. */
function resetPeak(server: RunningServer) {
  try {
    fs.writeFileSync(`/proc/${server.process.pid}/clear_refs`, '5');
  } catch {
    /* not Linux or not allowed: the peak is then the process's peak so far */
  }
}

/**
 * CPU seconds (user + system) the server has used so far (Linux): the whole process (every
 * thread), and its main thread alone. The main thread's time bounds the wall time on an idle
 * machine (the reading worker and zlib run beside it), so it is the figure that the load of
 * other processes on this shared machine distorts least.
 */
function cpuSeconds(server: RunningServer): { all: number; main: number } {
  const read = (file: string) => {
    try {
      const fields = fs.readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return Number.NaN;
    }
  };
  const pid = server.process.pid;
  return { all: read(`/proc/${pid}/stat`), main: read(`/proc/${pid}/task/${pid}/stat`) };
}

async function uploadFile(
  server: RunningServer,
  headers: Record<string, string>,
  endpoint: string,
  file: string,
) {
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  resetPeak(server);
  const cpuBefore = cpuSeconds(server);
  const started = performance.now();
  const res = await fetch(`${server.url}${endpoint}`, { method: 'POST', headers, body: form });
  const body = (await res.json()) as Record<string, unknown>;
  const seconds = (performance.now() - started) / 1000;
  if (!res.ok) throw new Error(`${endpoint} answered ${res.status}: ${JSON.stringify(body)}`);
  const cpuAfter = cpuSeconds(server);
  const cpu = cpuAfter.all - cpuBefore.all;
  const mainCpu = cpuAfter.main - cpuBefore.main;
  return {
    seconds,
    peak: server.peakRssMb(),
    body,
    timing: `${seconds.toFixed(2)} s (server CPU ${cpu.toFixed(1)} s, main thread ${mainCpu.toFixed(1)} s, load ${os.loadavg()[0]?.toFixed(1)})`,
  };
}

/**
 * An upload's problem rows are stored after its answer (apps/server/src/import/problemStore.ts):
 * asks for its problems file, which waits for them, so the next upload does not run beside the
 * store, and says how long after the answer they were stored.
 */
async function problemsStored(
  server: RunningServer,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<string> {
  if (typeof body.importId !== 'number') return '';
  const started = performance.now();
  const res = await fetch(`${server.url}/api/imports/${body.importId}/problems`, { method: 'POST', headers });
  if (!res.ok) throw new Error(`the problems file answered ${res.status}: ${await res.text()}`);
  return `; problems file ready ${((performance.now() - started) / 1000).toFixed(2)} s after the answer (server peak RSS by then ${server.peakRssMb()} MB)`;
}

/**
 * PostgreSQL builds a big import's trigram indexes after its answer (import/deferredIndexes.ts):
 * waits until none is left to build, so the next upload meets a table with every index, and
 * says how long the builds took after the answer.
 */
async function indexesSettled(url: string): Promise<string> {
  if (!url.startsWith('postgres')) return '';
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ n: string | null }>(
        `select case when to_regclass('import_deferred_indexes') is null then 0
           else (select count(*) from import_deferred_indexes) end as n`,
      );
      if (Number(rows[0]?.n ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
  return `; trigram indexes built ${((performance.now() - started) / 1000).toFixed(1)} s after the answer`;
}

async function scenario(label: string, databaseUrl: () => Promise<{ url: string; drop(): Promise<void> }>) {
  const { shared, inline, codes, workbook, second } = await files();
  const lines: string[] = [];
  const say = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  const size = (file: string) => `${(fs.statSync(file).size / 1e6).toFixed(1)} MB`;

  let settled: () => Promise<string> = async () => '';
  const run = async (steps: (server: RunningServer, headers: Record<string, string>) => Promise<void>) => {
    const db = await databaseUrl();
    const server = await startServer(db.url);
    settled = () => indexesSettled(db.url);
    try {
      await steps(server, await signIn(server.url));
    } finally {
      await server.stop();
      await db.drop();
    }
  };

  await run(async (server, headers) => {
    const first = await uploadFile(server, headers, '/api/faultCodes', shared);
    const stats = first.body.stats as { insertedCount: number };
    say(
      `${label}: ${ROWS.toLocaleString('en')} fault codes, shared strings (${size(shared)}): ${first.timing}, ${stats.insertedCount.toLocaleString('en')} inserted, server peak RSS ${first.peak} MB${await settled()}`,
    );
    const again = await uploadFile(server, headers, '/api/faultCodes', shared);
    const s2 = again.body.stats as { insertedCount: number; duplicates: { inDatabase: number } };
    say(
      `${label}: same file again (all duplicates): ${again.timing}, ${s2.insertedCount} inserted, ${s2.duplicates.inDatabase.toLocaleString('en')} database duplicates, server peak RSS ${again.peak} MB${await problemsStored(server, headers, again.body)}`,
    );
    // Issue 15 item 5: a million other codes into the table that now holds a million.
    const more = await uploadFile(server, headers, '/api/faultCodes', second);
    const s3 = more.body.stats as { insertedCount: number };
    say(
      `${label}: ${ROWS.toLocaleString('en')} other fault codes into a table of ${ROWS.toLocaleString('en')}: ${more.timing}, ${s3.insertedCount.toLocaleString('en')} inserted, server peak RSS ${more.peak} MB${await settled()}`,
    );
  });
  await run(async (server, headers) => {
    const res = await uploadFile(server, headers, '/api/faultCodes', inline);
    const stats = res.body.stats as { insertedCount: number };
    say(
      `${label}: ${ROWS.toLocaleString('en')} fault codes, inline strings (${size(inline)}): ${res.timing}, ${stats.insertedCount.toLocaleString('en')} inserted, server peak RSS ${res.peak} MB${await settled()}`,
    );
  });
  await run(async (server, headers) => {
    const res = await uploadFile(server, headers, '/api/uplodeactivationcode', codes);
    say(
      `${label}: ${CODES.toLocaleString('en')} activation codes CSV (${size(codes)}): ${res.timing}, ${(res.body.importedRows as number).toLocaleString('en')} imported, server peak RSS ${res.peak} MB`,
    );
  });
  if (WORKBOOK_ROWS > 0) {
    await run(async (server, headers) => {
      const res = await uploadFile(server, headers, '/api/FaultUplodes', workbook);
      const stats = res.body.stats as { totalRowsInserted: number };
      say(
        `${label}: Bulk Uploader workbook, 4 sheets × ${WORKBOOK_ROWS.toLocaleString('en')} rows (${size(workbook)}): ${res.timing}, ${stats.totalRowsInserted.toLocaleString('en')} inserted, server peak RSS ${res.peak} MB`,
      );
    });
  }
  return lines;
}

export async function benchImport(): Promise<string[]> {
  console.log(
    `load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const lines: string[] = [];
  if (process.env.BENCH_IMPORT_SQLITE !== '0')
    lines.push(
      ...(await scenario('SQLite', async () => {
        const file = path.join(DIR, `bench-${Date.now()}.sqlite`);
        return {
          url: `sqlite:${file}`,
          drop: async () => {
            for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
          },
        };
      })),
    );
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) {
    lines.push(
      ...(await scenario('PostgreSQL', async () => {
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${PG_DB}`);
        await admin.query(`CREATE DATABASE ${PG_DB}`);
        await admin.end();
        const url = new URL(pgUrl);
        url.pathname = `/${PG_DB}`;
        return {
          url: url.toString(),
          drop: async () => {
            const c = new pg.Client({ connectionString: pgUrl });
            await c.connect();
            await c.query(`DROP DATABASE IF EXISTS ${PG_DB}`);
            await c.end();
          },
        };
      })),
    );
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchImport();
