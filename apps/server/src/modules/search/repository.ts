import type { SearchKind, SearchQuery } from '@obd/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { likePattern } from '../../lib/sql.ts';

/**
 * The command palette's search (issue 13). What `q` is, is told from its shape (`kindOf`); each
 * kind searches only the columns it can be, through their indexes:
 * - a fault code: the reference by code prefix (fault_codes' natural key), scans reporting it
 *   (`scan_dtcs` by code and time, migration 011);
 * - a VIN: scans by VIN (011's index);
 * - an e-mail: app users whose e-mail contains it; scans of the e-mails that scanned and match
 *   (004's counters list them: a few thousand values, not a million rows);
 * - a plate: scans whose plate contains it (FTS5 trigram on SQLite, pg_trgm on PostgreSQL);
 * - other text: makes, app users (e-mail or name), fault-code titles, and the scans of a make
 *   named exactly so.
 */

type Db = Kysely<Database>;

const DTC = /^[PCBU][0-9A-F]{4}([-_ ]?[0-9A-Z]{1,4})?$/i;
const VIN = /^[A-HJ-NPR-Z0-9]{17}$/i;
const PLATE = /^(?=.*[0-9])(?=.*[A-Z])[A-Z0-9][A-Z0-9 -]{2,14}[A-Z0-9]$/i;

export function kindOf(q: string): SearchKind {
  if (q.includes('@')) return 'email';
  if (DTC.test(q)) return 'dtc';
  if (VIN.test(q)) return 'vin';
  if (PLATE.test(q)) return 'plate';
  return 'text';
}

