/**
 * The builders of the hostile-file corpus (hostileCorpus.ts): zips written byte by byte (not by a
 * zip library), so that entries can overlap and sizes can lie; workbooks around hand-written parts;
 * the committed xlwt .xls with one field forged; the messages the readers answer.
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

export const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const RNS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface RawEntry {
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
export const SHEETS = ['fault_descriptions', 'causes', 'symptoms', 'solutions', 'Baic'];

export interface WorkbookParts {
  sheet?: string | Buffer;
  strings?: string | Buffer;
  workbookXml?: string;
  /** Replaces the entries (after the parts are laid out). */
  entries?(parts: RawEntry[]): RawEntry[];
}

export const workbookXml = (
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
export const sheet = (rows: string, prologue = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>${prologue}<worksheet xmlns="${NS}"><sheetData>${rows}</sheetData></worksheet>`;
export const inline = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
/** The columns every upload route requires, so that the readers get past the header to what follows. */
export const COLUMNS = [
  'ActivationCode',
  'DTC',
  'command',
  'module',
  'function_type',
  'Causes',
  'Symptom',
  'Solution',
];
export const HEADER = `<row r="1">${COLUMNS.map((c, i) => inline(`${String.fromCharCode(65 + i)}1`, c)).join('')}</row>`;
export const CSV_HEADER = COLUMNS.join(',');
export const strings = (items: string, prologue = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>${prologue}<sst xmlns="${NS}">${items}</sst>`;

export const BILLION_LAUGHS = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
).join('')}]>`;

export const MB = 1024 * 1024;

/** Bytes of the OLE2 fixture with a forgery applied. */
export function forgedXls(forge: (b: Buffer) => void): Buffer {
  const b = Buffer.from(fixtureFile('fault-workbook.xls'));
  forge(b);
  return b;
}

/** fault-workbook.xls: 512-byte sectors, the directory in sector 9, the Workbook stream (4096 bytes) from sector 0. */
export const DIRECTORY = (9 + 1) * 512;
export const WORKBOOK_ENTRY = DIRECTORY + 128;
export const STREAM = 512;
export const STREAM_SIZE = 4096;

/** Offsets (in the file) of the BIFF records of the Workbook stream, with their types. */
export function biffRecords(b: Buffer): { at: number; type: number; size: number }[] {
  const out: { at: number; type: number; size: number }[] = [];
  for (let pos = 0; pos + 4 <= STREAM_SIZE; ) {
    const type = b.readUInt16LE(STREAM + pos);
    const size = b.readUInt16LE(STREAM + pos + 2);
    out.push({ at: STREAM + pos, type, size });
    pos += 4 + size;
  }
  return out;
}

export const DAMAGED_XLSX = /^The file is damaged: it could not be read as an Excel workbook \(\.xlsx\)/;
export const DAMAGED_XLS =
  /^The file is damaged: it could not be read as an Excel 97-2003 workbook \(\.xls\)/;
