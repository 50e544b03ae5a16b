import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { badRequest } from '../../lib/errors.ts';
import { MAX_COLUMNS, Slice } from './bounds.ts';
import { ROW_BATCH, type SheetReading, type SheetRow, type Workbook } from './workbook.ts';

/**
 * CSV as a one-sheet workbook. The encoding (UTF-8 with or without BOM, UTF-16 with BOM, else
 * Windows-1252 as Excel's "CSV" saves it) and the delimiter (`,` `;` tab `|`, whichever the header
 * line uses most) are decided from the start of the file; row numbers are record numbers, as
 * Excel shows them.
 *
 * The records are read by `CsvRecords`, not csv-parse: csv-parse builds an error object (a deep
 * copy of its options included) for every record whose cell count differs from the first
 * record's, even when told to accept them, ~150 µs each: a 160 KB file of short rows under a
 * longer header took 1.5 s, all of it on the event loop.
 */
export async function openCsv(file: string, fileName: string): Promise<Workbook> {
  const sample = await readSample(file, 64 * 1024);
  const encoding = detectEncoding(sample);
  const delimiter = detectDelimiter(sample, encoding);
  const size = (await fs.promises.stat(file)).size;
  const sheetName = path.parse(fileName).name || 'Sheet1';
  return {
    type: 'csv',
    sheetNames: [sheetName],
    read(): SheetReading {
      let read = 0;
      async function* rows(): AsyncGenerator<SheetRow[]> {
        const source = fs.createReadStream(file, { highWaterMark: 64 * 1024 });
        const decoder = new StringDecoder(encoding);
        const parser = new CsvRecords(delimiter);
        const slice = new Slice();
        let first = true;
        try {
          for await (const chunk of source as AsyncIterable<Buffer>) {
            read += chunk.length;
            let text = decoder.write(chunk);
            if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
            first = false;
            // 64 KB of one-character rows is 20,000 rows: handed on in batches, the loop free between.
            const records = parser.write(text);
            for (let k = 0; k < records.length; k += ROW_BATCH) {
              yield records.length <= ROW_BATCH ? records : records.slice(k, k + ROW_BATCH);
              await slice.pause();
            }
            await slice.pause();
          }
          const last = parser.end(decoder.end());
          if (last.length > 0) yield last;
        } finally {
          source.destroy();
        }
      }
      return { rows: rows(), progress: () => (size > 0 ? read / size : 1), only: () => {} };
    },
    async close() {},
  };
}

/** A CSV record longer than this is no spreadsheet row (Excel caps a cell at 32,767 characters). */
const MAX_RECORD_CHARS = 2 * 1024 * 1024;

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * A CSV reader over decoded text, fed chunk by chunk, linear in its input: quoted fields (`""` is
 * a quote) may hold delimiters and line breaks; a quote opens a quoted field only at a field's
 * start and is kept as text elsewhere; CRLF, LF and CR end a record. A record with more cells
 * than a sheet row can have, one longer than `MAX_RECORD_CHARS` (a quote that is never closed
 * makes the rest of the file one record) and a NUL character (no text file holds one, and
 * PostgreSQL cannot store it) are refused with a sentence as soon as seen.
 */
export class CsvRecords {
  private readonly delimiter: number;
  private field = '';
  private record: string[] = [];
  private inQuotes = false;
  private quotePending = false;
  private fieldStart = true;
  /** The last chunk ended with CR: an LF starting the next one belongs to it. */
  private afterCr = false;
  private recordChars = 0;
  /** Number of the record being read (1 = first). */
  private row = 1;
  /** Whether the record being read has any character yet. */
  private started = false;

