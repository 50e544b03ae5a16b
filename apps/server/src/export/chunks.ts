/** Bytes per chunk handed to the HTTP response (CSV) or the zip's deflate stream (XLSX). */
const CHUNK_BYTES = 64 * 1024;

/**
 * Gathers the text of many rows into UTF-8 byte chunks, encoding each row as soon as it is made
 * (concatenating a batch into one string first cost over a second of flattening per million
 * rows). The writers format a whole batch, then hand out the chunks it filled: the batch's rows
 * are garbage before the generator waits on the download, so they die young. Rows kept across
 * that wait lived long enough for V8 to move them to the old generation, which then grew by
 * tens of MB between full collections.
 */
export class ByteChunks {
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  /** Chunks filled up and not yet handed out. */
  private readonly full: Buffer[] = [];

  add(text: string) {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const room = text.length * 3;
    if (this.used + room > this.buffer.length) {
      this.close();
      if (room > this.buffer.length) this.buffer = Buffer.allocUnsafe(room);
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /** The chunks filled so far; with `all`, the partly filled one too (at the end). */
  *take(all = false): Generator<Buffer> {
    if (all) this.close();
    while (this.full.length > 0) yield this.full.shift() as Buffer;
  }

  private close() {
    if (this.used === 0) return;
    this.full.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
  }
}
