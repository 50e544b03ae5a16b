import fs from 'node:fs/promises';
import { badRequest } from '../../lib/errors.ts';

/**
 * A reader for the OLE2 compound file container (MS-CFB) that holds .xls workbooks and
 * encrypted Office files. It keeps only the allocation tables and directory in memory and reads
 * a stream's sectors from disk as they are needed, so a 100 MB workbook is never loaded whole.
 */

export const OLE2_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;
const MAX_REGULAR = 0xfffffffa;
/** Contiguous sectors are read together, up to this many bytes. */
const READ_RUN = 1024 * 1024;
/** Streams below this size live in the mini stream; MS-CFB fixes it at 4096. */
const MINI_CUTOFF = 4096;
const MINI_SECTOR = 64;

export const corruptXls = (detail?: string) =>
  badRequest(
    `The file is damaged: it could not be read as an Excel 97-2003 workbook (.xls)${detail ? ` (${detail})` : ''}. Open it in Excel, save it again and retry.`,
  );

interface DirEntry {
  name: string;
  type: number;
  start: number;
  size: number;
}

export class CompoundFile {
  private constructor(
    private readonly handle: fs.FileHandle,
    private readonly fileSize: number,
    private readonly sectorSize: number,
    private readonly fat: Uint32Array,
    private readonly miniFat: Uint32Array,
    private readonly entries: DirEntry[],
  ) {}

