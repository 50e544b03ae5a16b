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
 * bundled server ships this file as its own entry point.
 *
 * Protocol: the main thread sends `1` for each batch it wants (its credit, which bounds what is
 * queued); the worker answers `{ columns }` first, then `{ batch: ArrayBuffer }` (UTF-8 JSON) per credit, then
 * `{ done: true }`, or `{ error: message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/** @type {{ file: string, sql: string, parameters: unknown[], batchSize: number }} */
const { file, sql, parameters, batchSize } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** @type {Iterator<unknown> | undefined} */
let rows;
/** @type {boolean} */
let asJson = true;
let credits = 0;
let finished = false;

try {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // One pass over the rows gains nothing from a page cache: keep SQLite's to 1 MB, not 16 MB.
  db.pragma('cache_size = -1024');
  const statement = db.prepare(sql);
  const columns = statement.columns().map((c) => c.name);
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
} catch (error) {
  fail(error);
}

port.on('message', () => {
  credits += 1;
  pump();
});

function pump() {
  if (!rows) return;
  try {
    while (credits > 0 && !finished) {
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
        credits -= 1;
        // Sent as bytes whose memory moves to the main thread (no copy): there it lives outside
        // the JavaScript heap until parsed, so queued batches do not age into the old generation
        // and swell the heap between full collections.
        const bytes = Buffer.from(`[${batch.join(',')}]`, 'utf8');
        const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
        port.postMessage({ batch: buffer }, [buffer]);
      }
      if (finished) port.postMessage({ done: true });
    }
  } catch (error) {
    fail(error);
  }
}

/** @param {unknown} error */
function fail(error) {
  finished = true;
  rows = undefined;
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
