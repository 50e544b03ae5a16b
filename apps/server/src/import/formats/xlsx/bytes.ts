import { badRequest } from '../../../lib/errors.ts';
import { dtdRefused } from '../bounds.ts';
import { decodeCellText } from '../xml.ts';
import { corruptWorkbook } from '../zip.ts';

/**
 * The byte-level pieces the XLSX sheet and shared-string scanners share: the bytes they look
 * for, named, and the small scans over a tag, a text or an attribute list. They work on the
 * inflated UTF-8 bytes directly, so a cell costs no string until its text is wanted.
 */

/** ASCII bytes, by the character they are. */
export const ch = (c: string) => c.charCodeAt(0);
export const LT = ch('<');
export const GT = ch('>');
export const SLASH = ch('/');
export const COLON = ch(':');
export const QUOTE = ch('"');
export const APOS = ch("'");
export const AMP = ch('&');
export const EQUALS = ch('=');
export const BANG = ch('!');
export const QUESTION = ch('?');
export const DASH = ch('-');
export const OPEN_BRACKET = ch('[');
export const UNDERSCORE = ch('_');
export const DIGIT_0 = ch('0');
export const DIGIT_1 = ch('1');
export const DIGIT_9 = ch('9');
/** The last byte that is whitespace or a control character in a tag. */
export const SPACE = 32;
/** The last ASCII byte: above it, text must be decoded as UTF-8. */
export const ASCII_MAX = 127;

/** Whether the tag name at `at`, `length` bytes long, is `name` (an ASCII name, any case as given). */
export function isName(b: Buffer, at: number, length: number, name: Uint8Array): boolean {
  if (length !== name.length) return false;
  for (let k = 0; k < length; k++) if (b[at + k] !== name[k]) return false;
  return true;
}
export const name = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'));

/**
 * What a scan over a text found besides its end: whether it holds `&` or `_` (entities,
 * `_xHHHH_` escapes) and whether it holds any byte above ASCII. One per parser, reused for
 * every text, so the hot loop allocates nothing.
 */
export class TextScan {
  escaped = false;
  high = false;

  /** The index of the `<` that ends the text starting at `i` (or `end`). */
  end(b: Buffer, i: number, end: number): number {
    let escaped = false;
    let high = false;
    while (i < end) {
      const c = b[i] as number;
      if (c === LT) break;
      if (c === AMP || c === UNDERSCORE) escaped = true;
      else if (c > ASCII_MAX) high = true;
      i++;
    }
    this.escaped = escaped;
    this.high = high;
    return i;
  }

  /** The text of [start, end), scanned by `end` just before. */
  decode(b: Buffer, start: number, end: number): string {
    if (end - start > MAX_CELL_BYTES) throw cellTooLong();
    const raw = this.high ? b.toString('utf8', start, end) : b.toString('latin1', start, end);
    return this.escaped ? decodeCellText(raw) : raw;
  }
}

/**
 * Excel holds at most 32,767 characters in a cell; written as XML, with every one a character
 * reference (`&#x1F600;`), that is under 320 KB. Longer text is refused before it is decoded.
 */
export const MAX_CELL_BYTES = 320 * 1024;

export const cellTooLong = () =>
  badRequest(
    'A cell of the workbook holds far more than the 32,767 characters a cell can hold, so it was not read.',
  );

