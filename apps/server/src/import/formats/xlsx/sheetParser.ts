import { MAX_COLUMNS, MAX_DEPTH, MAX_ROWS, tooDeep, tooManyColumns, tooManyRows } from '../bounds.ts';
import type { SheetRow } from '../workbook.ts';
import { corruptWorkbook } from '../zip.ts';
import {
  Attributes,
  ch,
  DIGIT_1,
  GT,
  intOf,
  LT,
  name,
  rootPrefix,
  SLASH,
  Tag,
  TextScan,
  tagEnd,
} from './bytes.ts';
import type { SharedStrings } from './sharedStrings.ts';

/** Cell types (the `t` attribute), as small integers for the hot loop. */
const NUMBER = 0;
const SHARED = 1;
const INLINE = 2;
const TEXT = 3;
const BOOL = 4;

/** The elements of a sheet the scanner acts on (local names: any namespace prefix). */
const CELL = name('c');
const ROW = name('row');
const VALUE = name('v');
const INLINE_STRING = name('is');
const TEXT_RUN = name('t');
const PHONETIC = name('rPh');
const SHEET_DATA = name('sheetData');
/** The attributes read: a cell's or row's reference (`r`) and a cell's type (`t`). */
const ATTR_REF = ch('r');
const ATTR_TYPE = ch('t');

/** The usual unprefixed cell bodies, read in one step: `<v>…</v></c>` and `<is><t>…</t></is></c>`. */
const OPEN_VALUE = Buffer.from('<v>');
const CLOSE_VALUE_CELL = Buffer.from('</v></c>');
const OPEN_INLINE = Buffer.from('<is><t>');
const CLOSE_INLINE_CELL = Buffer.from('</t></is></c>');
const ONE_CHAR = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/** Whether `b` holds `bytes` at `at`, all of it before `end`. */
function holds(b: Buffer, at: number, end: number, bytes: Buffer): boolean {
  if (at + bytes.length > end) return false;
  for (let k = 0; k < bytes.length; k++) if (b[at + k] !== bytes[k]) return false;
  return true;
}

const VALUE_LETTER = ch('v');
const CELL_LETTER = ch('c');

/**
 * Whether `</v></c>` (CLOSE_VALUE_CELL) is at `at`: the end of nearly every cell, so written out
 * byte by byte — `holds` with a loop over the pattern cost ~15 % of reading a sheet (profiled).
 */
function closesValueCell(b: Buffer, at: number, end: number): boolean {
  return (
    at + 8 <= end &&
    b[at + 1] === SLASH &&
    b[at + 2] === VALUE_LETTER &&
    b[at + 3] === GT &&
    b[at + 4] === LT &&
    b[at + 5] === SLASH &&
    b[at + 6] === CELL_LETTER &&
    b[at + 7] === GT
  );
}

/** Letters of a cell reference → zero-based column, or -1 when there are none; past XFD refused. */
function columnOf(b: Buffer, start: number, end: number): number {
  let col = 0;
  let i = start;
  for (; i < end; i++) {
    const c = b[i] as number;
    if (c >= UPPER_A && c <= UPPER_Z) col = col * 26 + (c - UPPER_A + 1);
    else if (c >= LOWER_A && c <= LOWER_Z) col = col * 26 + (c - LOWER_A + 1);
    else break;
    if (col > MAX_COLUMNS) throw tooManyColumns();
  }
  return i === start ? -1 : col - 1;
}
const UPPER_A = ch('A');
const UPPER_Z = ch('Z');
const LOWER_A = ch('a');
const LOWER_Z = ch('z');

/** The `t` attribute's value: `s`, `b`, `n`, `inlineStr`; `e`, `d` and `str` are text. */
function cellType(b: Buffer, start: number, end: number): number {
  const c = b[start];
  if (end - start === 1) {
    if (c === ch('s')) return SHARED;
    if (c === ch('b')) return BOOL;
    if (c === ch('n')) return NUMBER;
    return TEXT;
  }
  return c === ch('i') ? INLINE : TEXT;
}

/**
 * The sheet scanner: a small state machine over the bytes of `<sheetData>` that knows only rows,
 * cells, values and strings, and keeps its place between runs of whole rows.
 */
export class SheetParser {
  /** `</row>` with the sheet's namespace prefix, once known. */
  closeRow: Buffer | null = null;
  /** `</sheetData>` likewise. */
  closeSheetData: Buffer | null = null;
  /** Whether the sheet's elements carry no namespace prefix (the fast path needs that). */
  private plainNames = false;
  done = false;
  private lastRow = 0;
  private wanted: Uint8Array | null = null;
  private readonly text = new TextScan();
  private readonly tag = new Tag();
  private readonly attributes = new Attributes();

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

