import path from 'node:path';
import { badRequest } from '../lib/errors.ts';
import {
  dtdRefused,
  Held,
  MAX_COLUMNS,
  MAX_DEPTH,
  MAX_ROWS,
  nulRefused,
  Slice,
  tooDeep,
  tooManyColumns,
  tooManyRows,
} from './bounds.ts';
import type { SheetReading, SheetRow, Workbook } from './workbook.ts';
import { readSheetInWorker, workersEnabled, xlsxWorkerOptions } from './xlsxWorkers.ts';
import { decodeCellText, partElements } from './xml.ts';
import { corruptWorkbook, DEFAULT_INFLATE_LIMITS, type InflateLimits, ZipArchive } from './zip.ts';

/**
 * The XLSX reader. General-purpose readers build a DOM node or an object per cell and need
 * tens of seconds for a million rows; this one inflates each sheet as a stream and walks its
 * bytes once with a small state machine that knows only rows, cells, values and strings.
 * Shared strings live in one byte buffer with an offset table, so even a table of millions of
 * strings costs about its UTF-8 size.
 */

const LT = 60; // <
const GT = 62; // >
const SLASH = 47;
const COLON = 58;
const QUOTE = 34;
const APOS = 39;
const AMP = 38;
const UNDERSCORE = 95;

/** Cell types (the `t` attribute), as small integers for the hot loop. */
const NUMBER = 0;
const SHARED = 1;
const INLINE = 2;
const TEXT = 3;
const BOOL = 4;

/** Bytes 2–5 of `<is><t>` as a big-endian number, for a one-read check. */
const IS_T_OPEN = Buffer.from('s><t').readUInt32BE(0);
const ONE_CHAR = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/** Largest shared-string part read into memory. */
const MAX_SHARED_STRINGS_BYTES = 512 * 1024 * 1024;
/**
 * A row (or a shared text, or any run without one's end) longer than this is not one a
 * spreadsheet program writes: 16,384 cells of `<c r="XFD1048576" t="s"><v>1234567</v></c>` are
 * under 1 MB. Its bytes are parsed in one step, so the bound is also how long a step can take.
 */
const MAX_RUN_BYTES = 4 * 1024 * 1024;
/** Bytes held without an end tag after which a run of empty elements (`<row r="9"/>`) is looked for. */
const LOOK_FOR_EMPTY_BYTES = 1024 * 1024;
/** Bytes before the root element (the XML declaration and comments): Excel writes ~60. */
const MAX_PROLOGUE_BYTES = 256 * 1024;

const REL_OFFICE_DOCUMENT = '/officeDocument';
const MAX_SHEET_NAME = 255;
const REL_WORKSHEET = '/worksheet';
const REL_SHARED_STRINGS = '/sharedStrings';

