/**
 * A corpus of hostile upload files, generated (issue 9): each is small, and each is something
 * no spreadsheet program writes — far cells, floods, DTDs, deep nesting, zip tricks, forged
 * OLE2 headers, broken BIFF records, CSV without end. Zips are written byte by byte here (not by
 * a zip library), so that entries can overlap and sizes can lie; the .xls variants are the
 * committed xlwt fixture with one field forged.
 */
import zlib from 'node:zlib';
import { fixtureFile } from './fixtures/uploads.ts';

export type HostileKind = 'excel' | 'csv';

export interface HostileFile {
  /** What the file is, as the test names it. */
  name: string;
  fileName: string;
  kind: HostileKind;
  /** The sentence (or part of it) every route that reads the file answers; undefined: any 4xx sentence. */
  message?: RegExp;
  /** Routes that refuse the file for another reason before reaching what is hostile in it. */
  messageNotOn?: string[];
  make(): Buffer;
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RNS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

interface RawEntry {
  name: string;
  data: Buffer | string;
  /** Stored instead of deflated. */
  store?: boolean;
  /** The uncompressed size the headers declare, when it should lie. */
  declared?: number;
  /** Points at the local header and data of the entry of this name (overlapping entries). */
  sameAs?: string;
}

/** A zip archive written field by field: local headers, data, central directory, end record. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const placed = new Map<
    string,
    { offset: number; crc: number; csize: number; usize: number; method: number }
  >();
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    let info = e.sameAs ? placed.get(e.sameAs) : undefined;
    if (!info) {
      const raw = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
      const method = e.store ? 0 : 8;
      const body = e.store ? raw : zlib.deflateRawSync(raw, { level: 9 });
      info = { offset, crc: zlib.crc32(raw), csize: body.length, usize: e.declared ?? raw.length, method };
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(info.method, 8);
      local.writeUInt32LE(info.crc, 14);
      local.writeUInt32LE(info.csize, 18);
      local.writeUInt32LE(info.usize, 22);
      local.writeUInt16LE(name.length, 26);
      locals.push(local, name, body);
      offset += 30 + name.length + body.length;
      placed.set(e.name, info);
    }
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(info.method, 10);
    c.writeUInt32LE(info.crc, 16);
    c.writeUInt32LE(info.csize, 20);
    c.writeUInt32LE(info.usize, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(info.offset, 42);
    central.push(c, name);
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** The sheets every upload route looks for, all pointing at the one (hostile) sheet part. */
const SHEETS = ['fault_descriptions', 'causes', 'symptoms', 'solutions', 'Baic'];

interface WorkbookParts {
  sheet?: string | Buffer;
  strings?: string | Buffer;
  workbookXml?: string;
  /** Replaces the entries (after the parts are laid out). */
  entries?(parts: RawEntry[]): RawEntry[];
}

const workbookXml = (
  sheetsXml = SHEETS.map((s, i) => `<sheet name="${s}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join(''),
) =>
  `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${RNS}"><sheets>${sheetsXml}</sheets></workbook>`;

/** A workbook around hand-written parts: five sheet entries over one sheet part. */
export function workbook(parts: WorkbookParts): Buffer {
  const rels = SHEETS.map(
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`,
  ).join('');
  const entries: RawEntry[] = [
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    { name: 'xl/workbook.xml', data: parts.workbookXml ?? workbookXml() },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}">${rels}<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: parts.sheet ?? sheet('') },
    ...(parts.strings ? [{ name: 'xl/sharedStrings.xml', data: parts.strings }] : []),
  ];
  return rawZip(parts.entries ? parts.entries(entries) : entries);
}

/** Sheet XML around rows. */
const sheet = (rows: string, prologue = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>${prologue}<worksheet xmlns="${NS}"><sheetData>${rows}</sheetData></worksheet>`;
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
/** The columns every upload route requires, so that the readers get past the header to what follows. */
const COLUMNS = [
  'ActivationCode',
  'DTC',
  'command',
  'module',
  'function_type',
  'Causes',
  'Symptom',
  'Solution',
];
const HEADER = `<row r="1">${COLUMNS.map((c, i) => inline(`${String.fromCharCode(65 + i)}1`, c)).join('')}</row>`;
const CSV_HEADER = COLUMNS.join(',');
const strings = (items: string, prologue = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>${prologue}<sst xmlns="${NS}">${items}</sst>`;

const BILLION_LAUGHS = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
).join('')}]>`;

const MB = 1024 * 1024;

/** Bytes of the OLE2 fixture with a forgery applied. */
function forgedXls(forge: (b: Buffer) => void): Buffer {
  const b = Buffer.from(fixtureFile('fault-workbook.xls'));
  forge(b);
  return b;
}

/** fault-workbook.xls: 512-byte sectors, the directory in sector 9, the Workbook stream (4096 bytes) from sector 0. */
const DIRECTORY = (9 + 1) * 512;
const WORKBOOK_ENTRY = DIRECTORY + 128;
const STREAM = 512;
const STREAM_SIZE = 4096;

/** Offsets (in the file) of the BIFF records of the Workbook stream, with their types. */
function biffRecords(b: Buffer): { at: number; type: number; size: number }[] {
  const out: { at: number; type: number; size: number }[] = [];
  for (let pos = 0; pos + 4 <= STREAM_SIZE; ) {
    const type = b.readUInt16LE(STREAM + pos);
    const size = b.readUInt16LE(STREAM + pos + 2);
    out.push({ at: STREAM + pos, type, size });
    pos += 4 + size;
  }
  return out;
}

const DAMAGED_XLSX = /^The file is damaged: it could not be read as an Excel workbook \(\.xlsx\)/;
const DAMAGED_XLS = /^The file is damaged: it could not be read as an Excel 97-2003 workbook \(\.xls\)/;

/** The corpus: at least one file for each way in of issue 9. */
export const HOSTILE_FILES: HostileFile[] = [
  // Far cells: a spreadsheet has 16,384 columns and 1,048,576 rows.
  {
    name: 'a cell past column XFD',
    fileName: 'far-column.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () => workbook({ sheet: sheet(`<row r="1">${inline('XFE1', 'ActivationCode')}</row>`) }),
  },
  {
    // Column 321,272,406: every per-row loop over the cells walked that many empty slots.
    name: 'a cell at column ZZZZZZ',
    fileName: 'far-far-column.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1">${inline('A1', 'x')}${inline('ZZZZZZ1', 'ActivationCode')}</row>`),
      }),
  },
  {
    name: 'a cell at column AAAAAAAAAAAAAAA (an overflowing reference)',
    fileName: 'overflow-column.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () => workbook({ sheet: sheet(`<row r="1">${inline(`${'A'.repeat(5000)}1`, 'x')}</row>`) }),
  },
  {
    name: '16,385 cells in a row without references',
    fileName: 'wide-row.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () => workbook({ sheet: sheet(`<row r="1">${'<c><v>1</v></c>'.repeat(16_385)}</row>`) }),
  },
  {
    name: 'a row number past 4 billion',
    fileName: 'far-row.xlsx',
    kind: 'excel',
    message: /past row 1,048,576/,
    make: () =>
      workbook({ sheet: sheet(`${HEADER}<row r="4294967297">${inline('A4294967297', 'X-1')}</row>`) }),
  },
  {
    name: 'row 1,048,577 reached by rows without numbers',
    fileName: 'implicit-far-row.xlsx',
    kind: 'excel',
    message: /past row 1,048,576/,
    make: () =>
      workbook({ sheet: sheet(`<row r="1048576"><c><v>1</v></c></row><row><c><v>2</v></c></row>`) }),
  },
  // Floods and long runs.
  {
    // Each `&` used to look for its `;` to the end of the text: the square of its length.
    name: 'a flood of & ending in ; in one cell (300 KB)',
    fileName: 'amp-flood.xlsx',
    kind: 'excel',
    make: () => workbook({ sheet: sheet(`<row r="1">${inline('A1', `${'&'.repeat(300_000)};`)}</row>`) }),
  },
  {
    name: 'a flood of & ending in ; in a shared text (300 KB)',
    fileName: 'amp-flood-shared.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si><t>${'&'.repeat(300_000)};</t></si>`),
      }),
  },
  {
    name: 'a flood of & ending in ; in an attribute of the workbook part (300 KB)',
    fileName: 'amp-flood-attribute.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        workbookXml: workbookXml(`<sheet name="${'&'.repeat(300_000)};" sheetId="1" r:id="rId1"/>`),
      }),
  },
  {
    name: 'a cell of 3 MB',
    fileName: 'long-cell.xlsx',
    kind: 'excel',
    message: /32,767 characters/,
    make: () => workbook({ sheet: sheet(`<row r="1">${inline('A1', `${'&amp;'.repeat(600_000)}`)}</row>`) }),
  },
  {
    name: 'a shared text of 3 MB',
    fileName: 'long-shared.xlsx',
    kind: 'excel',
    message: /32,767 characters/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si><t>${'x'.repeat(3 * MB)}</t></si>`),
      }),
  },
  {
    // The old attribute regex retried its name pattern from every character of a name without `=`.
    name: 'an attribute name of 1 MB without a value in the workbook part',
    fileName: 'attribute-name.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({ workbookXml: workbookXml(`<sheet name="a" sheetId="1" r:id="rId1" ${'a'.repeat(MB)}/>`) }),
  },
  {
    name: 'an attribute of 1 MB on each sheet entry of the workbook part',
    fileName: 'long-attribute-workbook.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        workbookXml: workbookXml(
          SHEETS.map(
            (s, i) => `<sheet name="${s}" sheetId="${i + 1}" r:id="rId${i + 1}" x="${'a'.repeat(MB)}"/>`,
          ).join(''),
        ),
      }),
  },
  {
    name: 'a sheet name of 3 MB',
    fileName: 'long-sheet-name.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({ workbookXml: workbookXml(`<sheet name="${'n'.repeat(3 * MB)}" sheetId="1" r:id="rId1"/>`) }),
  },
  {
    name: 'one attribute of 3 MB on a cell',
    fileName: 'long-attribute-cell.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        sheet: sheet(
          `<row r="1"><c r="A1" t="inlineStr" x="${'a'.repeat(3 * MB)}"><is><t>ActivationCode</t></is></c></row>`,
        ),
      }),
  },
  {
    name: 'a cell tag never closed (6 MB)',
    fileName: 'unclosed-tag.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: `<worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="s" ${' '.repeat(6 * MB)}`,
      }),
  },
  {
    name: 'a cell tag cut short at the end of the part',
    fileName: 'cut-tag.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () => workbook({ sheet: `<worksheet xmlns="${NS}"><sheetData>${HEADER}<row r="2"><c r="A2" t="s` }),
  },
  {
    name: 'a workbook part with a tag never closed',
    fileName: 'unclosed-workbook.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () => workbook({ workbookXml: `<workbook xmlns="${NS}"><sheets><sheet name="a" r:id="rId1"` }),
  },
  // DTDs: refused wherever they are.
  {
    name: 'entity expansion (billion laughs) in the shared texts',
    fileName: 'billion-laughs-strings.xlsx',
    kind: 'excel',
    message: /document type declaration/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings('<si><t>&lol9;</t></si>', BILLION_LAUGHS),
      }),
  },
  {
    name: 'entity expansion in the workbook part',
    fileName: 'billion-laughs-workbook.xlsx',
    kind: 'excel',
    message: /document type declaration/,
    make: () => workbook({ workbookXml: workbookXml().replace('<workbook', `${BILLION_LAUGHS}<workbook`) }),
  },
  {
    name: 'a DTD in the sheet',
    fileName: 'dtd-sheet.xlsx',
    kind: 'excel',
    message: /document type declaration/,
    make: () => workbook({ sheet: sheet(HEADER, BILLION_LAUGHS) }),
  },
  // Shared strings.
  {
    name: 'a shared-text index out of range',
    fileName: 'shared-index.xlsx',
    kind: 'excel',
    message: /missing shared text/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>4294967296</v></c></row>`),
        strings: strings('<si><t>ActivationCode</t></si>'),
      }),
  },
  {
    name: 'a shared text never closed (8 MB)',
    fileName: 'shared-unclosed.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si><t>${'x'.repeat(8 * MB)}`),
      }),
  },
  {
    name: 'shared texts with 15 MB before their root element',
    fileName: 'shared-prologue.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: `<?xml version="1.0"?>${' '.repeat(15 * MB)}<sst xmlns="${NS}"><si><t>a</t></si></sst>`,
      }),
  },
  {
    // PostgreSQL refuses NUL in text: a cell holding one reached the insert and failed there.
    name: 'a NUL byte in a cell',
    fileName: 'nul-cell.xlsx',
    kind: 'excel',
    message: /NUL character/,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}<row r="2">${inline('A2', 'A\u0000B')}${inline('B2', 'P0001')}</row>`),
      }),
  },
  {
    name: '3,000,000 empty shared texts (15 MB, under the ratio floor)',
    fileName: 'shared-many.xlsx',
    kind: 'excel',
    message: /no data rows/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>2999999</v></c></row>`),
        strings: strings('<si/>'.repeat(3_000_000)),
      }),
  },
  // Missing parts.
  {
    name: 'cells that refer to shared texts in a workbook without them',
    fileName: 'missing-strings.xlsx',
    kind: 'excel',
    message: /missing shared text/,
    make: () => workbook({ sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }),
  },
  {
    name: 'a workbook whose sheet part is missing',
    fileName: 'missing-sheet.xlsx',
    kind: 'excel',
    message: /missing/,
    make: () => workbook({ entries: (e) => e.filter((p) => !p.name.startsWith('xl/worksheets/')) }),
  },
  {
    name: 'a zip with relationships but no workbook part',
    fileName: 'missing-workbook.xlsx',
    kind: 'excel',
    message: /not an Excel workbook: it has no workbook part/,
    make: () => workbook({ entries: (e) => e.filter((p) => p.name !== 'xl/workbook.xml') }),
  },
  // Deep nesting.
  {
    name: '500,000 elements nested in one cell',
    fileName: 'deep-cell.xlsx',
    kind: 'excel',
    message: /nests more than 64 elements/,
    make: () =>
      workbook({
        sheet: sheet(
          `<row r="1"><c r="A1" t="inlineStr"><is>${'<r>'.repeat(500_000)}<t>x</t>${'</r>'.repeat(500_000)}</is></c></row>`,
        ),
      }),
  },
  {
    name: "2,000,000 elements nested in one cell (the finding's file)",
    fileName: 'deeper-cell.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(
          `<row r="1"><c r="A1" t="inlineStr"><is>${'<r>'.repeat(2_000_000)}<t>x</t>${'</r>'.repeat(2_000_000)}</is></c></row>`,
        ),
      }),
  },
  {
    name: '500,000 elements nested in one shared text',
    fileName: 'deep-shared.xlsx',
    kind: 'excel',
    message: /nests more than 64 elements/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si>${'<r>'.repeat(500_000)}<t>x</t>${'</r>'.repeat(500_000)}</si>`),
      }),
  },
  {
    name: '500,000 elements nested in the workbook part',
    fileName: 'deep-workbook.xlsx',
    kind: 'excel',
    message: /nests more than 64 elements/,
    make: () =>
      workbook({ workbookXml: workbookXml().replace('<sheets>', `${'<x>'.repeat(500_000)}<sheets>`) }),
  },
  // Zip tricks.
  {
    name: '30,000 zip entries',
    fileName: 'many-entries.xlsx',
    kind: 'excel',
    message: /too many parts/,
    make: () =>
      workbook({
        entries: (e) => [
          ...e,
          ...Array.from({ length: 30_000 }, (_, i) => ({ name: `x/${i}`, data: '', store: true })),
        ],
      }),
  },
  {
    name: 'overlapping zip entries (the workbook part is the sheet data)',
    fileName: 'overlapping.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}<row r="2">${inline('A2', 'X')}</row>`),
        entries: (e) => {
          const sheetPart = e.find((p) => p.name === 'xl/worksheets/sheet1.xml') as RawEntry;
          const rest = e.filter((p) => p !== sheetPart && p.name !== 'xl/workbook.xml');
          return [sheetPart, ...rest, { name: 'xl/workbook.xml', data: '', sameAs: sheetPart.name }];
        },
      }),
  },
  {
    name: 'a sheet part that inflates to more than its declared size',
    fileName: 'size-lies-small.xlsx',
    kind: 'excel',
    message: /zip bomb/,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}${'<row><c><v>1</v></c></row>'.repeat(10_000)}`),
        entries: (e) => e.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, declared: 1000 } : p)),
      }),
  },
  {
    name: 'a sheet part that inflates to less than its declared size',
    fileName: 'size-lies-big.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}<row r="2">${inline('A2', 'X')}</row>`),
        entries: (e) =>
          e.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, declared: 15 * MB } : p)),
      }),
  },
  {
    name: 'a zip bomb (64 MB of sheet from a few hundred KB)',
    fileName: 'zip-bomb.xlsx',
    kind: 'excel',
    message: /zip bomb/,
    make: () => workbook({ sheet: sheet(' '.repeat(64 * MB)) }),
  },
  {
    name: '15 MB of empty rows (under the ratio floor: read, not refused up front)',
    fileName: 'empty-rows.xlsx',
    kind: 'excel',
    message: /no data rows/,
    make: () => workbook({ sheet: sheet(`<row>${' '.repeat(1000)}</row>`.repeat(15_000)) }),
  },
  // Encrypted packages, other files.
  {
    name: 'a password-protected .xlsx',
    fileName: 'encrypted.xlsx',
    kind: 'excel',
    message: /password-protected/,
    make: () => fixtureFile('encrypted.xlsx'),
  },
  {
    name: 'a password-protected .xls',
    fileName: 'encrypted.xls',
    kind: 'excel',
    message: /password-protected/,
    make: () => fixtureFile('encrypted.xls'),
  },
  {
    name: 'a PNG named .xlsx',
    fileName: 'image.xlsx',
    kind: 'excel',
    message: /not an Excel workbook/,
    make: () => Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  },
  {
    name: 'an empty file',
    fileName: 'empty.xlsx',
    kind: 'excel',
    message: /^The file is empty\.$/,
    make: () => Buffer.alloc(0),
  },
  // Forged OLE2 headers.
  {
    // With a mini FAT whose chain holds, the old reader allocated the declared size (~4 GiB)
    // and walked it as BIFF records: a billion empty ones, the event loop held throughout.
    name: 'an .xls whose header forges the mini-stream cutoff (and a 4 GB stream in a mini FAT)',
    fileName: 'mini-cutoff.xls',
    kind: 'excel',
    message: /bad mini-stream cutoff/,
    make: () => {
      const b = forgedXls((f) => {
        f.writeUInt32LE(0xffffffff, 0x38); // cutoff
        f.writeUInt32LE(10, 0x3c); // the mini FAT: sector 10, appended below
        f.writeUInt32LE(1, 0x40);
        f.writeUInt32LE(0xfffffffe, (8 + 1) * 512 + 10 * 4); // FAT: sector 10 ends its chain
        f.writeUInt32LE(0xfffffff0, WORKBOOK_ENTRY + 120);
        f.writeUInt32LE(0, DIRECTORY + 116); // the root's mini stream: sector 0 on
      });
      const miniFat = Buffer.alloc(512, 0xff);
      miniFat.writeUInt32LE(0xfffffffe, 0); // mini sector 0 ends its chain: a valid one-sector chain
      return Buffer.concat([b, miniFat]);
    },
  },
  {
    name: 'an .xls with a sector size of 64 KB',
    fileName: 'sector-size.xls',
    kind: 'excel',
    message: /bad sector size/,
    make: () => forgedXls((b) => b.writeUInt16LE(16, 0x1e)),
  },
  {
    name: 'an .xls whose allocation table loops',
    fileName: 'fat-loop.xls',
    kind: 'excel',
    message: /sector chain is broken/,
    // The FAT (sector 8) entry of sector 3 points back to sector 0: the Workbook chain loops.
    make: () => forgedXls((b) => b.writeUInt32LE(0, (8 + 1) * 512 + 3 * 4)),
  },
  {
    name: 'an .xls whose Workbook stream declares 2 GB',
    fileName: 'huge-stream.xls',
    kind: 'excel',
    message: /larger than the file/,
    make: () => forgedXls((b) => b.writeUInt32LE(0x7fffffff, WORKBOOK_ENTRY + 120)),
  },
  {
    name: 'an .xls whose header lists 4 billion table sectors',
    fileName: 'fat-count.xls',
    kind: 'excel',
    message: /allocation table size/,
    make: () => forgedXls((b) => b.writeUInt32LE(0xffffffff, 0x2c)),
  },
  // BIFF records.
  {
    name: 'an .xls with a record longer than BIFF allows',
    fileName: 'long-record.xls',
    kind: 'excel',
    message: DAMAGED_XLS,
    make: () =>
      forgedXls((b) => {
        const second = biffRecords(b)[1] as { at: number };
        b.writeUInt16LE(0xffff, second.at + 2);
      }),
  },
  {
    name: 'an .xls with a cell record shorter than its contents',
    fileName: 'short-record.xls',
    kind: 'excel',
    message: DAMAGED_XLS,
    // The fixture has no sheet for a make: that upload stops before reading a sheet.
    messageNotOn: ['/api/UpdatesCommands'],
    make: () =>
      forgedXls((b) => {
        const records = biffRecords(b);
        const cell = records.find((r) => r.type === 0x00fd) as { at: number; size: number };
        // The record shrinks to 2 bytes; the rest of its data is a run of empty records after it.
        b.writeUInt16LE(2, cell.at + 2);
        b.fill(0, cell.at + 6, cell.at + 4 + cell.size);
      }),
  },
  {
    name: 'an .xls whose first sheet ends in a record that runs past the end of the stream',
    fileName: 'overrun.xls',
    kind: 'excel',
    message: DAMAGED_XLS,
    messageNotOn: ['/api/UpdatesCommands'],
    make: () =>
      forgedXls((b) => {
        // The second EOF record ends the first sheet (the first ends the workbook globals).
        const eof = biffRecords(b).filter((r) => r.type === 0x000a)[1] as { at: number };
        b.writeUInt16LE(STREAM + STREAM_SIZE - eof.at + 100, eof.at + 2);
      }),
  },
  // CSV.
  {
    name: 'a CSV with a quote never closed (3 MB)',
    fileName: 'unclosed-quote.csv',
    kind: 'csv',
    message: /a quote that opens a cell is never closed/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n"A-1,Pro\r\n${'B-2,Pro\r\n'.repeat(400_000)}`),
  },
  {
    name: 'a short CSV with a quote never closed',
    fileName: 'unclosed-quote-short.csv',
    kind: 'csv',
    message: /a quote that opens a cell in row 2 is never closed/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n"A-1,Pro\r\nB-2,Pro\r\n`),
  },
  {
    name: 'a CSV with NUL bytes after its first 64 KB',
    fileName: 'nul.csv',
    kind: 'csv',
    message: /NUL character/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n${'A,P0001,c,m,f\r\n'.repeat(10_000)}A\u0000B,P0002\r\n`),
  },
  {
    // csv-parse built an error object per row whose cell count differs from the header's: ~150 µs each.
    name: 'a CSV of 200,000 short rows under a longer header, with a NUL at its end',
    fileName: 'short-rows.csv',
    kind: 'csv',
    message: /Row 200002 of the CSV file holds a NUL character/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n${'a\r\n'.repeat(200_000)}\u0000\r\n`),
  },
  {
    name: 'a CSV of NUL bytes',
    fileName: 'nul-start.csv',
    kind: 'csv',
    message: /not an Excel workbook|is not/,
    make: () => Buffer.alloc(1000, 0),
  },
  {
    name: 'a CSV of one 9 MB line',
    fileName: 'long-line.csv',
    kind: 'csv',
    message: /longer than 2,097,152 characters/,
    make: () => Buffer.alloc(9 * MB, 0x61),
  },
  {
    name: 'a CSV row of 4.5 million cells',
    fileName: 'wide.csv',
    kind: 'csv',
    message: /more than 16,384 cells/,
    make: () => Buffer.from(`ActivationCode${','.repeat(4_500_000)}\r\nA\r\n`),
  },
];
