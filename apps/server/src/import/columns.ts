import { badRequest } from '../lib/errors.ts';

/** A column an import reads, found by its header (decisions §7). */
export interface ColumnSpec<K extends string = string> {
  key: K;
  /** How messages name it. */
  label: string;
  /** Header spellings accepted besides the label; case, spaces, underscores and punctuation are ignored. */
  aliases?: readonly string[];
  required?: boolean;
}

/** `Repair_Difficulty`, `repair difficulty`, `REPAIR-DIFFICULTY` → `repairdifficulty`. */
export const normaliseHeader = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

export type ColumnIndex<K extends string> = Record<K, number>;

/**
 * Finds each column of `specs` in a header row. A required column that is missing is a 400
 * that names it and lists the headers found; an optional one is -1.
 */
export function findColumns<K extends string>(
  header: (string | undefined)[],
  specs: readonly ColumnSpec<K>[],
  sheet: string,
): ColumnIndex<K> {
  const positions = new Map<string, number>();
  for (const k in header) {
    const name = normaliseHeader(header[k as unknown as number] ?? '');
    if (name && !positions.has(name)) positions.set(name, Number(k));
  }
  const found = {} as ColumnIndex<K>;
  const missing: ColumnSpec<K>[] = [];
  for (const spec of specs) {
    const names = [spec.label, ...(spec.aliases ?? [])].map(normaliseHeader);
    const index = names.map((n) => positions.get(n)).find((i) => i !== undefined);
    found[spec.key] = index ?? -1;
    if (index === undefined && spec.required) missing.push(spec);
  }
  if (missing.length > 0) {
    const headers: string[] = [];
    // Only the cells present (a row may end at column XFD), each cut short for the message.
    for (const k in header) {
      const h = header[k as unknown as number]?.trim();
      if (h) headers.push(`'${h.length > 40 ? `${h.slice(0, 40)}…` : h}'`);
      if (headers.length === 20) break;
    }
    const what = missing.map((m) => `'${m.label}'`).join(', ');
    throw badRequest(
      `The sheet '${sheet}' has no ${what} column${missing.length > 1 ? 's' : ''}. ` +
        (headers.length ? `Its first row holds ${headers.join(', ')}.` : 'Its first row is empty.') +
        ' Put the column names in the first row.',
    );
  }
  return found;
}
