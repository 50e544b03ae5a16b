import type { ColumnMappingNeeded, MappingField } from '@obd/contract';
import { HttpError } from '../lib/errors.ts';

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
 * Columns an operator named by hand (issue 15): field key → the file's header to read it from,
 * used for the fields no header matched by name or alias. `onFound` hears the header row and
 * where each field was found (the problems file names its columns by the file's headers).
 */
export interface HeaderMapping {
  fields?: Readonly<Record<string, string>>;
  onFound?(
    header: (string | undefined)[],
    index: Record<string, number>,
    mapped: Record<string, string>,
  ): void;
}

/** Header cells kept for answers: the non-empty ones, trimmed, at most this many. */
const MAX_HEADERS = 200;

/** The non-empty cells of a header row, trimmed, in file order (only the cells present are visited). */
export function headerTexts(header: (string | undefined)[]): string[] {
  const headers: string[] = [];
  for (const k in header) {
    const h = header[k as unknown as number]?.trim();
    if (h) headers.push(h.length > 200 ? h.slice(0, 200) : h);
    if (headers.length === MAX_HEADERS) break;
  }
  return headers;
}

/** A sheet without a required column: a 400 whose answer lets the page offer a mapping. */
export class ColumnsMissing extends HttpError {
  /** The remembered mapping is added by the route, which has the database. */
  remembered: Record<string, string> | null = null;
  constructor(
    message: string,
    readonly sheet: string,
    readonly headers: string[],
    readonly missing: MappingField[],
    readonly fields: MappingField[],
  ) {
    super('BAD_REQUEST', message);
  }

  get mapping(): ColumnMappingNeeded {
    return {
      sheet: this.sheet,
      headers: this.headers,
      missing: this.missing,
      fields: this.fields,
      remembered: this.remembered,
    };
  }
}

const field = (spec: ColumnSpec): MappingField => ({
  key: spec.key,
  label: spec.label,
  required: spec.required === true,
});

/**
 * Finds each column of `specs` in a header row: by name or alias, else by the operator's
 * `mapping`. A required column still missing is a 400 (`ColumnsMissing`) that names it and
 * lists the headers found; an optional one is -1. A mapping that names a header the row does
 * not have is a 400 too.
 */
export function findColumns<K extends string>(
  header: (string | undefined)[],
  specs: readonly ColumnSpec<K>[],
  sheet: string,
  mapping?: HeaderMapping,
): ColumnIndex<K> {
  const positions = new Map<string, number>();
  for (const k in header) {
    const name = normaliseHeader(header[k as unknown as number] ?? '');
    if (name && !positions.has(name)) positions.set(name, Number(k));
  }
  const found = {} as ColumnIndex<K>;
  const missing: ColumnSpec<K>[] = [];
  const mapped: Record<string, string> = {};
  for (const spec of specs) {
    const names = [spec.label, ...(spec.aliases ?? [])].map(normaliseHeader);
    let index = names.map((n) => positions.get(n)).find((i) => i !== undefined);
    const asked = mapping?.fields?.[spec.key];
    if (index === undefined && asked !== undefined) {
      index = positions.get(normaliseHeader(asked));
      if (index === undefined) {
        throw badMapping(
          `The mapping reads '${spec.label}' from the column '${asked.slice(0, 60)}', which the sheet '${sheet}' does not have. Choose one of its columns.`,
        );
      }
      mapped[spec.key] = asked;
    }
    found[spec.key] = index ?? -1;
    if (index === undefined && spec.required) missing.push(spec);
  }
  if (missing.length > 0) {
    const all = headerTexts(header);
    // Each cut short for the message.
    const headers = all.slice(0, 20).map((h) => `'${h.length > 40 ? `${h.slice(0, 40)}…` : h}'`);
    const what = missing.map((m) => `'${m.label}'`).join(', ');
    throw new ColumnsMissing(
      `The sheet '${sheet}' has no ${what} column${missing.length > 1 ? 's' : ''}. ` +
        (headers.length ? `Its first row holds ${headers.join(', ')}.` : 'Its first row is empty.') +
        ' Put the column names in the first row.',
      sheet,
      all,
      missing.map(field),
      specs.map(field),
    );
  }
  mapping?.onFound?.(header, found, mapped);
  return found;
}

const badMapping = (message: string) => new HttpError('BAD_REQUEST', message);
