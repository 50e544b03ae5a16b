import fs from 'node:fs';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { badRequest } from '../lib/errors.ts';
import { MAX_COLUMNS, Slice } from './bounds.ts';
import { ROW_BATCH, type SheetReading, type SheetRow, type Workbook } from './workbook.ts';

/**
 * CSV as a one-sheet workbook. The encoding (UTF-8 with or without BOM, UTF-16 with BOM, else
 * Windows-1252 as Excel's "CSV" saves it) and the delimiter (`,` `;` tab `|`, whichever the header
 * line uses most) are decided from the start of the file; row numbers are record numbers, as
 * Excel shows them.
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
      const source = fs.createReadStream(file, { highWaterMark: 64 * 1024 });
      source.on('data', (chunk) => {
        read += chunk.length;
      });
      const guard = new CsvGuard(delimiter, encoding);
      const parser = source.pipe(guard).pipe(
        parse({
          delimiter,
          encoding,
          bom: true,
          relax_column_count: true,
          relax_quotes: true,
          // Named, not discovered: csv-parse looks for the line ending from the start of the
          // record at every chunk until it finds one (2 MB without a line end: 5.7 s).
          record_delimiter: ['\r\n', '\n', '\r'],
          skip_empty_lines: false,
          max_record_size: MAX_RECORD_BYTES,
        }),
      );
      source.on('error', (error) => guard.destroy(error));
      guard.on('error', (error) => parser.destroy(error));
      async function* rows(): AsyncGenerator<SheetRow[]> {
        let batch: SheetRow[] = [];
        let row = 0;
        const slice = new Slice();
        try {
          for await (const record of parser as AsyncIterable<string[]>) {
            row++;
            batch.push({ row, cells: record });
            if (batch.length >= ROW_BATCH) {
              yield batch;
              batch = [];
            }
            if ((row & 255) === 0) await slice.pause();
          }
        } catch (error) {
          if (error instanceof CsvError) {
            const detail = error.message.replace(/^[^:]*:\s*/, '').replace(/[.\s]*$/, '');
            throw badRequest(`The CSV file is malformed near row ${row + 1}: ${detail}.`);
          }
          throw error;
        } finally {
          source.destroy();
        }
        if (batch.length > 0) yield batch;
      }
      return { rows: rows(), progress: () => (size > 0 ? read / size : 1), only: () => {} };
    },
    async close() {},
  };
}

/** A CSV record longer than this is no spreadsheet row (Excel caps a cell at 32,767 characters). */
const MAX_RECORD_BYTES = 2 * 1024 * 1024;

/**
 * Checks the bytes on their way to csv-parse, which would otherwise build any record whole: a
 * record with more cells than a sheet row can have, one longer than `MAX_RECORD_BYTES` (a quote
 * that is never closed makes the rest of the file one record) and NUL characters (no text file
 * holds them, and PostgreSQL cannot store them) are refused with a sentence as soon as seen.
 * Quotes are followed as csv-parse reads them: one opens a quoted field only at a field's start.
 */
class CsvGuard extends Transform {
  private readonly width: number;
  private readonly delimiter: number;
  private odd: number | null = null;
  private inQuotes = false;
  private quotePending = false;
  private fieldStart = true;
  private cells = 0;
  private recordBytes = 0;
  private record = 1;

  constructor(delimiter: string, encoding: CsvEncoding) {
    super();
    this.width = encoding === 'utf16le' ? 2 : 1;
    this.delimiter = delimiter.charCodeAt(0);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    const error = this.scan(chunk);
    if (error) done(error);
    else done(null, chunk);
  }

  private scan(b: Buffer): Error | null {
    const wide = this.width === 2;
    let i = 0;
    if (wide && this.odd !== null) {
      const c = this.odd | ((b[0] as number) << 8);
      this.odd = null;
      i = 1;
      const error = this.unit(c);
      if (error) return error;
    }
    const end = b.length;
    for (; wide ? i + 1 < end : i < end; i += this.width) {
      const c = wide ? (b[i] as number) | ((b[i + 1] as number) << 8) : (b[i] as number);
      const error = this.unit(c);
      if (error) return error;
    }
    if (wide && i < end) this.odd = b[i] as number;
    return null;
  }

  private unit(c: number): Error | null {
    if (c === 0) {
      return badRequest(
        `Row ${this.record} of the CSV file holds a NUL character, which no text file does, so it was not read. Save it again as CSV from Excel and retry.`,
      );
    }
    this.recordBytes += this.width;
    if (this.recordBytes > MAX_RECORD_BYTES) {
      return badRequest(
        `Row ${this.record} of the CSV file is longer than ${MAX_RECORD_BYTES / (1024 * 1024)} MB, which no spreadsheet row is${this.inQuotes ? ' (a quote that opens a cell is never closed)' : ''}, so it was not read.`,
      );
    }
    if (this.inQuotes) {
      if (!this.quotePending) {
        if (c === 34) this.quotePending = true;
        return null;
      }
      this.quotePending = false;
      if (c === 34) return null; // "" inside quotes
      this.inQuotes = false;
    }
    if (c === 34 && this.fieldStart) {
      this.inQuotes = true;
      this.fieldStart = false;
    } else if (c === this.delimiter) {
      this.fieldStart = true;
      if (++this.cells >= MAX_COLUMNS) {
        return badRequest(
          `Row ${this.record} of the CSV file has more than ${MAX_COLUMNS.toLocaleString('en-US')} cells, the most a sheet row can have, so it was not read.`,
        );
      }
    } else if (c === 10 || c === 13) {
      if (c === 10) this.record++;
      this.fieldStart = true;
      this.cells = 0;
      this.recordBytes = 0;
    } else {
      this.fieldStart = false;
    }
    return null;
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
