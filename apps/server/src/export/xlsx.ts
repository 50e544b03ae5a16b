import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yazl from 'yazl';

/*
 * yazl checksums every byte with buffer-crc32, a JavaScript CRC that took a quarter of the CPU
 * of a million-row export. Node's zlib.crc32 computes the same checksum natively, so yazl's copy
 * of buffer-crc32 is pointed at it — after checking both agree on a sample.
 */
{
  const crc32 = createRequire(createRequire(import.meta.url).resolve('yazl'))('buffer-crc32') as {
    unsigned: (buffer: Buffer, previous?: number) => number;
  };
  const sample = Buffer.from('OBD Admin export checksum sample');
  if (typeof zlib.crc32 === 'function' && zlib.crc32(sample) === crc32.unsigned(sample)) {
    crc32.unsigned = (buffer, previous) => zlib.crc32(buffer, previous ?? 0);
  }
}

import { ByteChunks } from './chunks.ts';
import { type ExportColumn, looksLikeFormula } from './columns.ts';

/**
 * A minimal streaming XLSX writer: one worksheet of inline strings and numbers, zipped by yazl
 * with zlib at level 1. General-purpose writers build a shared-string table or an object per
 * cell; at a million rows that costs seconds and hundreds of MB, while this writes each row as
 * one string and never holds more than a batch.
 */
export function xlsxStream<Row>(
  batches: AsyncIterable<Row[]>,
  columns: ExportColumn<Row>[],
  sheetName: string,
): Readable {
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string) =>
    zip.addBuffer(Buffer.from(text, 'utf8'), name, { compressionLevel: 1 });

  add('[Content_Types].xml', CONTENT_TYPES);
  add('_rels/.rels', ROOT_RELS);
  add('xl/workbook.xml', workbook(sheetName));
  add('xl/_rels/workbook.xml.rels', WORKBOOK_RELS);
  add('xl/styles.xml', STYLES);
  const sheet = Readable.from(sheetXml(batches, columns), { objectMode: false });
  const output = zip.outputStream as unknown as Readable;
  // A failed query must end the download with an error, not leave the zip waiting forever; a
  // download that ends early (the client went away) must stop the query and its reader.
  sheet.once('error', (error) => output.destroy(error));
  output.once('close', () => sheet.destroy());
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', { compressionLevel: 1 });
  zip.end();
  return output;
}

/** The worksheet's XML as chunks of bytes (see ByteChunks). */
export async function* sheetXml<Row>(batches: AsyncIterable<Row[]>, columns: ExportColumn<Row>[]) {
  const letters = columns.map((_, i) => columnLetters(i));
  const widths = columns.map((c) => Math.min(60, Math.max(10, c.header.length + 2)));
  const out = new ByteChunks();
  out.add(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${widths
      .map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`)
      .join(
        '',
      )}</cols><sheetData><row r="1">${columns.map((c, i) => textCell(`${letters[i]}1`, c.header, HEADER_STYLE)).join('')}</row>`,
  );
  // Row and cell references are optional in the format, but some readers (ExcelJS among them)
  // insist on them, so every row and cell carries one.
  let rowNumber = 1;
  for await (const batch of batches) {
    for (const row of batch) {
      rowNumber += 1;
      const n = String(rowNumber);
      let xml = `<row r="${n}">`;
      for (let i = 0; i < columns.length; i += 1) {
        xml += cell((letters[i] as string) + n, (columns[i] as ExportColumn<Row>).value(row));
      }
      out.add(`${xml}</row>`);
    }
    yield* out.take();
  }
  out.add('</sheetData></worksheet>');
  yield* out.take(true);
}

const HEADER_STYLE = 1;
const QUOTE_PREFIX_STYLE = 2;

/** A, B, … Z, AA, AB, … for a zero-based column index. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

function cell(ref: string, value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}"><v>${value}</v></c>` : '';
  // Inline strings are never evaluated, but Excel re-evaluates a formula-looking text once a
  // person edits the cell; the quotePrefix style keeps it text, as typing ' before it would.
  return textCell(ref, value, looksLikeFormula(value) ? QUOTE_PREFIX_STYLE : 0);
}

function textCell(ref: string, text: string, style: number): string {
  const s = style ? ` s="${style}"` : '';
  const space = hasOuterSpace(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}" t="inlineStr"${s}><is><t${space}>${escapeXml(text)}</t></is></c>`;
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
const hasOuterSpace = (text: string) =>
  text.length > 0 && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)));

// One test finds the rare text that needs work: XML specials, or control characters that
// XML 1.0 forbids even as entities (they are dropped).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const NEEDS_ESCAPE = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function escapeXml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replace(INVALID_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** Excel's rules for sheet names: ≤ 31 characters, none of []:*?/\ . */
export function safeSheetName(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;

const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;

const workbook = (sheetName: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${escapeXml(safeSheetName(sheetName)).replaceAll('"', '&quot;')}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

// Styles: 0 default, 1 bold header, 2 quote-prefixed text.
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="${NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
