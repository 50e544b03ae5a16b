import { Readable } from 'node:stream';
import { ByteChunks } from './chunks.ts';
import { type ExportColumn, looksLikeFormula } from './columns.ts';

const BOM = '\uFEFF';
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field (RFC 4180), with formula-looking text prefixed by an apostrophe. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = looksLikeFormula(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Streams CSV (UTF-8 with a BOM so Excel reads the encoding, CRLF line ends) from batches of
 * rows, in chunks of bytes (see ByteChunks).
 */
export function csvStream<Row>(batches: AsyncIterable<Row[]>, columns: ExportColumn<Row>[]): Readable {
  async function* chunks() {
    const out = new ByteChunks();
    out.add(`${BOM}${columns.map((c) => csvField(c.header)).join(',')}\r\n`);
    for await (const batch of batches) {
      for (const row of batch) {
        let line = '';
        for (let i = 0; i < columns.length; i += 1) {
          if (i > 0) line += ',';
          line += csvField((columns[i] as ExportColumn<Row>).value(row));
        }
        out.add(`${line}\r\n`);
      }
      yield* out.take();
    }
    yield* out.take(true);
  }
  return Readable.from(chunks(), { objectMode: false });
}