async function rows<T>(db: Db, query: RawBuilder<unknown>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

/** `%`, `_` and `\` matched as themselves, for a LIKE … ESCAPE '\'. */
const escaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const scanColumns = sql`s.id, s.scan_start_time, s.email, s.make, s.model, s.vin, s.license_plate`;

export interface ScanHitRow {
  id: number;
  scan_start_time: string;
  email: string;
  make: string;
  model: string | null;
  vin: string | null;
  license_plate: string | null;
}

interface CodeRow {
  id: number;
  dtc: string;
  make: string | null;
  generic: number;
  title: string | null;
}
interface UserRow {
  id: number;
  email: string;
  name: string | null;
  plan: string;
  status: string;
}

export async function search(db: Db, dialect: Dialect, query: SearchQuery) {
  const q = query.q;
  const take = query.limit + 1;
  const kind = kindOf(q);
  const like = dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
  const contains = (column: RawBuilder<unknown>) => sql`${column} ${like} ${likePattern(q)} ESCAPE '\\'`;
  const lower = q.toLowerCase();

  const faultCodes = async (): Promise<CodeRow[]> => {
    if (kind === 'dtc') {
      const code = q.toUpperCase();
      return rows<CodeRow>(
        db,
        sql`SELECT id, dtc, make, generic, title FROM fault_codes WHERE dtc ${like} ${`${escaped(code)}%`} ESCAPE '\\'
          ORDER BY CASE WHEN upper(dtc) = ${code} THEN 0 ELSE 1 END, generic DESC, dtc, id LIMIT ${take}`,
      );
    }
    if (kind === 'text' && q.length >= 3)
      return rows<CodeRow>(
        db,
        sql`SELECT id, dtc, make, generic, title FROM fault_codes WHERE ${contains(sql`title`)}
          ORDER BY generic DESC, dtc, id LIMIT ${take}`,
      );
    return [];
  };

  const scans = async (): Promise<{ hits: ScanHitRow[]; seeAll: Record<string, string> | null }> => {
    if (kind === 'dtc') {
      const code = q.toUpperCase();
      const hits = await rows<ScanHitRow>(
        db,
        sql`SELECT ${scanColumns} FROM (SELECT scan_id FROM scan_dtcs WHERE dtc = ${code}
            ORDER BY scan_start_time DESC, scan_id DESC LIMIT ${take}) d
          JOIN scans s ON s.id = d.scan_id ORDER BY s.scan_start_time DESC, s.id DESC`,
      );
      return { hits, seeAll: { dtc: code } };
    }
    if (kind === 'vin') {
      const hits = await rows<ScanHitRow>(
        db,
        sql`SELECT ${scanColumns} FROM scans s WHERE s.vin = ${q.toUpperCase()}
          ORDER BY s.scan_start_time DESC, s.id DESC LIMIT ${take}`,
      );
      return { hits, seeAll: null };
    }
    if (kind === 'email') {
      const emails = await rows<{ val: string; n: unknown }>(
        db,
        sql`SELECT val, n FROM list_totals WHERE tbl = 'scans' AND col = 'email' AND n > 0 AND ${contains(sql`val`)}
          ORDER BY CASE WHEN lower(val) = ${lower} THEN 0 ELSE 1 END, n DESC, val LIMIT 50`,
      );
      if (emails.length === 0) return { hits: [], seeAll: { email: q } };
      const matched = emails.reduce((sum, e) => sum + Number(e.n), 0);
      const [all] = await rows<{ n: unknown }>(
        db,
        sql`SELECT n FROM list_totals WHERE tbl = 'scans' AND col = '' AND val = ''`,
      );
      // Many scans (a fragment such as '@gmail'): walk the time index, newest first, until enough
      // match; few (one person's): read them through the e-mail and sort.
      const walk = matched >= 0.02 * Number(all?.n ?? 0);
      const email = walk ? (dialect === 'sqlite' ? sql`+s.email` : sql`(s.email || '')`) : sql`s.email`;
      const order = !walk && dialect === 'postgres' ? sql`s.scan_start_time || ''` : sql`s.scan_start_time`;
      const hits = await rows<ScanHitRow>(
        db,
        sql`SELECT ${scanColumns} FROM scans s WHERE ${email} IN (${sql.join(emails.map((e) => e.val))})
          ORDER BY ${order} DESC, s.id DESC LIMIT ${take}`,
      );
      return { hits, seeAll: { email: q } };
    }
    if (kind === 'plate') {
      const match =
        dialect === 'sqlite' && q.length >= 3 && !/[%_\\]/.test(q)
          ? sql`s.id IN (SELECT rowid FROM scans_search WHERE license_plate LIKE ${likePattern(q)})`
          : contains(sql`s.license_plate`);
      // Few scans match a plate: found through the plate's index and sorted (an order PostgreSQL
      // cannot take from the time index keeps it from walking that instead).
      const hits = await rows<ScanHitRow>(
        db,
        sql`SELECT ${scanColumns} FROM scans s WHERE ${match}
          ORDER BY ${dialect === 'postgres' ? sql`s.scan_start_time || ''` : sql`s.scan_start_time`} DESC, s.id DESC LIMIT ${take}`,
      );
      return { hits, seeAll: { license_plate: q } };
    }
    // Text: the scans of a make named exactly so, newest first: a make of many scans walks the
    // time index until enough match, a rare one is read through its own index and sorted.
    const [make] = await rows<{ val: string; n: unknown }>(
      db,
      sql`SELECT val, n FROM list_totals WHERE tbl = 'scans' AND col = 'make' AND n > 0 AND lower(val) = ${lower} ORDER BY n DESC LIMIT 1`,
    );
    if (!make) return { hits: [], seeAll: null };
    const [all] = await rows<{ n: unknown }>(
      db,
      sql`SELECT n FROM list_totals WHERE tbl = 'scans' AND col = '' AND val = ''`,
    );
    const walk = Number(make.n) >= 0.02 * Number(all?.n ?? 0);
    const column = walk ? (dialect === 'sqlite' ? sql`+s.make` : sql`(s.make || '')`) : sql`s.make`;
    const order = !walk && dialect === 'postgres' ? sql`s.scan_start_time || ''` : sql`s.scan_start_time`;
    const hits = await rows<ScanHitRow>(
      db,
      sql`SELECT ${scanColumns} FROM scans s WHERE ${column} = ${make.val}
        ORDER BY ${order} DESC, s.id DESC LIMIT ${take}`,
    );
    return { hits, seeAll: { make: make.val } };
  };

  const users = async (): Promise<UserRow[]> => {
    if (kind === 'email')
      return rows<UserRow>(
        db,
        sql`SELECT id, email, name, plan, status FROM app_users WHERE ${contains(sql`email`)}
          ORDER BY CASE WHEN lower(email) = ${lower} THEN 0 ELSE 1 END, email LIMIT ${take}`,
      );
    if (kind === 'text' && q.length >= 2)
      return rows<UserRow>(
        db,
        sql`SELECT id, email, name, plan, status FROM app_users WHERE ${contains(sql`email`)} OR ${contains(sql`name`)}
          ORDER BY email LIMIT ${take}`,
      );
    return [];
  };

  const makes = async () => {
    if (kind !== 'text' && kind !== 'plate') return [];
    return rows<{ id: number; name: string; segment: string }>(
      db,
      sql`SELECT id, name, segment FROM makes WHERE ${contains(sql`name`)}
        ORDER BY CASE WHEN lower(name) = ${lower} THEN 0 WHEN lower(name) LIKE ${`${escaped(lower)}%`} ESCAPE '\\' THEN 1 ELSE 2 END, name
        LIMIT ${take}`,
    );
  };

  const [codes, scanHits, userHits, makeHits] = await Promise.all([faultCodes(), scans(), users(), makes()]);
  return { q, kind, codes, scans: scanHits, users: userHits, makes: makeHits };
}