  /** The text of a cell's value between `start` and `stop` (scanned by `this.text`), by its type. */
  private valueOf(b: Buffer, type: number, start: number, stop: number): string {
    if (type === SHARED) {
      const text = this.sst.get(intOf(b, start, stop));
      if (text === undefined) throw corruptWorkbook('a cell refers to a missing shared text');
      return text;
    }
    if (type === BOOL) return b[start] === DIGIT_1 ? 'TRUE' : 'FALSE';
    return this.text.decode(b, start, stop);
  }

  /** Parses [start, end), which begins outside any row, and pushes every row that has a value. */
  parse(b: Buffer, start: number, end: number, out: SheetRow[]) {
    const { wanted, text, tag, attributes } = this;
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
      if (!tag.read(b, i, end)) {
        i = tag.end;
        continue;
      }
      const closing = tag.closing;
      let j = tag.end;

      if (closing) {
        while (j < end && b[j] !== GT) j++;
        i = j + 1;
        if (depth > 0) depth--;
        if (tag.is(b, CELL)) {
          if (inCell && cells && value !== undefined && value !== '') {
            cells[col] = value;
            rowHasValue = true;
          }
          inCell = false;
          inInline = false;
        } else if (tag.is(b, ROW)) {
          if (cells && rowHasValue) out.push({ row: rowNumber, cells });
          cells = null;
        } else if (tag.is(b, INLINE_STRING)) {
          inInline = false;
        } else if (tag.is(b, PHONETIC)) {
          phonetic--;
        } else if (tag.is(b, SHEET_DATA)) {
          this.done = true;
          return;
        }
        continue;
      }

      if (cells && tag.is(b, CELL)) {
        col = -1;
        type = NUMBER;
        attributes.start(j);
        while (attributes.next(b, end, 'cell')) {
          if (attributes.nameLength !== 1) continue;
          const letter = b[attributes.nameStart];
          if (letter === ATTR_REF) col = columnOf(b, attributes.valueStart, attributes.valueEnd);
          else if (letter === ATTR_TYPE) type = cellType(b, attributes.valueStart, attributes.valueEnd);
        }
        j = attributes.end;
        if (col < 0) {
          col = lastCol + 1;
          if (col >= MAX_COLUMNS) throw tooManyColumns();
        }
        lastCol = col;
        depth = 0;
        i = j;
        if (attributes.selfClosing) continue;
        skip = wanted !== null && wanted[col] !== 1;
        // The usual bodies without prefixes are read here at once instead of tag by tag.
        if (plain && b[j] === LT) {
          // One look at the byte after `<` tells which body it may be: this runs once per cell.
          const valueBody = b[j + 1] === VALUE_LETTER && b[j + 2] === GT;
          const inlineBody = !valueBody && holds(b, j, end, OPEN_INLINE);
          if (valueBody || inlineBody) {
            const start = j + (valueBody ? OPEN_VALUE.length : OPEN_INLINE.length);
            const stop = text.end(b, start, end);
            const close = valueBody ? CLOSE_VALUE_CELL : CLOSE_INLINE_CELL;
            if (valueBody ? closesValueCell(b, stop, end) : holds(b, stop, end, close)) {
              i = stop + close.length;
              if (skip || stop === start) continue;
              const single =
                stop - start === 1 && !text.escaped && !text.high && type !== SHARED && type !== BOOL;
              const cell = single ? ONE_CHAR[b[start] as number] : this.valueOf(b, type, start, stop);
              if (cell) {
                cells[col] = cell;
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

      if (inCell && tag.is(b, VALUE)) {
        const after = tagEnd(b, j, end);
        if (b[after - 2] === SLASH) {
          i = after;
          continue;
        }
        const stop = text.end(b, after, end);
        i = stop;
        depth++;
        if (!skip) value = this.valueOf(b, type, after, stop);
        continue;
      }

      if (tag.is(b, ROW)) {
        let r = -1;
        attributes.start(j);
        while (attributes.next(b, end, 'row')) {
          if (attributes.is(b, ATTR_REF)) r = intOf(b, attributes.valueStart, attributes.valueEnd);
        }
        rowNumber = r > 0 ? r : this.lastRow + 1;
        if (rowNumber > MAX_ROWS) throw tooManyRows();
        this.lastRow = rowNumber;
        lastCol = -1;
        i = attributes.end;
        cells = attributes.selfClosing ? null : [];
        rowHasValue = false;
        continue;
      }

      const after = tagEnd(b, j, end);
      const selfClosing = b[after - 2] === SLASH;
      i = after;
      if (inCell && !selfClosing && ++depth > MAX_DEPTH) throw tooDeep();
      if (inCell && tag.is(b, INLINE_STRING)) {
        if (!selfClosing) inInline = true;
        value = '';
      } else if (inInline && phonetic === 0 && !selfClosing && tag.is(b, TEXT_RUN)) {
        const stop = text.end(b, after, end);
        if (!skip) value += text.decode(b, after, stop);
        i = stop;
      } else if (!selfClosing && tag.is(b, PHONETIC)) {
        phonetic++;
      }
    }
  }
}
