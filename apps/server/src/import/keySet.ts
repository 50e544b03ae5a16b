/**
 * The natural keys seen so far in a file, each with the row it was first seen on. A Map of a
 * million short strings costs around 100 MB of heap; this open-addressing table keeps the key
 * bytes in one typed array and the rest in parallel typed arrays, about a quarter of that, and
 * compares keys exactly (no false duplicates from hash collisions).
 */
export class KeySet {
  /** Key bytes: a character below 128 is one byte, any other three (a private, reversible form). */
  private bytes = new Uint8Array(1 << 16);
  private bytesUsed = 0;
  private scratch = new Uint8Array(256);
  /**
   * Where each entry's key starts in `bytes`; it ends where the next one starts (entries are
   * appended in order), so no array of lengths: 4 MB less at a million keys.
   */
  private starts = new Uint32Array(1 << 12);
  private hashes = new Int32Array(1 << 12);
  private rows = new Int32Array(1 << 12);
  /** Slots hold entry index + 1; 0 is empty. */
  private slots = new Int32Array(1 << 13);
  size = 0;

  /** Adds `key` first seen on `row`; returns -1 when it is new, else the row it was first seen on. */
  add(key: string, row: number): number {
    const n = this.encode(key);
    const hash = fnv(this.scratch, n);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] as number;
      if (entry === 0) {
        this.insert(slot, n, hash, row);
        return -1;
      }
      const e = entry - 1;
      if (this.hashes[e] === hash && this.lengthOf(e) === n && this.equals(e, n))
        return this.rows[e] as number;
    }
  }

  /** Writes the key's bytes into `scratch`; returns their count. */
  private encode(key: string): number {
    if (this.scratch.length < key.length * 3) this.scratch = new Uint8Array(key.length * 3);
    const out = this.scratch;
    let n = 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c < 128) {
        out[n++] = c;
      } else {
        out[n++] = 0x80 | (c >> 14);
        out[n++] = (c >> 7) & 0x7f;
        out[n++] = c & 0x7f;
      }
    }
    return n;
  }

  private lengthOf(e: number): number {
    const end = e + 1 < this.size ? (this.starts[e + 1] as number) : this.bytesUsed;
    return end - (this.starts[e] as number);
  }

  private equals(e: number, n: number): boolean {
    const start = this.starts[e] as number;
    const bytes = this.bytes;
    const scratch = this.scratch;
    for (let i = 0; i < n; i++) if (bytes[start + i] !== scratch[i]) return false;
    return true;
  }

  private insert(slot: number, n: number, hash: number, row: number) {
    const e = this.size;
    if (e === this.starts.length) this.growEntries();
    if (this.bytesUsed + n > this.bytes.length) {
      // Half again, not double: while growing, the old and new arrays both live, and long keys
      // (a text's 64-character hash) make this the biggest array of an import.
      let size = Math.ceil(this.bytes.length * 1.5);
      while (size < this.bytesUsed + n) size = Math.ceil(size * 1.5);
      const grown = new Uint8Array(size);
      grown.set(this.bytes.subarray(0, this.bytesUsed));
      this.bytes = grown;
    }
    const start = this.bytesUsed;
    this.bytes.set(this.scratch.subarray(0, n), start);
    this.bytesUsed += n;
    this.starts[e] = start;
    this.hashes[e] = hash;
    this.rows[e] = row;
    this.slots[slot] = e + 1;
    this.size++;
    if (this.size * 2 > this.slots.length) this.rehash();
  }

  private growEntries() {
    const size = this.starts.length * 2;
    const grow = <T extends Uint32Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.starts = grow(this.starts, (n) => new Uint32Array(n));
    this.hashes = grow(this.hashes, (n) => new Int32Array(n));
    this.rows = grow(this.rows, (n) => new Int32Array(n));
  }

  private rehash() {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.size; e++) {
      let slot = (this.hashes[e] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = e + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a over the key bytes, mixed so that the low bits (the slot) spread well. */
function fnv(bytes: Uint8Array, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) {
    h ^= bytes[i] as number;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}
