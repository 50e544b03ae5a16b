/**
 * Texts by row number, kept as UTF-8 bytes in one growing buffer instead of strings in a Map:
 * the cells of a sheet's first rows that the problems collector keeps for database duplicates
 * (problems.ts). A re-upload of 1,000,000 fault codes keeps 100,000 of them; as strings in a Map
 * they were ~10 MB of live heap through the whole read (a heap snapshot at row 600,000), which
 * V8's heap, growing by half its live size (`--heap-growing-percent=50`), carried half again.
 * Rows come in ascending order (the readers' order); one that does not is not kept, so its
 * problem reads its cells again from the file, as any row beyond the kept ones does.
 */
export class RowTexts {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  private rows: Int32Array = new Int32Array(1 << 10);
  /** Where each text ends in `bytes` (it starts where the one before ends). */
  private ends: Int32Array = new Int32Array(1 << 10);
  size = 0;

  /** Keeps `text` for `row`; false (not kept) when `row` is not after the last one kept. */
  set(row: number, text: string): boolean {
    if (this.size > 0 && row <= (this.rows[this.size - 1] as number)) return false;
    if (this.size === this.rows.length) {
      this.rows = grown(this.rows);
      this.ends = grown(this.ends);
    }
    const most = this.used + text.length * 3;
    if (most > this.bytes.length) {
      const bytes = Buffer.allocUnsafe(Math.max(most, Math.ceil(this.bytes.length * 1.5)));
      this.bytes.copy(bytes, 0, 0, this.used);
      this.bytes = bytes;
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
    this.rows[this.size] = row;
    this.ends[this.size] = this.used;
    this.size++;
    return true;
  }

  get(row: number): string | undefined {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.rows[mid] as number;
      if (at < row) low = mid + 1;
      else if (at > row) high = mid - 1;
      else return this.bytes.toString('utf8', mid === 0 ? 0 : (this.ends[mid - 1] as number), this.ends[mid]);
    }
    return undefined;
  }
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
