import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/** The worker ships as plain JavaScript next to this file, in the sources and in the build. */
const WORKER_URL = new URL('./sqliteStreamWorker.js', import.meta.url);

/**
 * Batches asked for ahead of the one being formatted: enough to keep the worker busy while the
 * main thread writes, few enough that memory stays at a few batches whatever the export size.
 */
const PREFETCH = 2;

type WorkerMessage =
  | { columns: string[] }
  | { batch: ArrayBuffer }
  | { done: true }
  | { error: string }
  | { exit: number };

/**
 * Streams the rows of an SQLite query from a worker thread (see sqliteStreamWorker.js for why):
 * the same rows, as the same objects, in the same order as better-sqlite3 would return them,
 * with reading on the second core and at most PREFETCH + 1 batches in memory. Ending the
 * iteration early (a client that goes away) stops the worker and its connection.
 */
export async function* streamSqliteRows<Row>(
  file: string,
  query: CompiledQuery<Row>,
  batchSize: number,
): AsyncGenerator<Row[]> {
  // Batches wanted from the worker, shared with it (see the worker's protocol).
  const credits = new Int32Array(new SharedArrayBuffer(4));
  const want = () => {
    Atomics.add(credits, 0, 1);
    Atomics.notify(credits, 0);
  };
  const worker = new Worker(WORKER_URL, {
    workerData: { file, sql: query.sql, parameters: query.parameters, batchSize, credits },
    // The worker is plain JavaScript: no need to load the TypeScript loader a second time.
    execArgv: [],
    // Everything the worker allocates dies within a batch: a small young generation is enough,
    // where V8's default (up to 48 MB) would only add to the server's resident memory.
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  const receive = (message: WorkerMessage) => {
    queue.push(message);
    wake?.();
    wake = undefined;
  };
  worker.on('message', receive);
  worker.on('error', (error) => receive({ error: error.message }));
  worker.on('exit', (code) => receive({ exit: code }));
  try {
    for (let i = 0; i < PREFETCH; i += 1) want();
    let toRow: ((values: unknown[]) => Row) | undefined;
    for (;;) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift() as WorkerMessage;
      if ('columns' in message) toRow = rowMaker<Row>(message.columns);
      else if ('batch' in message) {
        // Ask for the next batch before formatting this one, so both threads work at once.
        want();
        yield (JSON.parse(Buffer.from(message.batch).toString('utf8')) as unknown[][]).map(
          toRow as (values: unknown[]) => Row,
        );
      } else if ('done' in message) return;
      else if ('error' in message) throw new Error(`Reading the export failed: ${message.error}`);
      else throw new Error(`The export reader stopped unexpectedly (exit code ${message.exit}).`);
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}

/**
 * Turns a row's values into the object better-sqlite3 would have made (a later column of the
 * same name wins, as there). Generated once per query so V8 sees one object shape and one
 * straight-line constructor rather than a keyed store per cell.
 */
function rowMaker<Row>(columns: string[]): (values: unknown[]) => Row {
  // A computed key for `__proto__`, which as a plain key would set the prototype instead.
  const fields = columns.map((name, i) =>
    name === '__proto__' ? `["__proto__"]: v[${i}]` : `${JSON.stringify(name)}: v[${i}]`,
  );
  return new Function('v', `return { ${fields.join(', ')} };`) as (values: unknown[]) => Row;
}
