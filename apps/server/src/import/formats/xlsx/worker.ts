import { parentPort } from 'node:worker_threads';
import { HttpError } from '../../../lib/errors.ts';
import type { SheetReading, SheetRow } from '../workbook.ts';
import { ZipArchive } from '../zip.ts';
import { readSharedStrings, SharedStrings } from './sharedStrings.ts';
import { readSheetPart } from './sheet.ts';
import type { ReadRequest, ToMain, ToWorker } from './workers.ts';

/**
 * The worker side of workers.ts: inflates and parses one sheet at a time and posts its rows
 * to the main thread in the packed form of `packRows`, at most `credits` batches ahead of what
 * the main thread has taken.
 */

/** Rows per message to the main thread (with 4 messages in flight, a few MB at most). */
const ROWS_PER_MESSAGE = 4000;

const port = parentPort as NonNullable<typeof parentPort>;
let reading: SheetReading | null = null;
let credits = 0;
let cancelled = false;
let wake: (() => void) | null = null;

const post = (message: ToMain, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

port.on('message', (message: ToWorker) => {
  if (message.type === 'read') void read(message);
  else if (message.type === 'only') reading?.only(message.columns);
  else {
    if (message.type === 'cancel') cancelled = true;
    else credits++;
    wake?.();
    wake = null;
  }
});

async function read(request: ReadRequest) {
  credits = request.credits;
  cancelled = false;
  let zip: ZipArchive | undefined;
  try {
    zip = await ZipArchive.open(request.file, request.limits);
    zip.addInflated(request.inflated);
    const sst =
      request.sstPart && zip.has(request.sstPart)
        ? await readSharedStrings(zip, request.sstPart)
        : new SharedStrings();
    reading = readSheetPart(zip, request.part, request.name, sst);
    if (request.only) reading.only(request.only);
    // The parser yields a batch per inflated chunk (~1,000 rows); posting a few together means
    // fewer messages and fewer pipeline steps per row on the main thread.
    let pending: SheetRow[] = [];
    const send = async (progress: number) => {
      while (credits === 0 && !cancelled) await new Promise<void>((resolve) => (wake = resolve));
      if (cancelled) return;
      credits--;
      const packed = packRows(pending);
      pending = [];
      post({ type: 'rows', ...packed, progress }, [
        packed.numbers.buffer as ArrayBuffer,
        packed.lengths.buffer as ArrayBuffer,
      ]);
    };
    for await (const rows of reading.rows) {
      for (const row of rows) pending.push(row);
      if (pending.length >= ROWS_PER_MESSAGE) await send(reading.progress());
      if (cancelled) break;
    }
    if (pending.length > 0 && !cancelled) await send(1);
    post({ type: 'end', inflated: zip.inflated - request.inflated });
  } catch (error) {
    post({
      type: 'error',
      code: error instanceof HttpError ? error.code : null,
      message: error instanceof Error ? error.message : String(error),
    });
  } finally {
    reading = null;
    zip?.close();
  }
}

/** A row longer than this is sent as (column, length) pairs of its cells, not slot by slot. */
const SPARSE_CELLS = 256;

/**
 * Rows as one string of every cell text back to back plus two typed arrays: per row its number
 * and cell count, per cell its length (-1 for no cell). Copying one string and two buffers
 * between threads is far cheaper than cloning thousands of small objects and strings. A long
 * row (cells far to the right) is sent sparse, its count negated and a (column, length) pair
 * per cell, so that a cell at column XFD costs no more than one at column A.
 */
function packRows(rows: SheetRow[]) {
  let cellCount = 0;
  for (const r of rows) {
    if (r.cells.length <= SPARSE_CELLS) cellCount += r.cells.length;
    else for (const _ in r.cells) cellCount += 2;
  }
  const numbers = new Int32Array(rows.length * 2);
  const lengths = new Int32Array(cellCount);
  const texts: string[] = [];
  let c = 0;
  for (let i = 0; i < rows.length; i++) {
    const { row, cells } = rows[i] as SheetRow;
    numbers[2 * i] = row;
    if (cells.length > SPARSE_CELLS) {
      let present = 0;
      for (const key in cells) {
        const text = cells[key as unknown as number];
        if (text === undefined) continue;
        lengths[c++] = Number(key);
        lengths[c++] = text.length;
        texts.push(text);
        present++;
      }
      numbers[2 * i + 1] = -present;
      continue;
    }
    numbers[2 * i + 1] = cells.length;
    for (let k = 0; k < cells.length; k++) {
      const text = cells[k];
      if (text === undefined) lengths[c++] = -1;
      else {
        lengths[c++] = text.length;
        texts.push(text);
      }
    }
  }
  return { text: texts.join(''), numbers, lengths };
}