/** The index just past the `>` of the tag whose name ends at `i`, skipping quoted attribute values. */
export function tagEnd(b: Buffer, i: number, end: number): number {
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

/** Whether `<!` at `i` opens a comment (`<!--`). */
const opensComment = (b: Buffer, i: number) => b[i + 2] === DASH && b[i + 3] === DASH;

/**
 * Past a comment, processing instruction or CDATA section starting at `i` (the `<`). Any other
 * `<!` is a DTD or one of its declarations: refused.
 */
export function skipSpecial(b: Buffer, i: number, end: number): number {
  const bang = b[i + 1] === BANG;
  if (bang && !opensComment(b, i) && b[i + 2] !== OPEN_BRACKET) throw dtdRefused();
  const close = bang && b[i + 2] === DASH ? '-->' : bang ? ']]>' : '?>';
  const at = b.indexOf(close, i + 2);
  if (at < 0 || at >= end) throw corruptWorkbook('a comment is not closed');
  return at + close.length;
}

/**
 * One tag, read from its `<`: whether it ends an element, and where its local name (past any
 * `prefix:`) starts and ends. One per parser, reused for every tag.
 */
export class Tag {
  closing = false;
  local = 0;
  /** The end of the name; after a comment, processing instruction or CDATA, the index past it. */
  end = 0;

  /** Reads the tag whose `<` is at `i`; false for a comment, processing instruction or CDATA. */
  read(b: Buffer, i: number, end: number): boolean {
    let j = i + 1;
    const first = b[j];
    this.closing = first === SLASH;
    if (this.closing) j++;
    else if (first === BANG || first === QUESTION) {
      this.end = skipSpecial(b, i, end);
      return false;
    }
    this.name(b, j, end);
    return true;
  }

  /** Reads the name starting at `j`. */
  name(b: Buffer, j: number, end: number): void {
    let local = j;
    while (j < end) {
      const c = b[j] as number;
      if (c === COLON) local = j + 1;
      else if (c <= SPACE || c === GT || c === SLASH) break;
      j++;
    }
    this.local = local;
    this.end = j;
  }

  /** Whether its local name is `name`. */
  is(b: Buffer, name: Uint8Array): boolean {
    return isName(b, this.local, this.end - this.local, name);
  }
}

/**
 * The attributes of a start tag, one at a time, from just past its name: `next` answers false
 * at the tag's end (then `selfClosing` says whether it was `/>` and `end` is past it).
 */
export class Attributes {
  /** Where scanning goes on: past the last attribute, then past the tag. */
  end = 0;
  nameStart = 0;
  nameLength = 0;
  valueStart = 0;
  valueEnd = 0;
  selfClosing = false;

  start(at: number): void {
    this.end = at;
    this.selfClosing = false;
  }

  next(b: Buffer, limit: number, what: string): boolean {
    let j = this.end;
    while (j < limit && (b[j] as number) <= SPACE) j++;
    const c = b[j] as number;
    if (c === GT) {
      this.end = j + 1;
      return false;
    }
    if (c === SLASH) {
      this.selfClosing = true;
      this.end = j + 2;
      return false;
    }
    if (j >= limit) throw corruptWorkbook(`a ${what} tag is not closed`);
    const nameStart = j;
    while (j < limit && b[j] !== EQUALS && (b[j] as number) > SPACE) j++;
    this.nameStart = nameStart;
    this.nameLength = j - nameStart;
    while (j < limit && b[j] !== QUOTE && b[j] !== APOS) j++;
    const quote = b[j] as number;
    const valueStart = ++j;
    while (j < limit && b[j] !== quote) j++;
    if (j >= limit) throw corruptWorkbook(`a ${what} attribute is not closed`);
    this.valueStart = valueStart;
    this.valueEnd = j;
    this.end = j + 1;
    return true;
  }

  /** Whether the attribute just read has this one-letter name (`r`, `t`). */
  is(b: Buffer, letter: number): boolean {
    return this.nameLength === 1 && b[this.nameStart] === letter;
  }
}

/**
 * The end of the last empty element of that local name (`<row r="9"/>`, `<si/>`), any prefix,
 * before the first one left open, or -1. `b` starts outside such elements and holds no end tag
 * of one; what precedes the result is then whole elements, a place where parsing can stop.
 * Linear: every `<` is looked at once, quoted attribute values are skipped.
 */
export function lastEmptyElement(b: Buffer, local: string): number {
  const wanted = name(local);
  const tag = new Tag();
  let found = -1;
  let i = 0;
  for (;;) {
    i = b.indexOf(LT, i);
    if (i < 0 || i + 1 >= b.length) return found;
    const first = b[i + 1];
    if (first === SLASH || first === BANG || first === QUESTION) {
      i += 2;
      continue;
    }
    tag.name(b, i + 1, b.length);
    const j = tag.end;
    if (!tag.is(b, wanted)) {
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

/** The namespace prefix of the root element (`x:` in `<x:worksheet>`), or ''; undefined until it has arrived. */
export function rootPrefix(b: Buffer): string | undefined {
  let i = 0;
  for (;;) {
    i = b.indexOf(LT, i);
    if (i < 0 || i + 1 >= b.length) return undefined;
    const c = b[i + 1];
    if (c === QUESTION || c === BANG) {
      if (c === BANG && !opensComment(b, i)) {
        if (i + 3 >= b.length) return undefined;
        throw dtdRefused();
      }
      const close = b.indexOf(c === BANG ? '-->' : '?>', i + 2);
      if (close < 0) return undefined;
      i = close + (c === BANG ? 3 : 2);
      continue;
    }
    let j = i + 1;
    while (j < b.length && (b[j] as number) > SPACE && b[j] !== GT && b[j] !== SLASH) j++;
    if (j >= b.length) return undefined;
    const tagName = b.toString('latin1', i + 1, j);
    const colon = tagName.indexOf(':');
    return colon < 0 ? '' : tagName.slice(0, colon + 1);
  }
}

/** The decimal integer of [start, end), whitespace allowed; -1 when there is none or another byte. */
export function intOf(b: Buffer, start: number, end: number): number {
  let n = 0;
  let any = false;
  for (let i = start; i < end; i++) {
    const c = b[i] as number;
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      n = n * 10 + (c - DIGIT_0);
      any = true;
    } else if (c > SPACE) return -1;
  }
  return any ? n : -1;
}
