import { Readable } from 'node:stream';
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
 * rows; one string per batch keeps the per-row overhead to a join.
 */
export function csvStream<Row>(batches: AsyncIterable<Row[]>, columns: ExportColumn<Row>[]): Readable {
  async function* lines() {
    yield `${BOM}${columns.map((c) => csvField(c.header)).join(',')}\r\n`;
    for await (const batch of batches) {
      let chunk = '';
      for (const row of batch) {
        let line = '';
        for (let i = 0; i < columns.length; i += 1) {
          if (i > 0) line += ',';
          line += csvField((columns[i] as ExportColumn<Row>).value(row));
        }
        chunk += `${line}\r\n`;
      }
      if (chunk) yield chunk;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
