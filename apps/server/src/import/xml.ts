/** Small XML helpers for the workbook's own parts; the sheet data has its byte-level reader. */

/** Text with XML character and entity references resolved (`&amp;`, `&#233;`, `&#x1F600;`). */
export function decodeEntities(text: string): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  let out = '';
  let last = 0;
  while (amp >= 0) {
    const semi = text.indexOf(';', amp + 1);
    if (semi < 0) break;
    const ch = semi - amp <= 12 ? entity(text, amp + 1, semi) : undefined;
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
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Cell or shared-string text as stored in the file → the text Excel shows. */
export const decodeCellText = (text: string) => decodeXString(decodeEntities(text));

/** Every element of that local name (any namespace prefix) with its attributes, in order. */
export function elements(xml: string, localName: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const tag = new RegExp(`<(?:[\\w.-]+:)?${localName}\\b((?:[^>"']|"[^"]*"|'[^']*')*)>`, 'g');
  for (const match of xml.matchAll(tag)) found.push(attributes(match[1] ?? ''));
  return found;
}

/** The attributes of a start tag, keyed by their full name (prefix included) and their local name. */
export function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const name = match[1] as string;
    const value = decodeEntities(match[2] ?? match[3] ?? '');
    out[name] = value;
    const colon = name.indexOf(':');
    if (colon > 0 && name.slice(0, colon) !== 'xmlns') out[`:${name.slice(colon + 1)}`] ??= value;
  }
  return out;
}
