import { badRequest } from '../../lib/errors.ts';
import { MAX_COLUMNS, nulRefused, Slice, tooManyColumns } from './bounds.ts';
import { CompoundFile, corruptXls } from './cfb.ts';
import { ROW_BATCH, type SheetReading, type SheetRow, type Workbook } from './workbook.ts';

/**
 * The .xls (BIFF8, Excel 97–2003) reader: the workbook stream is read record by record from the
 * compound file, the shared-string table once, then each sheet from its BOF offset. Only the
 * records that carry cell values are decoded; formatting is ignored, so dates stay numbers.
 */

const BOF = 0x0809;
const EOF = 0x000a;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const CONTINUE = 0x003c;
const FILEPASS = 0x002f;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const RSTRING = 0x00d6;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;

export const PASSWORD_PROTECTED = 'The workbook is password-protected. Remove the password and retry.';

/** Largest record data BIFF8 allows (longer data goes on in CONTINUE records). */
const MAX_RECORD = 8224;

/** Smallest data of each cell record this reader decodes: a shorter one would be read past its end. */
const MIN_LENGTH: Record<number, number> = {
  [BOF]: 2,
  [BOUNDSHEET]: 8,
  [LABELSST]: 10,
  [LABEL]: 9,
  [RSTRING]: 9,
  [NUMBER]: 14,
  [RK]: 10,
  [MULRK]: 12,
  [BOOLERR]: 8,
  [FORMULA]: 20,
};

interface BiffRecord {
  type: number;
  data: Buffer;
  /** Position of the record header in the workbook stream. */
  offset: number;
}

/** The records of the workbook stream from `offset`, each with its CONTINUE records' data appended as segments. */
async function* records(cfb: CompoundFile, stream: string, offset: number): AsyncGenerator<BiffRecord> {
  let buf: Buffer = Buffer.alloc(0);
  let base = offset;
  for await (const chunk of cfb.read(stream, offset)) {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    let pos = 0;
    while (pos + 4 <= buf.length) {
      const type = buf.readUInt16LE(pos);
      const size = buf.readUInt16LE(pos + 2);
      if (size > MAX_RECORD) throw corruptXls('a record is longer than the format allows');
      if (pos + 4 + size > buf.length) break;
      const data = buf.subarray(pos + 4, pos + 4 + size);
      if (size < (MIN_LENGTH[type] ?? 0)) throw corruptXls('a record is shorter than its contents');
      yield { type, data, offset: base + pos };
      pos += 4 + size;
    }
    base += pos;
    buf = buf.subarray(pos);
  }
  if (buf.length >= 4) throw corruptXls('a record runs past the end of the workbook');
}

/** Reads across a record and its CONTINUE records; strings that cross one restart with a new flags byte. */
class Segments {
  private k = 0;
  private pos = 0;
  constructor(private readonly parts: Buffer[]) {}

  private current(): Buffer {
    let part = this.parts[this.k];
    while (part && this.pos >= part.length) {
      this.k++;
      this.pos = 0;
      part = this.parts[this.k];
    }
    if (!part) throw corruptXls('a string runs past its record');
    return part;
  }

  get atEnd(): boolean {
    while (this.k < this.parts.length && this.pos >= (this.parts[this.k] as Buffer).length) {
      this.k++;
      this.pos = 0;
    }
    return this.k >= this.parts.length;
  }

