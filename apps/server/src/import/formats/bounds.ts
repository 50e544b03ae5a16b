import { setImmediate as nextTurn } from 'node:timers/promises';
import { badRequest } from '../../lib/errors.ts';

/**
 * What an uploaded file may make the readers do (DESIGN.md principle 15). Every reader refuses,
 * with a sentence, what no spreadsheet program writes, and hands the event loop back often, so
 * that a small crafted file cannot hold the server for everyone else.
 */

/** Columns of a sheet in Excel 2007 and later: A…XFD. */
export const MAX_COLUMNS = 16_384;
/** Rows of a sheet in Excel 2007 and later. */
export const MAX_ROWS = 1_048_576;
/** Elements inside one cell or one shared text, or in a workbook part (Excel writes 5 or 6). */
export const MAX_DEPTH = 64;

export const tooManyColumns = () =>
  badRequest(
    `The sheet has a cell past column XFD, the last of the ${MAX_COLUMNS.toLocaleString('en-US')} columns a sheet can have, so it was not read. Save the sheet again from Excel and retry.`,
  );

export const tooManyRows = () =>
  badRequest(
    `The sheet has a row past row ${MAX_ROWS.toLocaleString('en-US')}, the last a sheet can have, so it was not read. Save the sheet again from Excel and retry.`,
  );

export const tooDeep = () =>
  badRequest(
    `The workbook nests more than ${MAX_DEPTH} elements inside one another, which no spreadsheet program writes, so it was not read.`,
  );

/** NUL is no character of XML nor of any cell, and PostgreSQL cannot store it in text. */
export const nulRefused = () =>
  badRequest('The workbook holds a NUL character, which no spreadsheet cell can, so it was not read.');

export const DTD_REFUSED =
  'The workbook holds a document type declaration (DTD), which Excel never writes and which can make a small file expand without end, so it was not read.';
export const dtdRefused = () => badRequest(DTD_REFUSED);

/**
 * Tunables of the reading limits, an object so that the tests can shrink them. The time budget
 * is generous: a real 100 MB workbook reads in about a minute of CPU; everything a crafted file
 * can make the readers do is linear in the bytes it inflates to, which the zip limits cap.
 */
export const readingLimits = {
  /** Longest a reader works before handing the event loop back. */
  sliceMs: 20,
  /** Reading time allowed for any file, plus `budgetMsPerMb` for each MB of the upload. */
  budgetMs: 60_000,
  budgetMsPerMb: 2_000,
};

/** The time budget of reading a file of that size, in milliseconds. */
export const readingBudget = (bytes: number) =>
  readingLimits.budgetMs + (readingLimits.budgetMsPerMb * bytes) / (1024 * 1024);

export const overBudget = (ms: number) =>
  badRequest(
    `Reading the file took longer than the ${Math.round(ms / 1000)} s a file of its size may take, so it was stopped and nothing was imported. Save it again from Excel (or split it) and retry.`,
  );

/**
 * A reader's share of the event loop: `pause()` hands the loop back (a macrotask turn, so timers
 * and sockets are served) once the reader has worked `sliceMs` since the last turn. Awaiting
 * buffered stream chunks does not do that: they resolve as microtasks.
 */
export class Slice {
  private since = performance.now();

  /** Whether the slice is used up (a cheap check for hot loops). */
  get due(): boolean {
    return performance.now() - this.since >= readingLimits.sliceMs;
  }

  async pause(): Promise<void> {
    if (!this.due) return;
    await nextTurn();
    this.since = performance.now();
  }
}

/**
 * Chunks of a stream held back until a boundary shows up, without copying them on every chunk
 * (concatenating the held bytes with each new chunk costs the square of their size). `push`
 * returns where the boundary ends in the joined bytes, looking only at the new chunk (and the
 * few bytes before it that a boundary could start in).
 */
export class Held {
  private chunks: Buffer[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  /** Appends a chunk; the joined bytes and the end of the last `marker` in them, or -1. */
  push(chunk: Buffer, marker: Buffer | null): { bytes: Buffer | null; cut: number } {
    const before = this.size;
    const edge = marker && before > 0 ? this.tail(marker.length - 1) : null;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (!marker) return { bytes: null, cut: -1 };
    let at = chunk.lastIndexOf(marker);
    if (at >= 0) at += before;
    else if (edge) {
      // A marker split across the held bytes and the chunk.
      const seam = Buffer.concat([edge, chunk.subarray(0, marker.length - 1)]);
      const found = seam.lastIndexOf(marker);
      if (found >= 0) at = before - edge.length + found;
    }
    if (at < 0) return { bytes: null, cut: -1 };
    return { bytes: this.take(), cut: at + marker.length };
  }

  /** The held bytes joined, and nothing held any more. */
  take(): Buffer {
    const bytes = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    return bytes;
  }

  /** The last `n` bytes held (fewer when less is held). */
  tail(n: number): Buffer {
    const parts: Buffer[] = [];
    let need = Math.min(n, this.size);
    for (let k = this.chunks.length - 1; k >= 0 && need > 0; k--) {
      const c = this.chunks[k] as Buffer;
      const part = c.length <= need ? c : c.subarray(c.length - need);
      parts.unshift(part);
      need -= part.length;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}
