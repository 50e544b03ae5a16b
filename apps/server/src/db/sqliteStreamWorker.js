/**
 * Worker thread of `streamSqliteRows` (sqliteStream.ts): runs one export query on its own
 * read-only connection and hands the rows over in batches, one JSON text per batch.
 *
 * Why a thread and JSON: better-sqlite3 costs ≈ 1.5–4 µs per row to turn SQLite values into
 * JavaScript values, more than the CSV or XLSX writer spends on the row. Here SQLite renders
 * each row as one JSON array text (one JavaScript value per row instead of one per cell), this
 * thread joins a batch of them, and the main thread only `JSON.parse`s the batch — so reading
 * runs on the second core while the main thread formats.
 *
 * Plain JavaScript on purpose: a worker does not get the tsx loader of the main thread, and the
 * bundled server (build.mjs) starts this very file.
 *
 * Protocol: `credits` (an Int32Array over shared memory) counts the batches the main thread
 * wants; it adds to it and wakes this thread, which waits while it is zero (a message per batch
 * instead stalled the main thread for ≈ 0.6 ms a time). The worker answers `{ columns }` first,
 * then `{ batch: ArrayBuffer }` (UTF-8 JSON) per credit, then `{ done: true }`, or
 * `{ error: message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/** @type {{ file: string, sql: string, parameters: unknown[], batchSize: number, credits: Int32Array }} */
const { file, sql, parameters, batchSize, credits } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

try {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // One pass over the rows gains nothing from a page cache: keep SQLite's to 1 MB, not 16 MB.
  db.pragma('cache_size = -1024');
  const statement = db.prepare(sql);
  const columns = statement.columns().map((c) => c.name);
  /** @type {Iterator<unknown>} */
  let rows;
  let asJson = true;
  // Same-named columns (a join's two ids) cannot be told apart from outside the query; those
  // rare queries are serialised here in JavaScript instead (slower, same result).
  if (new Set(columns).size === columns.length) {
    const list = columns.map((name) => `"${name.replaceAll('"', '""')}"`).join(', ');
    // A projection of a subquery keeps the subquery's ORDER BY (SQLite flattens it into one scan).
    rows = db
      .prepare(`SELECT json_array(${list}) FROM (${sql})`)
      .pluck()
      .iterate(...parameters);
  } else {
    asJson = false;
    rows = statement.raw().iterate(...parameters);
  }
  port.postMessage({ columns });

  for (let finished = false; !finished; ) {
    // Sleep until the main thread wants a batch (worker.terminate() ends the wait too).
    for (let wanted = Atomics.load(credits, 0); wanted <= 0; wanted = Atomics.load(credits, 0)) {
      Atomics.wait(credits, 0, wanted);
    }
    /** @type {string[]} */
    const batch = [];
    while (batch.length < batchSize) {
      const next = rows.next();
      if (next.done) {
        finished = true;
        break;
      }
      batch.push(asJson ? /** @type {string} */ (next.value) : JSON.stringify(next.value));
    }
    if (batch.length > 0) {
      Atomics.sub(credits, 0, 1);
      // Sent as bytes whose memory moves to the main thread (no copy): there it lives outside
      // the JavaScript heap until parsed, so queued batches do not age into the old generation.
      const bytes = Buffer.from(`[${batch.join(',')}]`, 'utf8');
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
      port.postMessage({ batch: buffer }, [buffer]);
    }
  }
  port.postMessage({ done: true });
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
