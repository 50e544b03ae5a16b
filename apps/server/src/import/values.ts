import { hash } from 'node:crypto';

/** Cell values → stored values. Each parser returns the value, or a `Reason` saying why not. */

export class Reason {
  constructor(readonly text: string) {}
}

const quoted = (v: string) => `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;

/** Generic flag in uploads (decisions §8): 1/true/yes/y/t → 1; 0/false/no/n/f or empty → 0. */
export function genericFlag(raw: string, label = 'Generic'): number | Reason {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no' || v === 'n' || v === 'f') return 0;
  if (v === '1' || v === 'true' || v === 'yes' || v === 'y' || v === 't') return 1;
  return new Reason(`${label} must be yes or no (1/0, true/false), not ${quoted(raw.trim())}`);
}

/** full_scan of the update-commands sheet (decisions §8): TRUE/1/YES/T true, FALSE/0/NO/F (or empty) false. */
export function fullScanFlag(raw: string): number | Reason {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no' || v === 'f') return 0;
  if (v === '1' || v === 'true' || v === 'yes' || v === 't') return 1;
  return new Reason(`full_scan must be TRUE or FALSE (1/0, yes/no), not ${quoted(raw.trim())}`);
}

/** A whole number written as `3`, `3.0` or ` 3 `; anything else is NaN. */
function wholeNumber(raw: string): number {
  // Fast path: plain digits, the usual case (a million rows call this several times each).
  const n = raw.length;
  if (n > 0 && n < 10) {
    let value = 0;
    let i = 0;
    for (; i < n; i++) {
      const c = raw.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      value = value * 10 + c;
    }
    if (i === n) return value;
  }
  const v = raw.trim();
  if (!/^[+-]?\d+(\.0*)?$/.test(v)) return Number.NaN;
  return Number.parseInt(v, 10);
}

/** Severity or repair difficulty: empty → null, else a whole number 1–5. */
export function scale(raw: string, label: string): number | null | Reason {
  if (raw.trim() === '') return null;
  const n = wholeNumber(raw);
  if (!(n >= 1 && n <= 5))
    return new Reason(`${label} must be a whole number from 1 to 5, not ${quoted(raw.trim())}`);
  return n;
}

const MAX_INT = 2147483647;

/** Company id: any non-negative whole number, stored as given (decisions §3); empty → the fallback. */
export function companyId(raw: string, fallback: number): number | Reason {
  if (raw.trim() === '') return fallback;
  const n = wholeNumber(raw);
  if (!(n >= 0 && n <= MAX_INT)) {
    return new Reason(`Company ID must be a whole number of 0 or more, not ${quoted(raw.trim())}`);
  }
  return n;
}

/** A required text: trimmed, non-empty, at most `max` characters. */
export function requiredText(raw: string, label: string, max: number): string | Reason {
  const v = raw.trim();
  if (v === '') return new Reason(`${label} is empty`);
  if (v.length > max) return new Reason(`${label} is longer than ${max} characters`);
  return v;
}

/** An optional text: trimmed; empty → null. */
export function optionalText(raw: string, label: string, max: number): string | null | Reason {
  const v = raw.trim();
  if (v === '') return null;
  if (v.length > max) return new Reason(`${label} is longer than ${max} characters`);
  return v;
}

/**
 * sha-256 hex of a cause / symptom / solution: the short form of its natural key (as the seed
 * stores it). The one-shot `hash` is several times faster than a `createHash` object per row.
 */
export const textHash = (text: string) => hash('sha256', text, 'hex');
