import fs from 'node:fs';
import path from 'node:path';
import { CsvError, parse } from 'csv-parse';
import { badRequest } from '../lib/errors.ts';
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
      const source = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
      source.on('data', (chunk) => {
        read += chunk.length;
      });
      const parser = source.pipe(
        parse({
          delimiter,
          encoding,
          bom: true,
          relax_column_count: true,
          relax_quotes: true,
          skip_empty_lines: false,
        }),
      );
      source.on('error', (error) => parser.destroy(error));
      async function* rows(): AsyncGenerator<SheetRow[]> {
        let batch: SheetRow[] = [];
        let row = 0;
        try {
          for await (const record of parser as AsyncIterable<string[]>) {
            row++;
            batch.push({ row, cells: record });
            if (batch.length >= ROW_BATCH) {
              yield batch;
              batch = [];
            }
          }
        } catch (error) {
          if (error instanceof CsvError) {
            throw badRequest(
              `The CSV file is malformed near row ${row + 1}: ${error.message.replace(/^[^:]*:\s*/, '')}`,
            );
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
