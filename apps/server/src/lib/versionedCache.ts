/**
 * A bounded least-recently-used map whose entries hold only while the database's data version
 * (`Db.dataVersion()`) is the one they were computed under: a write anywhere, by any process,
 * retires every entry at once, so a hit is always what a fresh read would have answered.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, { version: string; value: V; size: number }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number = () => 1,
  ) {}

  get(key: string, version: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used last
    return entry.value;
  }

  set(key: string, version: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxBytes / 4) return; // one answer never crowds out the rest
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    this.entries.set(key, { version, value, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
  }
}
