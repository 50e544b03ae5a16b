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

/**
 * App users read in e-mail order before a contains search turns to its own index: for an e-mail
 * fragment from the e-mail index alone; for other text the rows too (the name), so fewer — 20,000
 * rows cost ~100 ms on SQLite at a million users ('misfire', 'honda': 120 ms p50 of a search),
 * 5,000 a quarter of that, and a fragment that 5,000 users do not show five times is rare enough
 * for the trigram index.
 */
const USER_WALK = { email: 20_000, text: 5_000 } as const;
/** Newest scans read from the time index before an e-mail search turns to the e-mails' counters. */
const SCAN_WALK = 20_000;

/** An e-mail address typed whole (something@domain.tld). */
const WHOLE_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
      // A whole address that scanned: that person's scans, found by the counters' key (a "contains"
      // over the 600,000 e-mails of a million users read them all: 465 ms p50 on SQLite at load 9);
      // addresses that merely contain it are in "see all".
      const exact = WHOLE_ADDRESS.test(q)
        ? await rows<{ val: string; n: unknown }>(
            db,
            sql`SELECT val, n FROM list_totals WHERE tbl = 'scans' AND col = 'email' AND val IN (${q}, ${lower}) AND n > 0`,
          )
        : [];
      // A fragment many scans share ('@gmail'): its newest scans are among the newest SCAN_WALK,
      // read from the time index, which holds the e-mail (004's order_filters) — no list of
      // matching e-mails first (a third of 600,000 at a million users).
      const recent =
        exact.length > 0
          ? []
          : await rows<{ id: number }>(
              db,
              sql`SELECT id FROM (SELECT id, email, scan_start_time FROM scans ORDER BY scan_start_time DESC, id DESC LIMIT ${SCAN_WALK}) w
          WHERE ${contains(sql`w.email`)} ORDER BY scan_start_time DESC, id DESC LIMIT ${take}`,
            );
      if (recent.length >= take) {
        const hits = await rows<ScanHitRow>(
          db,
          sql`SELECT ${scanColumns} FROM scans s WHERE s.id IN (${sql.join(recent.map((r) => r.id))})
            ORDER BY s.scan_start_time DESC, s.id DESC`,
        );
        return { hits, seeAll: { email: q } };
      }
      const emails =
        exact.length > 0
          ? exact
          : await rows<{ val: string; n: unknown }>(
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
    if (kind !== 'email' && !(kind === 'text' && q.length >= 2)) return [];
    const columns = sql`u.id, u.email, u.name, u.plan, u.status`;
    const match =
      kind === 'email'
        ? contains(sql`u.email`)
        : sql`(${contains(sql`u.email`)} OR ${contains(sql`u.name`)})`;
    // The whole address typed: that user first (the e-mail's unique index).
    const exact =
      kind === 'email'
        ? await rows<UserRow>(
            db,
            sql`SELECT ${columns} FROM app_users u WHERE u.email IN (${q}, ${lower}) ORDER BY u.email LIMIT 1`,
          )
        : [];
    const others = (list: UserRow[]) =>
      [...exact, ...list.filter((u) => !exact.some((e) => e.id === u.id))].slice(0, take);
    // A fragment many users share ('@gmail', 'kumar'): their first in e-mail order are among the
    // first USER_WALK users of the e-mail index — an index walk that stops there. Fewer found
    // there (a rare fragment, or a table that small): the fragment's own index finds them all
    // (migration 020's FTS5 trigram table on SQLite, pg_trgm on PostgreSQL) and they are sorted.
    // A whole address that is a user's: that user (others containing a whole address are rare and
    // in "see all"; the walk and the trigram index cost 1-3 s at a million users on SQLite).
    if (exact.length > 0 && WHOLE_ADDRESS.test(q)) return exact;
    // The walk reads only what it tests (an e-mail fragment: the e-mail index alone), then the rows found.
    const walkColumns = kind === 'email' ? sql`id, email` : sql`id, email, name`;
    const walk = kind === 'email' ? USER_WALK.email : USER_WALK.text;
    const walked = await rows<UserRow>(
      db,
      sql`SELECT ${columns} FROM app_users u WHERE u.id IN (SELECT id FROM (SELECT ${walkColumns} FROM app_users ORDER BY email LIMIT ${walk}) u WHERE ${match}
        ORDER BY u.email LIMIT ${take}) ORDER BY u.email`,
    );
    if (walked.length >= take) return others(walked);
    const [size] = await rows<{ n: unknown }>(
      db,
      sql`SELECT count(*) AS n FROM (SELECT 1 FROM app_users LIMIT ${walk + 1}) x`,
    );
    if (Number(size?.n ?? 0) <= walk) return others(walked);
    const indexed =
      dialect === 'sqlite' && q.length >= 3 && !/[%_\\]/.test(q)
        ? sql`u.id IN (SELECT rowid FROM app_users_search WHERE email LIKE ${likePattern(q)}${
            kind === 'text'
              ? sql` UNION SELECT rowid FROM app_users_search WHERE name LIKE ${likePattern(q)}`
              : sql``
          })`
        : match;
    return others(
      await rows<UserRow>(
        db,
        sql`SELECT ${columns} FROM app_users u WHERE ${indexed} ORDER BY u.email LIMIT ${take}`,
      ),
    );
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