  static async open(file: string): Promise<CompoundFile> {
    const handle = await fs.open(file, 'r');
    try {
      const fileSize = (await handle.stat()).size;
      const header = Buffer.alloc(512);
      await handle.read(header, 0, 512, 0);
      if (!header.subarray(0, 8).equals(OLE2_SIGNATURE)) throw corruptXls('not an OLE2 file');
      // The header as MS-CFB fixes it: version 3 has 512-byte sectors, version 4 4096-byte
      // ones; mini sectors are 64 bytes and the mini-stream cutoff 4096. Anything else is forged,
      // and a forged cutoff would read a stream of any declared size into memory.
      const version = header.readUInt16LE(0x1a);
      const shift = header.readUInt16LE(0x1e);
      if (!((version === 3 && shift === 9) || (version === 4 && shift === 12))) {
        throw corruptXls('bad sector size');
      }
      if (header.readUInt16LE(0x20) !== 6) throw corruptXls('bad mini sector size');
      const sectorSize = 1 << shift;
      const fatSectors = header.readUInt32LE(0x2c);
      const firstDir = header.readUInt32LE(0x30);
      const miniCutoff = header.readUInt32LE(0x38);
      if (miniCutoff !== MINI_CUTOFF) throw corruptXls('bad mini-stream cutoff');
      const firstMiniFat = header.readUInt32LE(0x3c);
      let difatSector = header.readUInt32LE(0x44);
      const difatCount = header.readUInt32LE(0x48);
      const totalSectors = Math.ceil(fileSize / sectorSize);
      // Every table sector is a sector of the file: none can list more than the file holds.
      if (fatSectors > totalSectors || difatCount > totalSectors) {
        throw corruptXls('bad allocation table size');
      }

      const read = async (sector: number, into: Buffer = Buffer.alloc(sectorSize)) => {
        if (sector > MAX_REGULAR || (sector + 1) * sectorSize >= fileSize + sectorSize) {
          throw corruptXls('a sector lies outside the file');
        }
        await handle.read(into, 0, sectorSize, (sector + 1) * sectorSize);
        return into;
      };

      // The FAT sectors: 109 listed in the header, the rest in a chain of DIFAT sectors.
      const fatList: number[] = [];
      for (let k = 0; k < 109 && fatList.length < fatSectors; k++)
        fatList.push(header.readUInt32LE(0x4c + 4 * k));
      for (let k = 0; k < difatCount && fatList.length < fatSectors; k++) {
        if (difatSector >= END_OF_CHAIN) break;
        const s = await read(difatSector);
        const perSector = sectorSize / 4 - 1;
        for (let m = 0; m < perSector && fatList.length < fatSectors; m++)
          fatList.push(s.readUInt32LE(4 * m));
        difatSector = s.readUInt32LE(sectorSize - 4);
      }
      const fat = new Uint32Array((fatList.length * sectorSize) / 4);
      for (let k = 0; k < fatList.length; k++) {
        const s = await read(fatList[k] as number);
        for (let m = 0; m < sectorSize / 4; m++) fat[k * (sectorSize / 4) + m] = s.readUInt32LE(4 * m);
      }

      const chain = (start: number) => followChain(fat, start, totalSectors);
      const readChain = async (start: number, limit = Number.POSITIVE_INFINITY) => {
        const sectors = chain(start);
        const out = Buffer.alloc(Math.min(limit, sectors.length * sectorSize));
        for (let k = 0; k < sectors.length && k * sectorSize < out.length; k++) {
          const s = await read(sectors[k] as number);
          s.copy(out, k * sectorSize, 0, Math.min(sectorSize, out.length - k * sectorSize));
        }
        return out;
      };

      const dirBytes = await readChain(firstDir, 16 * 1024 * 1024);
      const entries: DirEntry[] = [];
      for (let off = 0; off + 128 <= dirBytes.length; off += 128) {
        const nameLength = dirBytes.readUInt16LE(off + 64);
        const type = dirBytes[off + 66] as number;
        if (type === 0) continue;
        const name = dirBytes.toString('utf16le', off, off + Math.max(0, Math.min(64, nameLength) - 2));
        const size =
          dirBytes.readUInt32LE(off + 120) +
          (sectorSize === 4096 ? dirBytes.readUInt32LE(off + 124) * 2 ** 32 : 0);
        // A stream cannot hold more than the file: a bigger size is forged (and would be allocated).
        if (type === 2 && size > fileSize) throw corruptXls('a stream is larger than the file');
        entries.push({ name, type, start: dirBytes.readUInt32LE(off + 116), size });
      }
      const miniFatBytes =
        firstMiniFat < END_OF_CHAIN ? await readChain(firstMiniFat, 64 * 1024 * 1024) : Buffer.alloc(0);
      const miniFat = new Uint32Array(miniFatBytes.length / 4);
      for (let k = 0; k < miniFat.length; k++) miniFat[k] = miniFatBytes.readUInt32LE(4 * k);
      return new CompoundFile(handle, fileSize, sectorSize, fat, miniFat, entries);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Stream names (type 2), as stored. */
  get streamNames(): string[] {
    return this.entries.filter((e) => e.type === 2).map((e) => e.name);
  }

  private find(name: string): DirEntry | undefined {
    const lower = name.toLowerCase();
    return this.entries.find((e) => e.type === 2 && e.name.toLowerCase() === lower);
  }

  has(name: string): boolean {
    return this.find(name) !== undefined;
  }

  size(name: string): number {
    return this.find(name)?.size ?? 0;
  }

  /** The bytes of a stream from `offset` on, in chunks of up to 1 MB. */
  async *read(name: string, offset = 0): AsyncGenerator<Buffer> {
    const entry = this.find(name);
    if (!entry) throw corruptXls(`the stream ${name} is missing`);
    if (entry.size < MINI_CUTOFF) {
      yield (await this.readMini(entry)).subarray(offset);
      return;
    }
    const sectorSize = this.sectorSize;
    const sectors = followChain(this.fat, entry.start, Math.ceil(this.fileSize / sectorSize));
    if (sectors.length * sectorSize < entry.size) throw corruptXls('a stream is shorter than declared');
    let k = Math.floor(offset / sectorSize);
    let skip = offset - k * sectorSize;
    let remaining = entry.size - k * sectorSize;
    while (k < sectors.length && remaining > 0) {
      // A run of consecutive sectors is one read.
      let run = 1;
      while (
        k + run < sectors.length &&
        (run + 1) * sectorSize <= READ_RUN &&
        sectors[k + run] === (sectors[k] as number) + run
      ) {
        run++;
      }
      const length = Math.min(run * sectorSize, remaining);
      const buf = Buffer.allocUnsafe(length);
      const { bytesRead } = await this.handle.read(buf, 0, length, ((sectors[k] as number) + 1) * sectorSize);
      if (bytesRead < length) throw corruptXls('the file is truncated');
      yield skip > 0 ? buf.subarray(skip) : buf;
      skip = 0;
      remaining -= length;
      k += run;
    }
  }

  /** A small stream, stored in 64-byte sectors inside the root entry's mini stream. */
  private async readMini(entry: DirEntry): Promise<Buffer> {
    const root = this.entries.find((e) => e.type === 5);
    if (!root) throw corruptXls('no root entry');
    const miniSize = MINI_SECTOR;
    const miniSectors = followChain(this.miniFat, entry.start, this.miniFat.length);
    if (miniSectors.length * miniSize < entry.size) throw corruptXls('a stream is shorter than declared');
    const rootSectors = followChain(this.fat, root.start, Math.ceil(this.fileSize / this.sectorSize));
    // entry.size < 4096 (the fixed cutoff), so this allocation is at most 4 KB.
    const out = Buffer.alloc(entry.size);
    for (let k = 0; k < miniSectors.length && k * miniSize < entry.size; k++) {
      const at = (miniSectors[k] as number) * miniSize;
      const sector = rootSectors[Math.floor(at / this.sectorSize)];
      if (sector === undefined) throw corruptXls('a mini sector lies outside the mini stream');
      const position = (sector + 1) * this.sectorSize + (at % this.sectorSize);
      await this.handle.read(out, k * miniSize, Math.min(miniSize, entry.size - k * miniSize), position);
    }
    return out;
  }

  async close() {
    await this.handle.close();
  }
}

/** The sectors of a chain, refusing loops and references outside the table. */
function followChain(table: Uint32Array, start: number, max: number): number[] {
  const out: number[] = [];
  let sector = start;
  while (sector !== END_OF_CHAIN && sector !== FREE) {
    if (sector > MAX_REGULAR || sector >= table.length || out.length > max) {
      throw corruptXls('a sector chain is broken');
    }
    out.push(sector);
    sector = table[sector] as number;
  }
  return out;
}