  u8(): number {
    const part = this.current();
    return part[this.pos++] as number;
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  skip(n: number) {
    while (n > 0) {
      const part = this.current();
      const step = Math.min(n, part.length - this.pos);
      this.pos += step;
      n -= step;
    }
  }

  /** `count` characters, one or two bytes each; a CONTINUE boundary restates the width in a flags byte. */
  chars(count: number, wide: boolean): string {
    let out = '';
    for (;;) {
      const part = this.parts[this.k];
      if (!part) throw corruptXls('a string runs past its record');
      const width = wide ? 2 : 1;
      const take = Math.min(count, Math.max(0, Math.floor((part.length - this.pos) / width)));
      if (take > 0) {
        out += part.toString(wide ? 'utf16le' : 'latin1', this.pos, this.pos + take * width);
        this.pos += take * width;
        count -= take;
      }
      if (count === 0) return out;
      this.k++;
      const next = this.parts[this.k];
      if (!next) throw corruptXls('a string runs past its record');
      wide = ((next[0] as number) & 1) === 1;
      this.pos = 1;
    }
  }

  /** An XLUnicodeRichExtendedString (SST entries, BIFF8 LABEL): length, flags, text, runs, extras. */
  richString(lengthBytes: 1 | 2 = 2): string {
    const count = lengthBytes === 2 ? this.u16() : this.u8();
    const flags = this.u8();
    const runs = flags & 0x08 ? this.u16() : 0;
    const ext = flags & 0x04 ? this.u32() : 0;
    const text = this.chars(count, (flags & 0x01) === 1);
    this.skip(runs * 4 + ext);
    return text;
  }
}

/** A string read from one record only (sheet names, LABEL without continues). */
function shortString(data: Buffer, at: number, lengthBytes: 1 | 2): string {
  return new Segments([data.subarray(at)]).richString(lengthBytes);
}

export async function openXls(file: string): Promise<Workbook> {
  const cfb = await CompoundFile.open(file);
  try {
    if (cfb.has('EncryptionInfo') || cfb.has('EncryptedPackage')) throw badRequest(PASSWORD_PROTECTED);
    const stream = cfb.has('Workbook') ? 'Workbook' : cfb.has('Book') ? 'Book' : undefined;
    if (!stream) {
      throw badRequest('This Office file is not an Excel workbook (a Word or PowerPoint file?).');
    }
    if (stream === 'Book') {
      throw badRequest(
        'This .xls file is in the Excel 5.0/95 format, which is not supported. Save it as .xlsx and retry.',
      );
    }
    const sheets: { name: string; offset: number }[] = [];
    const sst: string[] = [];
    let sstParts: Buffer[] | null = null;
    const slice = new Slice();
    const finishSst = async () => {
      if (!sstParts) return;
      const seg = new Segments(sstParts);
      sstParts = null;
      seg.skip(4);
      const unique = seg.u32();
      for (let k = 0; k < unique && !seg.atEnd; k++) {
        sst.push(seg.richString());
        if ((k & 1023) === 0) await slice.pause();
      }
    };
    let first = true;
    for await (const record of records(cfb, stream, 0)) {
      if (first) {
        if (record.type !== BOF || record.data.readUInt16LE(0) !== 0x0600) {
          throw badRequest(
            'This .xls file is in an old Excel format (before Excel 97), which is not supported. Save it as .xlsx and retry.',
          );
        }
        first = false;
        continue;
      }
      if (sstParts && record.type === CONTINUE) {
        sstParts.push(Buffer.from(record.data));
        continue;
      }
      await finishSst();
      await slice.pause();
      if (record.type === FILEPASS) throw badRequest(PASSWORD_PROTECTED);
      if (record.type === BOUNDSHEET) {
        const kind = record.data[5];
        if (kind === 0)
          sheets.push({ name: shortString(record.data, 6, 1), offset: record.data.readUInt32LE(0) });
      } else if (record.type === SST) {
        sstParts = [Buffer.from(record.data)];
      } else if (record.type === EOF) {
        break;
      }
    }
    await finishSst();
    if (sheets.length === 0) throw corruptXls('it has no worksheets');
    return new XlsWorkbook(cfb, stream, sheets, sst);
  } catch (error) {
    await cfb.close();
    throw error;
  }
}

class XlsWorkbook implements Workbook {
  readonly type = 'xls' as const;
  readonly sheetNames: string[];

  constructor(
    private readonly cfb: CompoundFile,
    private readonly stream: string,
    private readonly sheets: { name: string; offset: number }[],
    private readonly sst: string[],
  ) {
    this.sheetNames = sheets.map((s) => s.name);
  }

