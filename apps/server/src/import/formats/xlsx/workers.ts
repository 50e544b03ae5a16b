import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '@obd/contract';
import { HttpError } from '../../../lib/errors.ts';
import type { SheetReading, SheetRow } from '../workbook.ts';
import type { InflateLimits } from '../zip.ts';

/**
 * Big sheets are inflated and parsed in a worker thread (worker.ts), so that on a two-core
 * machine the main thread spends its time checking, de-duplicating and spooling the rows while
 * the other core reads the XML: the two halves of pass 1 overlap instead of adding up.
 * Starting a worker (a V8 isolate with the TypeScript loader) costs a few hundred
 * milliseconds, so one can be started while the upload streams in (`prewarmXlsxWorker`).
 */

export const xlsxWorkerOptions = {
  /** Sheets whose XML inflates to at least this many bytes are read in a worker. */
  minBytes: 16 * 1024 * 1024,
  enabled: process.env.OBD_IMPORT_WORKERS !== '0',
  /** Sheets read in a worker so far (the tests check that the worker path ran). */
  reads: 0,
};

/** Batches the worker may post ahead of what the main thread has taken (memory stays bounded). */
const CREDITS = 4;

export interface ReadRequest {
  type: 'read';
  file: string;
  name: string;
  part: string;
  sstPart: string | undefined;
  limits: InflateLimits;
  /** Bytes already inflated from the archive, counted against `limits.maxTotalBytes`. */
  inflated: number;
  only?: number[] | undefined;
  credits: number;
}
export type ToWorker =
  | ReadRequest
  | { type: 'only'; columns: number[] }
  | { type: 'ack' }
  | { type: 'cancel' };
export type ToMain =
  | { type: 'rows'; text: string; numbers: Int32Array; lengths: Int32Array; progress: number }
  | { type: 'end'; inflated: number }
  | { type: 'error'; code: ErrorCode | null; message: string };

/** A worker started ahead of need, stopped if nothing uses it for a while. */
let spare: { worker: Promise<Worker | null>; timer: NodeJS.Timeout } | null = null;
/** How long a spare worker waits for its sheet. */
const SPARE_MS = 30_000;

/**
 * The worker's script. `npm start` runs the bundle build.mjs makes, which also builds the worker
 * (worker.ts and what it imports, npm packages left as imports) into one plain-JavaScript file,
 * named here by build.mjs as a path from this source file (`import.meta.url` in the bundle points
 * at the sources, see build.mjs). A worker thread does not inherit the `--import tsx` loader, and
 * registering it there costs ~0.7 s and ~45 MB per worker, while the plain file starts in ~60 ms
 * and ~11 MB. Run from the sources (the tests, `npm run dev`), sourceWorker.mjs registers tsx in
 * the worker and loads worker.ts.
 */
declare const XLSX_WORKER_BUILT: string | undefined;
const built = typeof XLSX_WORKER_BUILT === 'string' ? XLSX_WORKER_BUILT : undefined;
const WORKER_URL = new URL(built ?? './sourceWorker.mjs', import.meta.url);

