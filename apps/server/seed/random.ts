/**
 * A small seeded PRNG so the demo dataset is identical on every run and on both dialects.
 * Each part of the seed draws from its own stream (`rng('scans')`, `rng('make:Honda')`), so a
 * change in one volume (say, more scans) does not shift the users, catalogues or fault codes.
 */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** mulberry32: 32-bit state, fast, good enough for demo data (not for secrets). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; `weights` has one entry per item. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return items[i] as T;
    }
    return items[items.length - 1] as T;
  }

  /** `count` distinct items in a random order (all of them when count ≥ length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }

  /** `length` lower-case hex digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += ((this.next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
    return out.slice(0, length);
  }

  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  digits(length: number): string {
    return this.chars('0123456789', length);
  }
}

/**
 * Items with weights, prepared once for many picks: cumulative weights and a binary search, so
 * a million picks from a hundred makes stay cheap (Rng.weighted re-sums the weights every time).
 */
export class WeightedList<T> {
  readonly #items: readonly T[];
  readonly #cumulative: number[] = [];
  readonly #total: number;

  constructor(items: readonly T[], weights: readonly number[]) {
    if (items.length === 0 || items.length !== weights.length)
      throw new Error('WeightedList: bad items or weights');
    this.#items = items;
    let total = 0;
    for (const w of weights) {
      total += w;
      this.#cumulative.push(total);
    }
    this.#total = total;
  }

  pick(r: Rng): T {
    const x = r.next() * this.#total;
    let lo = 0;
    let hi = this.#cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (x < (this.#cumulative[mid] as number)) hi = mid;
      else lo = mid + 1;
    }
    return this.#items[lo] as T;
  }
}

/** FNV-1a: turns a stream name into a 32-bit seed. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The PRNG stream with this name: the same name always yields the same sequence. */
export function rng(stream: string): Rng {
  return new Rng(hashSeed(`obd-admin-demo:${stream}`));
}

/** Generated times are relative to this fixed instant, never to the clock. */
export const BASE_DATE_MS = Date.UTC(2026, 0, 1);

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const dayPrefixes = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * ISO-8601 UTC text, the form every time column uses: exactly `new Date(ms).toISOString()`
 * (for years 1970–9999), but built from a per-day prefix, which halves the cost of the two
 * timestamps of each of a million generated scans.
 */
export function iso(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = Math.floor(rest / 1000);
  const milli = rest - sec * 1000;
  return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(sec)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
