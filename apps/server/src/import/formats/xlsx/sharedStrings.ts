import { badRequest } from '../../../lib/errors.ts';
import { Held, MAX_DEPTH, nulRefused, Slice, tooDeep } from '../bounds.ts';
import { corruptWorkbook, type ZipArchive } from '../zip.ts';
import {
  cellTooLong,
  LT,
  lastEmptyElement,
  MAX_CELL_BYTES,
  name,
  rootPrefix,
  SLASH,
  Tag,
  TextScan,
  tagEnd,
} from './bytes.ts';
import { LOOK_FOR_EMPTY_BYTES, MAX_PROLOGUE_BYTES, MAX_RUN_BYTES } from './limits.ts';

/** Largest shared-string part read into memory. */
const MAX_SHARED_STRINGS_BYTES = 512 * 1024 * 1024;

/** A shared text (`<si>`), a run of its text (`<t>`) and a phonetic guide, not part of the text (`<rPh>`). */
const SI = name('si');
const T = name('t');
const RPH = name('rPh');

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

/** Reads the shared-string part as it inflates, a run of whole `<si>` elements at a time. */
export async function readSharedStrings(zip: ZipArchive, part: string): Promise<SharedStrings> {
  const info = zip.entry(part);
  if (info && info.uncompressedSize > MAX_SHARED_STRINGS_BYTES) {
    throw badRequest('The workbook holds more distinct texts than an import can take (over 512 MB).');
  }
  const parser = new SharedStringsParser(new SharedStrings());
  let closeSi: Buffer | null = null;
  const held = new Held();
  const slice = new Slice();
  const take = (bytes: Buffer, cut: number) => {
    parser.parse(bytes, cut);
    if (cut < bytes.length) held.push(bytes.subarray(cut), null);
  };
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
    parser.parse(rest, rest.length);
  }
  return parser.sst;
}

/** The state of the shared-string scan between runs of bytes. */
class SharedStringsParser {
  private inSi = false;
  private phonetic = 0;
  private depth = 0;
  private readonly text = new TextScan();
  private readonly tag = new Tag();

  constructor(readonly sst: SharedStrings) {}

  /** Parses [0, end) of `b`, which begins outside any `<si>` or inside the one left open. */
  parse(b: Buffer, end: number) {
    const { sst, text, tag } = this;
    let i = 0;
    while (i < end) {
      i = b.indexOf(LT, i);
      if (i < 0 || i >= end) return;
      if (!tag.read(b, i, end)) {
        i = tag.end;
        continue;
      }
      const closing = tag.closing;
      const after = tagEnd(b, tag.end, end);
      const selfClosing = b[after - 2] === SLASH;
      i = after;
      if (tag.is(b, SI)) {
        if (closing || selfClosing) {
          sst.finish();
          this.inSi = false;
        } else {
          this.inSi = true;
        }
        this.depth = 0;
        continue;
      }
      if (this.inSi) {
        if (closing) this.depth--;
        else if (!selfClosing && ++this.depth > MAX_DEPTH) throw tooDeep();
      }
      if (tag.is(b, RPH)) {
        if (closing) this.phonetic--;
        else if (!selfClosing) this.phonetic++;
      } else if (tag.is(b, T) && !closing && !selfClosing && this.inSi && this.phonetic === 0) {
        const stop = text.end(b, after, end);
        if (text.escaped) sst.appendText(text.decode(b, after, stop));
        else if (stop - after > MAX_CELL_BYTES) throw cellTooLong();
        else sst.appendBytes(b, after, stop);
        i = stop;
      }
    }
  }
}