async function spawn(): Promise<Worker | null> {
  try {
    const worker = new Worker(WORKER_URL, {
      // Plain JavaScript (or sourceWorker.mjs, which registers tsx itself): no loader to inherit.
      execArgv: [],
      // A small young generation: the worker makes short-lived strings only, and its memory
      // counts in the server's.
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    worker.unref();
    return worker;
  } catch (error) {
    process.emitWarning(`xlsx sheets will be read on the main thread: ${(error as Error).message}`);
    return null;
  }
}

function acquire(): Promise<Worker | null> {
  if (spare) {
    const { worker, timer } = spare;
    clearTimeout(timer);
    spare = null;
    return worker;
  }
  return spawn();
}

export const workersEnabled = () => xlsxWorkerOptions.enabled;

/**
 * Starts a worker ahead of need, while an upload big enough to want one streams in, so that
 * its start-up (a new V8 isolate loading the reader) overlaps the transfer. Each worker reads
 * one sheet and is then stopped, so none holds memory while the rows are written.
 */
export function prewarmXlsxWorker() {
  if (!xlsxWorkerOptions.enabled || spare) return;
  const worker = spawn();
  const timer = setTimeout(() => {
    if (spare?.worker === worker) spare = null;
    void worker.then((w) => w?.terminate());
  }, SPARE_MS);
  timer.unref();
  spare = { worker, timer };
}

/** One sheet read in a worker; `onEnd` gets the bytes the worker inflated, once it has read them all. */
export function readSheetInWorker(
  request: Omit<ReadRequest, 'type' | 'credits' | 'only'>,
  onEnd: (inflated: number) => void,
  inProcess: () => SheetReading,
): SheetReading {
  let fraction = 0;
  let wanted: number[] | undefined;
  let worker: Worker | undefined;
  let fallback: SheetReading | undefined;
  async function* rows(): AsyncGenerator<SheetRow[]> {
    const w = await acquire();
    if (!w) {
      fallback = inProcess();
      if (wanted) fallback.only(wanted);
      yield* fallback.rows;
      return;
    }
    worker = w;
    xlsxWorkerOptions.reads++;
    const queue: ToMain[] = [];
    let wake: (() => void) | null = null;
    const receive = (message: ToMain) => {
      queue.push(message);
      wake?.();
      wake = null;
    };
    const onError = (error: Error) => receive({ type: 'error', code: null, message: error.message });
    const onExit = (code: number) =>
      receive({ type: 'error', code: null, message: `the reading worker stopped (exit code ${code})` });
    w.on('message', receive);
    w.on('error', onError);
    w.on('exit', onExit);
    try {
      w.postMessage({ type: 'read', ...request, only: wanted, credits: CREDITS } satisfies ToWorker);
      for (;;) {
        if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const message = queue.shift() as ToMain;
        if (message.type === 'rows') {
          fraction = message.progress;
          w.postMessage({ type: 'ack' } satisfies ToWorker); // the worker reads on while these are checked
          yield unpackRows(message);
        } else if (message.type === 'end') {
          onEnd(message.inflated);
          return;
        } else {
          throw message.code ? new HttpError(message.code, message.message) : new Error(message.message);
        }
      }
    } finally {
      w.off('message', receive);
      w.off('error', onError);
      w.off('exit', onExit);
      worker = undefined;
      void w.terminate();
    }
  }
  return {
    rows: rows(),
    progress: () => fallback?.progress() ?? fraction,
    only(columns) {
      wanted = columns;
      fallback?.only(columns);
      worker?.postMessage({ type: 'only', columns } satisfies ToWorker);
    },
  };
}

/** The rows of `packRows` (worker.ts). */
function unpackRows({ text, numbers, lengths }: { text: string; numbers: Int32Array; lengths: Int32Array }) {
  const count = numbers.length / 2;
  const out: SheetRow[] = new Array(count);
  let pos = 0;
  let c = 0;
  for (let i = 0; i < count; i++) {
    const n = numbers[2 * i + 1] as number;
    if (n < 0) {
      const cells: (string | undefined)[] = [];
      for (let k = 0; k < -n; k++) {
        const column = lengths[c++] as number;
        const length = lengths[c++] as number;
        cells[column] = text.slice(pos, pos + length);
        pos += length;
      }
      out[i] = { row: numbers[2 * i] as number, cells };
      continue;
    }
    const cells: (string | undefined)[] = new Array(n);
    for (let k = 0; k < n; k++) {
      const length = lengths[c++] as number;
      if (length >= 0) {
        cells[k] = text.slice(pos, pos + length);
        pos += length;
      }
    }
    out[i] = { row: numbers[2 * i] as number, cells };
  }
  return out;
}