  read(name: string): SheetReading {
    const found = this.sheets.find((s) => s.name === name);
    if (!found) throw new Error(`no sheet ${name}`);
    const sheet = found;
    const { cfb, stream, sst } = this;
    const total = Math.max(1, cfb.size(stream) - sheet.offset);
    let fraction = 0;
    async function* rows(): AsyncGenerator<SheetRow[]> {
      let batch: SheetRow[] = [];
      let current: SheetRow | null = null;
      let pendingFormula: { row: number; col: number } | null = null;
      let pendingString: { row: number; col: number; parts: Buffer[] } | null = null;
      const slice = new Slice();
      const set = (row: number, col: number, value: string) => {
        if (col >= MAX_COLUMNS) throw tooManyColumns();
        if (value === '') return;
        if (value.indexOf('\u0000') >= 0) throw nulRefused();
        if (!current || current.row !== row + 1) {
          if (current) batch.push(current);
          current = { row: row + 1, cells: [] };
        }
        current.cells[col] = value;
      };
      const flushString = () => {
        if (!pendingString) return;
        const seg = new Segments(pendingString.parts);
        set(pendingString.row, pendingString.col, seg.richString(2));
        pendingString = null;
      };
      let first = true;
      for await (const record of records(cfb, stream, sheet.offset)) {
        fraction = Math.min(1, (record.offset - sheet.offset) / total);
        const d = record.data;
        if (first) {
          if (record.type !== BOF) throw corruptXls('a sheet does not start where the workbook says');
          first = false;
          continue;
        }
        if (pendingString && record.type === CONTINUE) {
          pendingString.parts.push(Buffer.from(d));
          continue;
        }
        flushString();
        switch (record.type) {
          case LABELSST: {
            const text = sst[d.readUInt32LE(6)];
            if (text === undefined) throw corruptXls('a cell refers to a missing shared text');
            set(d.readUInt16LE(0), d.readUInt16LE(2), text);
            break;
          }
          case LABEL:
          case RSTRING:
            pendingString = {
              row: d.readUInt16LE(0),
              col: d.readUInt16LE(2),
              parts: [Buffer.from(d.subarray(6))],
            };
            break;
          case NUMBER:
            set(d.readUInt16LE(0), d.readUInt16LE(2), numberText(d.readDoubleLE(6)));
            break;
          case RK:
            set(d.readUInt16LE(0), d.readUInt16LE(2), numberText(rkValue(d.readUInt32LE(6))));
            break;
          case MULRK: {
            const row = d.readUInt16LE(0);
            const firstCol = d.readUInt16LE(2);
            const count = Math.floor((d.length - 6) / 6);
            for (let k = 0; k < count; k++)
              set(row, firstCol + k, numberText(rkValue(d.readUInt32LE(4 + 6 * k + 2))));
            break;
          }
          case BOOLERR:
            set(d.readUInt16LE(0), d.readUInt16LE(2), booleanOrError(d[6] as number, d[7] as number));
            break;
          case FORMULA: {
            const row = d.readUInt16LE(0);
            const col = d.readUInt16LE(2);
            if (d.readUInt16LE(12) === 0xffff) {
              const kind = d[6];
              if (kind === 0) pendingFormula = { row, col };
              else if (kind === 1) set(row, col, d[8] ? 'TRUE' : 'FALSE');
              else if (kind === 2) set(row, col, errorText(d[8] as number));
            } else {
              set(row, col, numberText(d.readDoubleLE(6)));
            }
            break;
          }
          case STRING:
            if (pendingFormula) {
              pendingString = { ...pendingFormula, parts: [Buffer.from(d)] };
              pendingFormula = null;
            }
            break;
          case FILEPASS:
            throw badRequest(PASSWORD_PROTECTED);
          case EOF:
            break;
        }
        if (record.type === EOF) break;
        if (batch.length >= ROW_BATCH) {
          yield batch;
          batch = [];
        }
        await slice.pause();
      }
      flushString();
      if (current) batch.push(current);
      fraction = 1;
      if (batch.length > 0) yield batch;
    }
    return { rows: rows(), progress: () => fraction, only: () => {} };
  }

  async close() {
    await this.cfb.close();
  }
}

/** An RK number: a 30-bit integer or the top 30 bits of a double, optionally divided by 100. */
function rkValue(rk: number): number {
  let value: number;
  if (rk & 0x02) {
    value = rk >> 2;
  } else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(rk & 0xfffffffc, 4);
    value = b.readDoubleLE(0);
  }
  return rk & 0x01 ? value / 100 : value;
}

/** A number as Excel shows it in General format, near enough: no float noise, no exponent for whole numbers. */
export function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(Number(n.toPrecision(15)));
}

const ERRORS: Record<number, string> = {
  0: '#NULL!',
  7: '#DIV/0!',
  15: '#VALUE!',
  23: '#REF!',
  29: '#NAME?',
  36: '#NUM!',
  42: '#N/A',
};
const errorText = (code: number) => ERRORS[code] ?? '#ERROR!';
const booleanOrError = (value: number, isError: number) =>
  isError ? errorText(value) : value ? 'TRUE' : 'FALSE';
