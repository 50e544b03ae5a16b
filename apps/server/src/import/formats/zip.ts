import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { badRequest, HttpError } from '../../lib/errors.ts';

/**
 * How far a workbook may inflate. A real 100 MB workbook holds at most about a gigabyte of XML;
 * a zip bomb declares (or produces) far more, or compresses far better than spreadsheet XML does.
 */
export interface InflateLimits {
  /** Largest uncompressed part. */
  maxEntryBytes: number;
  /** Largest uncompressed total over every part read. */
  maxTotalBytes: number;
  /** Largest uncompressed / compressed ratio of a part bigger than `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const DEFAULT_INFLATE_LIMITS: InflateLimits = {
  maxEntryBytes: 1024 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 16 * 1024 * 1024,
};

/**
 * Parts in a workbook: a real one has tens, one with a thousand sheets a few thousand. yauzl reads
 * the directory an entry at a time (~0.1 ms each), so the count is checked before reading it.
 */
const MAX_ENTRIES = 10_000;
/** Inflate output chunk: big chunks mean few callbacks and few parser calls. */
const INFLATE_CHUNK = 256 * 1024;
/** Inflated bytes buffered ahead of the reader, so inflating (on the thread pool) overlaps parsing. */
const READ_AHEAD = 1024 * 1024;

export const ZIP_BOMB_MESSAGE =
  'The workbook expands to far more data than a spreadsheet of its size can hold (a zip bomb?), so it was not read.';
export const corruptWorkbook = (detail?: string) =>
  badRequest(
    `The file is damaged: it could not be read as an Excel workbook (.xlsx)${detail ? ` (${detail})` : ''}. Open it in Excel, save it again and retry.`,
  );

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

/** A zip archive on disk: its directory, and each part inflated as a stream under the limits. */
export class ZipArchive {
  private inflatedTotal = 0;

  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly limits: InflateLimits,
  ) {}

  static async open(file: string, limits: InflateLimits = DEFAULT_INFLATE_LIMITS): Promise<ZipArchive> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(file, {
        lazyEntries: true,
        autoClose: false,
        validateEntrySizes: false,
        strictFileNames: false,
      });
    } catch (error) {
      throw corruptWorkbook(String((error as Error).message ?? error));
    }
    const entries = new Map<string, yauzl.Entry>();
    try {
      if (zip.entryCount > MAX_ENTRIES) throw corruptWorkbook('too many parts');
      for await (const entry of zip.eachEntry()) {
        if (entries.size >= MAX_ENTRIES) throw corruptWorkbook('too many parts');
        entries.set(normaliseName(entry.fileName), entry);
      }
    } catch (error) {
      zip.close();
      if (error instanceof HttpError) throw error;
      throw corruptWorkbook(String((error as Error).message ?? error));
    }
    return new ZipArchive(zip, entries, limits);
  }

  /** Bytes inflated so far over every part (the total the limits cap). */
  get inflated(): number {
    return this.inflatedTotal;
  }

  /** Counts bytes inflated elsewhere from this archive (a sheet read in a worker) against the limits. */
  addInflated(bytes: number) {
    this.inflatedTotal += bytes;
  }

  /** The part of that name (case-insensitive, as Excel itself reads them), if present. */
  entry(name: string): ZipEntryInfo | undefined {
    const e = this.entries.get(normaliseName(name));
    return e && { name: e.fileName, compressedSize: e.compressedSize, uncompressedSize: e.uncompressedSize };
  }

  has(name: string): boolean {
    return this.entries.has(normaliseName(name));
  }

  /**
   * The inflated bytes of a part, in chunks of up to 256 KB. The declared sizes are checked
   * before reading and the real output is counted while reading, so neither a lying header nor
   * an extreme ratio gets past the limits.
   */
  async *read(name: string, onBytes?: (inflated: number, total: number) => void): AsyncGenerator<Buffer> {
    const entry = this.entries.get(normaliseName(name));
    if (!entry) throw corruptWorkbook(`the part ${name} is missing`);
    if (entry.isEncrypted())
      throw badRequest('The workbook is password-protected. Remove the password and retry.');
    const { maxEntryBytes, maxTotalBytes, maxRatio, ratioFloorBytes } = this.limits;
    const declared = entry.uncompressedSize;
    const ratio = declared / Math.max(1, entry.compressedSize);
    if (
      declared > maxEntryBytes ||
      this.inflatedTotal + declared > maxTotalBytes ||
      (declared > ratioFloorBytes && ratio > maxRatio)
    ) {
      throw badRequest(ZIP_BOMB_MESSAGE);
    }
    let raw: Readable;
    try {
      raw = await this.zip.openReadStreamPromise(entry, { decodeFileData: false });
    } catch (error) {
      throw corruptWorkbook(String((error as Error).message ?? error));
    }
    let source: Readable;
    if (entry.compressionMethod === 8) {
      // zlib hands its options to the Transform underneath, read-ahead included (not in the typings).
      const options = { chunkSize: INFLATE_CHUNK, readableHighWaterMark: READ_AHEAD } as zlib.ZlibOptions;
      source = raw.pipe(zlib.createInflateRaw(options));
      raw.on('error', (error) => source.destroy(error));
    } else if (entry.compressionMethod === 0) {
      source = raw;
    } else {
      raw.destroy();
      throw corruptWorkbook(`unsupported compression method ${entry.compressionMethod}`);
    }
    let produced = 0;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        produced += chunk.length;
        if (produced > declared) throw badRequest(ZIP_BOMB_MESSAGE);
        this.inflatedTotal += chunk.length;
        onBytes?.(produced, declared);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw corruptWorkbook(String((error as Error).message ?? error));
    } finally {
      source.destroy();
      raw.destroy();
    }
    if (produced !== declared) throw corruptWorkbook(`the part ${name} is truncated`);
  }

  close() {
    this.zip.close();
  }
}

/** Zip names as Excel resolves them: forward slashes, no leading slash, any case. */
export function normaliseName(name: string): string {
  return name.replaceAll('\\', '/').replace(/^\/+/, '').toLowerCase();
}
