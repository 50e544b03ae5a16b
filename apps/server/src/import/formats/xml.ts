import { SaxesParser } from 'saxes';
import { HttpError } from '../../lib/errors.ts';
import { dtdRefused, MAX_DEPTH, Slice, tooDeep } from './bounds.ts';
import { corruptWorkbook } from './zip.ts';

/** XML helpers: text decoding for the sheet reader, and the workbook's own small parts. */

/**
 * Text with XML character and entity references resolved (`&amp;`, `&#233;`, `&#x1F600;`).
 * Linear: each `&` looks at most 12 characters ahead for its `;` (no reference is longer), so
 * a flood of `&` costs no more than other text.
 */
export function decodeEntities(text: string): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  let out = '';
  let last = 0;
  const n = text.length;
  while (amp >= 0) {
    let semi = -1;
    const stop = Math.min(n, amp + 13);
    for (let k = amp + 1; k < stop; k++) {
      const c = text.charCodeAt(k);
      if (c === 59) {
        semi = k;
        break;
      }
      if (c === 38) break; // another `&` first: this one starts no reference
    }
    const ch = semi > 0 ? entity(text, amp + 1, semi) : undefined;
    if (ch !== undefined) {
      out += text.slice(last, amp) + ch;
      last = semi + 1;
      amp = text.indexOf('&', last);
    } else {
      amp = text.indexOf('&', amp + 1);
    }
  }
  return out + text.slice(last);
}

/** The character of the reference between `&` and `;` (exclusive), or undefined when it is not one. */
function entity(text: string, start: number, end: number): string | undefined {
  const c = text.charCodeAt(start);
  if (c === 35) {
    // &#…;
    const hex = text.charCodeAt(start + 1) === 120;
    const digits = text.slice(start + (hex ? 2 : 1), end);
    if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
    const code = Number.parseInt(digits, hex ? 16 : 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  switch (text.slice(start, end)) {
    case 'amp':
      return '&';
    case 'lt':
      return '<';
    case 'gt':
      return '>';
    case 'quot':
      return '"';
    case 'apos':
      return "'";
    default:
      return undefined;
  }
}

/**
 * OOXML's escape for characters XML cannot carry (ST_Xstring): `_x000D_` is a carriage return,
 * and `_x005F_` escapes an underscore that would otherwise start such a sequence.
 */
export function decodeXString(text: string): string {
  if (!text.includes('_x')) return text;
  // `_x0000_` (NUL) is dropped: no cell can show it and PostgreSQL cannot store it.
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return code === 0 ? '' : String.fromCharCode(code);
  });
}

/** Cell or shared-string text as stored in the file → the text Excel shows. */
export const decodeCellText = (text: string) => decodeXString(decodeEntities(text));

/** The attributes of an element, keyed by their full name (prefix included) and their local name. */
export type Attributes = Record<string, string>;

/** Largest workbook part (workbook, relationships) read as XML. */
const MAX_PART_BYTES = 16 * 1024 * 1024;

/**
 * The elements of those local names (any namespace prefix) with their attributes, in document
 * order, from a small workbook part (the workbook, its relationships). Read with saxes, a
 * strict, linear XML parser that expands no entity of a DTD; a DTD is refused outright, as is
 * nesting deeper than `MAX_DEPTH`. The loop is handed back between chunks.
 */
export async function partElements(
  chunks: AsyncIterable<Buffer>,
  localNames: string[],
): Promise<Map<string, Attributes[]>> {
  const found = new Map<string, Attributes[]>(localNames.map((n) => [n, []]));
  const parser = new SaxesParser({ xmlns: false, position: false });
  let failure: Error | undefined;
  let depth = 0;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('doctype', () => {
    failure ??= dtdRefused();
  });
  parser.on('opentag', (tag) => {
    if (++depth > MAX_DEPTH) failure ??= tooDeep();
    const colon = tag.name.indexOf(':');
    const list = found.get(colon < 0 ? tag.name : tag.name.slice(colon + 1));
    if (!list) return;
    const out: Attributes = {};
    for (const [name, value] of Object.entries(tag.attributes as Record<string, string>)) {
      out[name] = value;
      const at = name.indexOf(':');
      if (at > 0 && name.slice(0, at) !== 'xmlns') out[`:${name.slice(at + 1)}`] ??= value;
    }
    list.push(out);
  });
  parser.on('closetag', () => {
    depth--;
  });
  const decoder = new TextDecoder('utf-8');
  const slice = new Slice();
  let size = 0;
  let first = true;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > MAX_PART_BYTES) throw corruptWorkbook('a workbook part is far larger than Excel writes');
    let text = decoder.decode(chunk, { stream: true });
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    // In steps of 64 K characters, so that no step holds the loop for long.
    for (let k = 0; k < text.length && !failure; k += 65_536) {
      parser.write(text.slice(k, k + 65_536));
      await slice.pause();
    }
    if (failure) break;
  }
  if (!failure) parser.write(decoder.decode()).close();
  if (failure instanceof HttpError) throw failure;
  if (failure) throw corruptWorkbook(`a workbook part is not well-formed XML: ${failure.message}`);
  return found;
}