  constructor(delimiter: string) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** The records completed by this text. */
  write(text: string): SheetRow[] {
    const nul = text.indexOf('\u0000');
    if (nul >= 0) {
      this.write(text.slice(0, nul)); // so that the row named is the NUL's
      throw this.refuse('holds a NUL character, which no text file does');
    }
    const out: SheetRow[] = [];
    const d = this.delimiter;
    const n = text.length;
    this.recordChars += n;
    let i = 0;
    if (this.afterCr && n > 0) {
      this.afterCr = false;
      if (text.charCodeAt(0) === LF) i = 1;
    }
    while (i < n) {
      if (this.inQuotes) {
        if (this.quotePending) {
          this.quotePending = false;
          const c = text.charCodeAt(i);
          if (c === QUOTE) {
            this.field += '"';
            i++;
            continue;
          }
          this.inQuotes = false;
          // Text after the closing quote: the quotes were text (as csv-parse's relax_quotes reads it).
          if (c !== this.delimiter && c !== LF && c !== CR) this.field = `"${this.field}"`;
        } else {
          const q = text.indexOf('"', i);
          if (q < 0) {
            this.field += text.slice(i);
            break;
          }
          this.field += text.slice(i, q);
          this.quotePending = true;
          i = q + 1;
          continue;
        }
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE && this.fieldStart) {
        this.inQuotes = true;
        this.fieldStart = false;
        this.started = true;
        i++;
      } else if (c === d) {
        this.record.push(this.field);
        this.field = '';
        this.fieldStart = true;
        this.started = true;
        if (this.record.length >= MAX_COLUMNS) {
          throw this.refuse(
            `has more than ${MAX_COLUMNS.toLocaleString('en-US')} cells, the most a sheet row can have`,
          );
        }
        i++;
      } else if (c === LF || c === CR) {
        this.endRecord(out);
        // How far into this text the next record starts, for its length.
        this.recordChars = n - i - 1;
        i++;
        if (c === CR) {
          if (i < n) {
            if (text.charCodeAt(i) === LF) {
              i++;
              this.recordChars--;
            }
          } else this.afterCr = true;
        }
      } else {
        let j = i + 1;
        while (j < n) {
          const k = text.charCodeAt(j);
          if (k === d || k === LF || k === CR) break;
          j++;
        }
        this.field += text.slice(i, j);
        this.fieldStart = false;
        this.started = true;
        i = j;
      }
    }
    if (this.recordChars > MAX_RECORD_CHARS) {
      throw this.refuse(
        `is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters, which no spreadsheet row is${this.inQuotes ? ' (a quote that opens a cell is never closed)' : ''}`,
      );
    }
    return out;
  }

  /** The last records, once the text has ended. */
  end(text: string): SheetRow[] {
    const out = this.write(text);
    if (this.inQuotes && !this.quotePending) {
      throw badRequest(
        `The CSV file is malformed: a quote that opens a cell in row ${this.row} is never closed. Close it (or double it, "", to keep a quote as text) and retry.`,
      );
    }
    if (this.started) this.endRecord(out);
    return out;
  }

  private endRecord(out: SheetRow[]) {
    this.record.push(this.field);
    out.push({ row: this.row, cells: this.record });
    this.row++;
    this.record = [];
    this.field = '';
    this.fieldStart = true;
    this.inQuotes = false;
    this.quotePending = false;
    this.started = false;
  }

  private refuse(what: string) {
    return badRequest(`Row ${this.row} of the CSV file ${what}, so it was not read.`);
  }
}

async function readSample(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

type CsvEncoding = 'utf8' | 'utf16le' | 'latin1';

export function detectEncoding(sample: Buffer): CsvEncoding {
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf16le';
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf8';
  // Valid UTF-8 (a character cut off at the end of the sample does not count against it).
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(trimPartialUtf8(sample));
    return 'utf8';
  } catch {
    return 'latin1';
  }
}

function trimPartialUtf8(b: Buffer): Buffer {
  const end = b.length;
  for (let k = 1; k <= 3 && end - k >= 0; k++) {
    const c = b[end - k] as number;
    if ((c & 0xc0) === 0xc0) return b.subarray(0, end - k); // a lead byte whose sequence may be cut
    if ((c & 0xc0) !== 0x80) break;
  }
  return b;
}

function detectDelimiter(sample: Buffer, encoding: CsvEncoding): string {
  const text = sample.toString(encoding === 'utf16le' ? 'utf16le' : 'latin1');
  let firstLine = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && (ch === '\n' || ch === '\r')) break;
    firstLine += ch;
  }
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const count = firstLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/** Whether a sample looks like text rather than a binary file of another kind. */
export function looksLikeText(sample: Buffer): boolean {
  if (sample.length === 0) return false;
  if (sample[0] === 0xff && sample[1] === 0xfe) return true;
  let control = 0;
  for (const c of sample) {
    if (c === 0) return false;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) control++;
  }
  return control <= sample.length / 100;
}