export async function openXlsx(
  file: string,
  limits: InflateLimits = DEFAULT_INFLATE_LIMITS,
): Promise<Workbook> {
  const zip = await ZipArchive.open(file, limits);
  try {
    if (zip.has('EncryptedPackage') || zip.has('EncryptionInfo')) {
      throw badRequest('The workbook is password-protected. Remove the password and retry.');
    }
    const workbookPart = await findWorkbookPart(zip);
    const rels = await relationships(zip, workbookPart);
    const workbookXml = await partElements(zip.read(workbookPart), ['sheet']);
    const sheets: { name: string; part: string }[] = [];
    for (const sheet of workbookXml.get('sheet') ?? []) {
      const rel = rels.get(sheet[':id'] ?? sheet.id ?? '');
      if (!sheet.name || !rel?.type.endsWith(REL_WORKSHEET)) continue; // chart sheets, dialogs
      // Excel allows 31 characters; a name of thousands would be repeated in every message.
      if (sheet.name.length > MAX_SHEET_NAME)
        throw corruptWorkbook('a sheet name is far longer than Excel allows');
      sheets.push({ name: sheet.name, part: rel.target });
    }
    if (sheets.length === 0) throw corruptWorkbook('it has no worksheets');
    const sstRel = [...rels.values()].find((r) => r.type.endsWith(REL_SHARED_STRINGS));
    const sstPart = sstRel?.target ?? 'xl/sharedStrings.xml';
    return new XlsxWorkbook(file, zip, sheets, zip.has(sstPart) ? sstPart : undefined, limits);
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function findWorkbookPart(zip: ZipArchive): Promise<string> {
  if (zip.has('_rels/.rels')) {
    const root = await partElements(zip.read('_rels/.rels'), ['Relationship']);
    const office = root.get('Relationship')?.find((r) => r.Type?.endsWith(REL_OFFICE_DOCUMENT));
    if (office?.Target) {
      const part = resolveTarget('', office.Target);
      if (zip.has(part)) return part;
    }
  }
  if (zip.has('xl/workbook.xml')) return 'xl/workbook.xml';
  throw badRequest('This zip file is not an Excel workbook: it has no workbook part.');
}

async function relationships(zip: ZipArchive, part: string) {
  const dir = path.posix.dirname(part);
  const relsPart = path.posix.join(dir, '_rels', `${path.posix.basename(part)}.rels`);
  const out = new Map<string, { type: string; target: string }>();
  if (!zip.has(relsPart)) return out;
  const found = await partElements(zip.read(relsPart), ['Relationship']);
  for (const r of found.get('Relationship') ?? []) {
    if (!r.Id || !r.Target || r.TargetMode === 'External') continue;
    out.set(r.Id, { type: r.Type ?? '', target: resolveTarget(dir, r.Target) });
  }
  return out;
}

function resolveTarget(dir: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return path.posix.normalize(path.posix.join(dir, target)).replace(/^(\.\.\/)+/, '');
}

class XlsxWorkbook implements Workbook {
  readonly type = 'xlsx' as const;
  readonly sheetNames: string[];
  private sst: Promise<SharedStrings> | undefined;

  constructor(
    private readonly file: string,
    private readonly zip: ZipArchive,
    private readonly sheets: { name: string; part: string }[],
    private readonly sstPart: string | undefined,
    private readonly limits: InflateLimits,
  ) {
    this.sheetNames = sheets.map((s) => s.name);
  }

  /** The shared strings, read once on first need (a sheet read in a worker reads its own). */
  private sharedStrings(): Promise<SharedStrings> {
    this.sst ??= this.sstPart
      ? readSharedStrings(this.zip, this.sstPart)
      : Promise.resolve(new SharedStrings());
    return this.sst;
  }

  read(name: string): SheetReading {
    const sheet = this.sheets.find((s) => s.name === name);
    if (!sheet) throw new Error(`no sheet ${name}`);
    if (!this.zip.has(sheet.part)) throw corruptWorkbook(`the sheet ${name} is missing`);
    const size = this.zip.entry(sheet.part)?.uncompressedSize ?? 0;
    const inProcess = () => {
      let parse: SheetReading | undefined;
      let wanted: number[] | undefined;
      const self = this;
      async function* rows(): AsyncGenerator<SheetRow[]> {
        parse = readSheetPart(self.zip, sheet?.part as string, name, await self.sharedStrings());
        if (wanted) parse.only(wanted);
        yield* parse.rows;
      }
      return {
        rows: rows(),
        progress: () => parse?.progress() ?? 0,
        only: (columns: number[]) => {
          wanted = columns;
          parse?.only(columns);
        },
      } satisfies SheetReading;
    };
    if (size < xlsxWorkerOptions.minBytes || !workersEnabled()) return inProcess();
    const zip = this.zip;
    return readSheetInWorker(
      {
        file: this.file,
        name,
        part: sheet.part,
        sstPart: this.sstPart,
        limits: this.limits,
        inflated: zip.inflated,
      },
      (inflated) => zip.addInflated(inflated),
      inProcess,
    );
  }

  async close() {
    this.zip.close();
  }
}

/** Reads one sheet part of an open archive with the workbook's shared strings. */
export function readSheetPart(zip: ZipArchive, part: string, name: string, sst: SharedStrings): SheetReading {
  const parser = new SheetParser(sst);
  let fraction = 0;
  async function* rows(): AsyncGenerator<SheetRow[]> {
    const held = new Held();
    const slice = new Slice();
    const onBytes = (done: number, total: number) => {
      fraction = total > 0 ? done / total : 1;
    };
    for await (let chunk of zip.read(part, onBytes)) {
      // Past the sheet data the rest is only inflated, so that the part's size is still checked.
      if (parser.done) continue;
      if (chunk.indexOf(0) >= 0) throw nulRefused();
      if (!parser.closeRow) {
        chunk = held.length > 0 ? Buffer.concat([held.take(), chunk]) : chunk;
        parser.detectPrefix(chunk);
        if (!parser.closeRow) {
          if (chunk.length > MAX_PROLOGUE_BYTES) throw corruptWorkbook(`${name} has no worksheet element`);
          held.push(chunk, null);
          continue;
        }
      }
      const closeRow = parser.closeRow as Buffer;
      const { bytes, cut } = held.push(chunk, closeRow);
      if (!bytes) {
        if (held.length > LOOK_FOR_EMPTY_BYTES) {
          // A run of empty rows (`<row r="9" ht="20"/>`) has no `</row>`: parse up to its last one.
          const all = held.take();
          const end = lastEmptyElement(all, 'row');
          if (end > 0) {
            const out: SheetRow[] = [];
            parser.parse(all, 0, end, out);
            held.push(all.subarray(end), null);
            if (out.length > 0) yield out;
            await slice.pause();
            continue;
          }
          held.push(all, null);
        }
        if (held.length > MAX_RUN_BYTES) {
          // No row end in 4 MB: past the last row (merged cells, links) or a row no program writes.
          const all = held.take();
          const end = all.indexOf(parser.closeSheetData as Buffer);
          if (end < 0) throw corruptWorkbook(`a row of ${name} is longer than 4 MB`);
          const out: SheetRow[] = [];
          parser.parse(all, 0, end + (parser.closeSheetData as Buffer).length, out);
          parser.done = true;
          if (out.length > 0) yield out;
        }
        continue;
      }
      const out: SheetRow[] = [];
      parser.parse(bytes, 0, cut, out);
      if (cut < bytes.length) held.push(bytes.subarray(cut), null);
      if (out.length > 0) yield out;
      await slice.pause();
    }
    if (held.length > 0 && !parser.done) {
      const rest = held.take();
      const out: SheetRow[] = [];
      parser.parse(rest, 0, rest.length, out);
      if (out.length > 0) yield out;
    }
  }
  return {
    rows: rows(),
    progress: () => fraction,
    only: (columns) => parser.only(columns),
  };
}

/** Shared strings as UTF-8 bytes plus end offsets, with a small cache of decoded strings. */
export class SharedStrings {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  private ends = new Uint32Array(1024);
  count = 0;
  private readonly cacheIndex = new Int32Array(1 << 16).fill(-1);
  private readonly cacheText: string[] = new Array(1 << 16);

  private reserve(n: number) {
    if (this.used + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.used + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }

  appendBytes(src: Buffer, start: number, end: number) {
    this.reserve(end - start);
    src.copy(this.bytes, this.used, start, end);
    this.used += end - start;
  }

  appendText(text: string) {
    this.reserve(Buffer.byteLength(text));
    this.used += this.bytes.write(text, this.used);
  }

  /** Ends the string being appended. */
  finish() {
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.used;
  }

  get(index: number): string | undefined {
    if (index >= this.count || index < 0) return undefined;
    const slot = index & 0xffff;
    if (this.cacheIndex[slot] === index) return this.cacheText[slot];
    const start = index === 0 ? 0 : (this.ends[index - 1] as number);
    const text = this.bytes.toString('utf8', start, this.ends[index]);
    this.cacheIndex[slot] = index;
    this.cacheText[slot] = text;
    return text;
  }
}

/** Set by `textEnd`: whether the text just scanned holds `&` or `_` (entities, _xHHHH_ escapes). */
let sawEscape = false;
/** Set by `textEnd`: whether it holds any byte above ASCII. */
let sawHigh = false;

/** The index of the `<` that ends the text starting at `i`. */
function textEnd(b: Buffer, i: number, end: number): number {
  let escaped = false;
  let high = false;
  while (i < end) {
    const c = b[i] as number;
    if (c === LT) break;
    if (c === AMP || c === UNDERSCORE) escaped = true;
    else if (c > 127) high = true;
    i++;
  }
  sawEscape = escaped;
  sawHigh = high;
  return i;
}

/**
 * Excel holds at most 32,767 characters in a cell; written as XML, with every one a character
 * reference (`&#x1F600;`), that is under 320 KB. Longer text is refused before it is decoded.
 */
const MAX_CELL_BYTES = 320 * 1024;

function decodeText(b: Buffer, start: number, end: number): string {
  if (end - start > MAX_CELL_BYTES) throw cellTooLong();
  const raw = sawHigh ? b.toString('utf8', start, end) : b.toString('latin1', start, end);
  return sawEscape ? decodeCellText(raw) : raw;
}

const cellTooLong = () =>
  badRequest(
    'A cell of the workbook holds far more than the 32,767 characters a cell can hold, so it was not read.',
  );

/** The index just past the `>` of the tag whose name ends at `i`, skipping quoted attribute values. */
function tagEnd(b: Buffer, i: number, end: number): number {
  while (i < end) {
    const c = b[i] as number;
    if (c === GT) return i + 1;
    if (c === QUOTE || c === APOS) {
      i = b.indexOf(c, i + 1);
      if (i < 0 || i >= end) break;
    }
    i++;
  }
  throw corruptWorkbook('a tag is not closed');
}

/**
 * Past a comment, processing instruction or CDATA section starting at `i` (the `<`). Any other
 * `<!` is a DTD or one of its declarations: refused.
 */
function skipSpecial(b: Buffer, i: number, end: number): number {
  const bang = b[i + 1] === 33;
  if (bang && !(b[i + 2] === 45 && b[i + 3] === 45) && b[i + 2] !== 91) throw dtdRefused();
  const close = bang && b[i + 2] === 45 ? '-->' : bang ? ']]>' : '?>';
  const at = b.indexOf(close, i + 2);
  if (at < 0 || at >= end) throw corruptWorkbook('a comment is not closed');
  return at + close.length;
}

/**
 * The end of the last empty element of that local name (`<row r="9"/>`, `<si/>`), any prefix,
 * before the first one left open, or -1. `b` starts outside such elements and holds no end tag
 * of one; what precedes the result is then whole elements, a place where parsing can stop.
 * Linear: every `<` is looked at once, quoted attribute values are skipped.
 */
function lastEmptyElement(b: Buffer, local: string): number {
  const name = Buffer.from(local);
  let found = -1;
  let i = 0;
  for (;;) {
    i = b.indexOf(LT, i);
    if (i < 0 || i + 1 >= b.length) return found;
    const first = b[i + 1];
    if (first === SLASH || first === 33 || first === 63) {
      i += 2;
      continue;
    }
    let j = i + 1;
    let start = j;
    while (j < b.length) {
      const c = b[j] as number;
      if (c === COLON) start = j + 1;
      else if (c <= 32 || c === GT || c === SLASH) break;
      j++;
    }
    if (j - start !== name.length || b.compare(name, 0, name.length, start, j) !== 0) {
      i = j;
      continue;
    }
    let k = j;
    while (k < b.length && b[k] !== GT) {
      if (b[k] === QUOTE || b[k] === APOS) {
        k = b.indexOf(b[k] as number, k + 1);
        if (k < 0) return found;
      }
      k++;
    }
    if (k >= b.length || b[k - 1] !== SLASH) return found; // open: what follows is inside it
    found = k + 1;
    i = found;
  }
}

/** The namespace prefix of the root element (`x:` in `<x:worksheet>`), or ''. */
function rootPrefix(b: Buffer): string | undefined {
  let i = 0;
  for (;;) {
    i = b.indexOf(LT, i);
    if (i < 0 || i + 1 >= b.length) return undefined;
    const c = b[i + 1];
    if (c === 63 || c === 33) {
      if (c === 33 && !(b[i + 2] === 45 && b[i + 3] === 45)) {
        if (i + 3 >= b.length) return undefined;
        throw dtdRefused();
      }
      const close = b.indexOf(c === 33 ? '-->' : '?>', i + 2);
      if (close < 0) return undefined;
      i = close + (c === 33 ? 3 : 2);
      continue;
    }
    let j = i + 1;
    while (j < b.length && (b[j] as number) > 32 && b[j] !== GT && b[j] !== SLASH) j++;
    if (j >= b.length) return undefined;
    const name = b.toString('latin1', i + 1, j);
    const colon = name.indexOf(':');
    return colon < 0 ? '' : name.slice(0, colon + 1);
  }
}

export async function readSharedStrings(zip: ZipArchive, part: string): Promise<SharedStrings> {
  const info = zip.entry(part);
  if (info && info.uncompressedSize > MAX_SHARED_STRINGS_BYTES) {
    throw badRequest('The workbook holds more distinct texts than an import can take (over 512 MB).');
  }
  const sst = new SharedStrings();
  let closeSi: Buffer | null = null;
  const held = new Held();
  const slice = new Slice();
  const state = { inSi: false, phonetic: 0, depth: 0 };
  for await (const chunk of zip.read(part)) {
    if (chunk.indexOf(0) >= 0) throw nulRefused();
    if (!closeSi) {
      const head = held.length > 0 ? Buffer.concat([held.take(), chunk]) : chunk;
      const prefix = rootPrefix(head);
      if (prefix === undefined) {
        if (head.length > MAX_PROLOGUE_BYTES) throw corruptWorkbook('the shared texts have no root element');
        held.push(head, null);
        continue;
      }
      closeSi = Buffer.from(`</${prefix}si>`);
      const { bytes, cut } = held.push(head, closeSi);
      if (bytes) take(bytes, cut);
    } else {
      const { bytes, cut } = held.push(chunk, closeSi);
      if (bytes) take(bytes, cut);
    }
    if (held.length > LOOK_FOR_EMPTY_BYTES) {
      // A run of empty texts (`<si/>`) has no `</si>`: parse up to its last one.
      const all = held.take();
      const end = lastEmptyElement(all, 'si');
      if (end > 0) take(all, end);
      else held.push(all, null);
    }
    if (held.length > MAX_RUN_BYTES) throw corruptWorkbook('a shared text is longer than 4 MB');
    await slice.pause();
  }
  if (held.length > 0) {
    const rest = held.take();
    parseSharedStrings(rest, rest.length, sst, state);
  }
  return sst;

  function take(bytes: Buffer, cut: number) {
    parseSharedStrings(bytes, cut, sst, state);
    if (cut < bytes.length) held.push(bytes.subarray(cut), null);
  }
}

function parseSharedStrings(
  b: Buffer,
  end: number,
  sst: SharedStrings,
  state: { inSi: boolean; phonetic: number; depth: number },
) {
  let i = 0;
  while (i < end) {
    i = b.indexOf(LT, i);
    if (i < 0 || i >= end) return;
    let j = i + 1;
    let c = b[j];
    const closing = c === SLASH;
    if (closing) c = b[++j];
    else if (c === 33 || c === 63) {
      i = skipSpecial(b, i, end);
      continue;
    }
    let local = j;
    while (j < end) {
      c = b[j] as number;
      if (c === COLON) local = j + 1;
      else if (c <= 32 || c === GT || c === SLASH) break;
      j++;
    }
    const len = j - local;
    const c0 = b[local];
    const after = tagEnd(b, j, end);
    const selfClosing = b[after - 2] === SLASH;
    i = after;
    if (len === 2 && c0 === 115 && b[local + 1] === 105) {
      // si
      if (closing || selfClosing) {
        sst.finish();
        state.inSi = false;
      } else {
        state.inSi = true;
      }
      state.depth = 0;
      continue;
    }
    if (state.inSi) {
      if (closing) state.depth--;
      else if (!selfClosing && ++state.depth > MAX_DEPTH) throw tooDeep();
    }
    if (len === 3 && c0 === 114 && b[local + 1] === 80) {
      // rPh: phonetic guide, not part of the text
      if (closing) state.phonetic--;
      else if (!selfClosing) state.phonetic++;
    } else if (len === 1 && c0 === 116 && !closing && !selfClosing && state.inSi && state.phonetic === 0) {
      // t
      const stop = textEnd(b, after, end);
      if (sawEscape) sst.appendText(decodeText(b, after, stop));
      else if (stop - after > MAX_CELL_BYTES) throw cellTooLong();
      else sst.appendBytes(b, after, stop);
      i = stop;
    }
  }
}

/** Past `</v></c>` when it is at `at`, else -1 (unrolled: this runs once per cell). */
function closesValue(b: Buffer, at: number, end: number): number {
  return at + 8 <= end &&
    b[at + 1] === SLASH &&
    b[at + 2] === 118 &&
    b[at + 3] === GT &&
    b[at + 4] === LT &&
    b[at + 5] === SLASH &&
    b[at + 6] === 99 &&
    b[at + 7] === GT
    ? at + 8
    : -1;
}

/** Past `</t></is></c>` when it is at `at`, else -1. */
function closesInline(b: Buffer, at: number, end: number): number {
  return at + 13 <= end &&
    b[at + 1] === SLASH &&
    b[at + 2] === 116 &&
    b[at + 3] === GT &&
    b[at + 4] === LT &&
    b[at + 5] === SLASH &&
    b[at + 6] === 105 &&
    b[at + 7] === 115 &&
    b[at + 8] === GT &&
    b[at + 9] === LT &&
    b[at + 10] === SLASH &&
    b[at + 11] === 99 &&
    b[at + 12] === GT
    ? at + 13
    : -1;
}

/** A-Z letters of a cell reference → zero-based column, or -1 when there are none; past XFD refused. */
function columnOf(b: Buffer, start: number, end: number): number {
  let col = 0;
  let i = start;
  for (; i < end; i++) {
    const c = b[i] as number;
    if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
    else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
    else break;
    if (col > MAX_COLUMNS) throw tooManyColumns();
  }
  return i === start ? -1 : col - 1;
}

function intOf(b: Buffer, start: number, end: number): number {
  let n = 0;
  let any = false;
  for (let i = start; i < end; i++) {
    const c = b[i] as number;
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      any = true;
    } else if (c > 32) return -1;
  }
  return any ? n : -1;
}

class SheetParser {
  /** `</row>` with the sheet's namespace prefix, once known. */
  closeRow: Buffer | null = null;
  /** `</sheetData>` likewise. */
  closeSheetData: Buffer | null = null;
  /** Whether the sheet's elements carry no namespace prefix (the fast path needs that). */
  private plainNames = false;
  done = false;
  private lastRow = 0;
  private wanted: Uint8Array | null = null;

  constructor(private readonly sst: SharedStrings) {}

  detectPrefix(b: Buffer) {
    const prefix = rootPrefix(b);
    if (prefix === undefined) return;
    this.closeRow = Buffer.from(`</${prefix}row>`);
    this.closeSheetData = Buffer.from(`</${prefix}sheetData>`);
    this.plainNames = prefix === '';
  }

  only(columns: number[]) {
    const wanted = new Uint8Array(Math.max(0, ...columns) + 1);
    for (const c of columns) if (c >= 0) wanted[c] = 1;
    this.wanted = wanted;
  }

  /** Parses [start, end), which begins outside any row, and pushes every row that has a value. */
  parse(b: Buffer, start: number, end: number, out: SheetRow[]) {
    const sst = this.sst;
    const wanted = this.wanted;
    const plain = this.plainNames;
    let i = start;
    let cells: (string | undefined)[] | null = null;
    let rowNumber = 0;
    let rowHasValue = false;
    let inCell = false;
    let col = -1;
    let lastCol = -1;
    let type: number = NUMBER;
    let skip = false;
    let value: string | undefined;
    let inInline = false;
    let phonetic = 0;
    /** Elements open inside the current cell. */
    let depth = 0;

    while (i < end) {
      if (b[i] !== LT) {
        i = b.indexOf(LT, i);
        if (i < 0 || i >= end) break;
      }
      let j = i + 1;
      let c = b[j] as number;
      const closing = c === SLASH;
      if (closing) c = b[++j] as number;
      else if (c === 33 || c === 63) {
        i = skipSpecial(b, i, end);
        continue;
      }
      let local = j;
      while (j < end) {
        c = b[j] as number;
        if (c === COLON) local = j + 1;
        else if (c <= 32 || c === GT || c === SLASH) break;
        j++;
      }
      const len = j - local;
      const c0 = b[local];

      if (closing) {
        while (j < end && b[j] !== GT) j++;
        i = j + 1;
        if (depth > 0) depth--;
        if (len === 1 && c0 === 99) {
          // </c>
          if (inCell && cells && value !== undefined && value !== '') {
            cells[col] = value;
            rowHasValue = true;
          }
          inCell = false;
          inInline = false;
        } else if (len === 3 && c0 === 114 && b[local + 1] === 111) {
          // </row>
          if (cells && rowHasValue) out.push({ row: rowNumber, cells });
          cells = null;
        } else if (len === 2 && c0 === 105 && b[local + 1] === 115) {
          inInline = false; // </is>
        } else if (len === 3 && c0 === 114 && b[local + 1] === 80) {
          phonetic--; // </rPh>
        } else if (len === 9 && c0 === 115 && b[local + 5] === 68) {
          this.done = true; // </sheetData>
          return;
        }
        continue;
      }

      if (len === 1 && c0 === 99 && cells) {
        // <c r="B2" t="s">: read the attributes we need
        col = -1;
        type = NUMBER;
        let selfClosing = false;
        for (;;) {
          while (j < end && (b[j] as number) <= 32) j++;
          c = b[j] as number;
          if (c === GT) {
            j++;
            break;
          }
          if (c === SLASH) {
            selfClosing = true;
            j += 2;
            break;
          }
          if (j >= end) throw corruptWorkbook('a cell tag is not closed');
          const nameStart = j;
          while (j < end && b[j] !== 61 && (b[j] as number) > 32) j++;
          const nameLength = j - nameStart;
          while (j < end && b[j] !== QUOTE && b[j] !== APOS) j++;
          const quote = b[j] as number;
          const valueStart = ++j;
          while (j < end && b[j] !== quote) j++;
          if (j >= end) throw corruptWorkbook('a cell attribute is not closed');
          const valueEnd = j;
          j++;
          if (nameLength === 1) {
            const n = b[nameStart];
            if (n === 114) col = columnOf(b, valueStart, valueEnd);
            else if (n === 116) type = cellType(b, valueStart, valueEnd);
          }
        }
        if (col < 0) {
          col = lastCol + 1;
          if (col >= MAX_COLUMNS) throw tooManyColumns();
        }
        lastCol = col;
        depth = 0;
        i = j;
        if (selfClosing) continue;
        skip = wanted !== null && wanted[col] !== 1;
        // Fast path for the usual `<v>…</v></c>` and `<is><t>…</t></is></c>` without prefixes:
        // the whole cell is read here instead of tag by tag.
        if (plain && b[j] === LT) {
          const n1 = b[j + 1];
          let start = -1;
          if (n1 === 118 && b[j + 2] === GT) start = j + 3;
          else if (n1 === 105 && j + 7 <= end && b.readUInt32BE(j + 2) === IS_T_OPEN && b[j + 6] === GT) {
            start = j + 7;
          }
          if (start > 0) {
            const stop = textEnd(b, start, end);
            const after = start === j + 3 ? closesValue(b, stop, end) : closesInline(b, stop, end);
            if (after > 0) {
              i = after;
              if (skip || stop === start) continue;
              let text: string | undefined;
              if (type === SHARED) {
                text = sst.get(intOf(b, start, stop));
                if (text === undefined) throw corruptWorkbook('a cell refers to a missing shared text');
              } else if (type === BOOL) text = b[start] === 49 ? 'TRUE' : 'FALSE';
              else if (stop - start === 1 && !sawEscape && !sawHigh) text = ONE_CHAR[b[start] as number];
              else text = decodeText(b, start, stop);
              if (text) {
                cells[col] = text;
                rowHasValue = true;
              }
              continue;
            }
          }
        }
        inCell = true;
        value = undefined;
        continue;
      }

      if (len === 1 && c0 === 118 && inCell) {
        // <v>value</v>
        const after = tagEnd(b, j, end);
        if (b[after - 2] === SLASH) {
          i = after;
          continue;
        }
        const stop = textEnd(b, after, end);
        i = stop;
        depth++;
        if (skip) continue;
        if (type === SHARED) {
          const index = intOf(b, after, stop);
          value = sst.get(index);
          if (value === undefined) throw corruptWorkbook('a cell refers to a missing shared text');
        } else if (type === BOOL) {
          value = b[after] === 49 ? 'TRUE' : 'FALSE';
        } else {
          value = decodeText(b, after, stop);
        }
        continue;
      }

      if (len === 3 && c0 === 114 && b[local + 1] === 111 && b[local + 2] === 119) {
        // <row r="2">
        let r = -1;
        let selfClosing = false;
        for (;;) {
          while (j < end && (b[j] as number) <= 32) j++;
          c = b[j] as number;
          if (c === GT) {
            j++;
            break;
          }
          if (c === SLASH) {
            selfClosing = true;
            j += 2;
            break;
          }
          if (j >= end) throw corruptWorkbook('a row tag is not closed');
          const nameStart = j;
          while (j < end && b[j] !== 61 && (b[j] as number) > 32) j++;
          const nameLength = j - nameStart;
          while (j < end && b[j] !== QUOTE && b[j] !== APOS) j++;
          const quote = b[j] as number;
          const valueStart = ++j;
          while (j < end && b[j] !== quote) j++;
          if (j >= end) throw corruptWorkbook('a row attribute is not closed');
          if (nameLength === 1 && b[nameStart] === 114) r = intOf(b, valueStart, j);
          j++;
        }
        rowNumber = r > 0 ? r : this.lastRow + 1;
        if (rowNumber > MAX_ROWS) throw tooManyRows();
        this.lastRow = rowNumber;
        lastCol = -1;
        i = j;
        cells = selfClosing ? null : [];
        rowHasValue = false;
        continue;
      }

      const after = tagEnd(b, j, end);
      const selfClosing = b[after - 2] === SLASH;
      i = after;
      if (inCell && !selfClosing && ++depth > MAX_DEPTH) throw tooDeep();
      if (len === 2 && c0 === 105 && b[local + 1] === 115 && inCell) {
        // <is>: an inline string, the text of its <t> elements
        if (!selfClosing) inInline = true;
        value = '';
      } else if (len === 1 && c0 === 116 && inInline && phonetic === 0 && !selfClosing) {
        const stop = textEnd(b, after, end);
        if (!skip) value += decodeText(b, after, stop);
        i = stop;
      } else if (len === 3 && c0 === 114 && b[local + 1] === 80 && !selfClosing) {
        phonetic++;
      }
    }
  }
}

function cellType(b: Buffer, start: number, end: number): number {
  const length = end - start;
  const c = b[start];
  if (length === 1) {
    if (c === 115) return SHARED; // s
    if (c === 98) return BOOL; // b
    if (c === 110) return NUMBER; // n
    return TEXT; // e, d
  }
  if (c === 105) return INLINE; // inlineStr
  return TEXT; // str
}
