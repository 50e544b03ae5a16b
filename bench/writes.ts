/**
 * What the counters of migrations 035 and 036 (PostgreSQL: folded e-mail addresses), 038's
 * trigram indexes of the folded addresses, 040's counters of app users per block of ids, 041's
 * indexes of the activity rows by folded address, or 042's end time in the "ended" sort index cost
 * each write (045's replaced 041's: the same indexes with the time column; '041' and '045' both
 * measure them): the same inserts, e-mail updates and
 * deletes of special-function runs and app users on two fresh schemas, one migrated fully and one
 * with what the migration added dropped, alternately, twice. Every run's address is a new one (a
 * new address is what changes the folded address counts 038 indexes). Prints milliseconds;
 * asserts nothing (DESIGN.md).
 *
 * 043 (scans per fault code and value, kept by triggers on scans) writes scans instead — each
 * with 0–3 fault codes in its decoded array, then a make moved and deletes — on PostgreSQL or on
 * a fresh SQLite file (`sqlite:/path`).
 *
 * 047 (PostgreSQL: the app users by folded address, carrying every sortable column) and 048
 * (SQLite: the "ended" sort indexes holding the end time) write the same as 035/036, against the
 * schema without what they added (048: 015's index of the flag alone).
 *
 * 050 (SQLite: the scans' indexes of a make and its VINs, a country and its plates, a country and
 * its addresses) writes scans as 043 does, against the schema without those three indexes; 051
 * (SQLite: every sort index carrying the time after the id) writes scans and then special-function
 * runs, as 044 does, against the sort indexes as they were before it (the column alone; 048's);
 * 052 (SQLite: the users' sort indexes carrying their filters) writes as 035/036 do, against the
 * users' sort indexes of their column alone. 053 (PostgreSQL: 050's three indexes) writes as
 * 050 does.
 *
 * 054 (the scans' (value, time) indexes carrying every filtered column) writes scans as 043 does,
 * against those indexes as 017, 025 and 003 made them.
 *
 * 044 (PostgreSQL: the activity lists' sort indexes carrying the time column, and on the scans
 * four counted columns) writes scans and then special-function runs, against the same indexes
 * rebuilt with their key alone.
 *
 *   node --import tsx bench/writes.ts [postgres://postgres@127.0.0.1:5432/test | sqlite:/tmp/w.sqlite] [rows] [035 | 038 | 040 | 041 | 045 | 042 | 043 | 044 | 047 | 048 | 050 | 051 | 052 | 053 | 054]
 */
import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { type Db, migrate, openDatabase } from '../apps/server/src/db/database.ts';

const url = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.argv[3] ?? 20_000);
const BATCH = 500;
const NAMES = ['aarav', 'diya', 'ravi', 'meera', 'arjun', 'kavya', 'rohan', 'isha'];
const SURNAMES = ['kumar', 'sharma', 'reddy', 'bose', 'iyer', 'joshi', 'nair', 'das'];
const DOMAINS = ['gmail.com', 'yahoo.co.in', 'outlook.com', 'rediffmail.com'];

const address = (i: number) => `${NAMES[i % 8]}.${SURNAMES[(i >> 3) % 8]}${i % 997}@${DOMAINS[(i >> 6) % 4]}`;
const time = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 1_800_000).toISOString();

/** The triggers and index the folded counters add (035, 036). */
const FOLDS = [
  'DROP FUNCTION list_totals_folds CASCADE',
  'DROP FUNCTION list_pairs_folds CASCADE',
  'DROP FUNCTION list_end_days_folds CASCADE',
  'DROP FUNCTION scans_fold_months CASCADE',
  'DROP FUNCTION special_function_runs_fold_months CASCADE',
  'DROP FUNCTION actuation_runs_fold_months CASCADE',
  'DROP FUNCTION app_users_email_folds CASCADE',
  'DROP INDEX app_users_id_email_filters',
];

/** 038's indexes. */
const FOLD_TRIGRAMS = [
  'DROP INDEX list_totals_scans_email_folds_trgm',
  'DROP INDEX list_totals_special_function_runs_user_email_folds_trgm',
  'DROP INDEX list_totals_actuation_runs_user_email_folds_trgm',
];
/** 040's counters per block of ids (their triggers: the counter rows themselves are not written). */
const ID_COUNTS = ['DROP FUNCTION app_users_id_counts CASCADE'];

/** The indexes of the activity rows by folded address: 041's, which 045's (with the time) replaced. */
const FOLD_IDS = [
  'DROP INDEX scans_email_fold_times',
  'DROP INDEX special_function_runs_email_fold_times',
  'DROP INDEX actuation_runs_email_fold_times',
];

/** 042: the "ended" sort indexes as 015 built them, without the end time. */
const ENDED_WITHOUT_END = ['scans', 'special_function_runs'].flatMap((t) => [
  `DROP INDEX ${t}_sort_scan_ended_end`,
  `CREATE INDEX ${t}_sort_scan_ended ON ${t} (scan_ended, id)`,
]);

/** 043's triggers (the counter table stays, unwritten). */
const SQLITE = url.startsWith('sqlite:');
const CODE_PAIRS = SQLITE
  ? ['ai', 'ad', 'au'].map((s) => `DROP TRIGGER scans_code_pairs_${s}`)
  : ['DROP FUNCTION scans_code_pairs CASCADE'];

/** 054: the scans' (value, time) indexes as 017/025 and 003 made them, before they carried every filter. */
const WITHOUT_CARRIED_ORDER = [
  ...['make', 'type', 'app_version'].flatMap((column) => {
    const others = ['make', 'type', 'app_version', 'country_id', 'scan_end_time'].filter((c) => c !== column);
    return [
      `DROP INDEX scans_${column}_order`,
      SQLITE
        ? `CREATE INDEX scans_${column}_order ON scans (${column}, scan_start_time)`
        : `CREATE INDEX scans_${column}_order ON scans (${column}, scan_start_time, id) INCLUDE (${others.join(', ')})`,
    ];
  }),
  'DROP INDEX scans_country_id_scan_start_time_id_ord',
  'CREATE INDEX scans_country_id_scan_start_time_id_ord ON scans (country_id, scan_start_time, id)',
];

const MEASURED =
  (
    [
      '038',
      '040',
      '041',
      '042',
      '043',
      '044',
      '045',
      '047',
      '048',
      '050',
      '051',
      '052',
      '053',
      '054',
    ] as const
  ).find((m) => m === process.argv[4]) ?? '035/036';
const DROPPED = {
  '035/036': FOLDS,
  '038': FOLD_TRIGRAMS,
  '040': ID_COUNTS,
  '041': FOLD_IDS,
  '045': FOLD_IDS,
  '042': ENDED_WITHOUT_END,
  '043': CODE_PAIRS,
  '044': [],
  '047': ['DROP INDEX app_users_email_fold_sorts'],
  '048': ['scans', 'special_function_runs'].flatMap((t) => [
    `DROP INDEX ${t}_sort_scan_ended_end`,
    `CREATE INDEX ${t}_sort_scan_ended ON ${t} (scan_ended)`,
  ]),
  '050': ['vin_by_make', 'license_plate_by_country_id', 'email_by_country_id'].map(
    (name) => `DROP INDEX scans_sort_${name}`,
  ),
  '051': [],
  '052': [],
  '054': WITHOUT_CARRIED_ORDER,
}[MEASURED === '053' ? '050' : MEASURED];

/** 044: each sort index carrying columns rebuilt with its key alone (015's and 042's indexes). */
async function withoutCarried(db: Db) {
  const { rows } = await sql<{ name: string; def: string }>`
    SELECT indexname AS name, indexdef AS def FROM pg_indexes
    WHERE schemaname = current_schema() AND indexname LIKE '%\_sort\_%' AND indexdef LIKE '% INCLUDE (%'`.execute(
    db.kysely,
  );
  for (const { name, def } of rows) {
    await sql.raw(`DROP INDEX ${name}`).execute(db.kysely);
    const kept = name.endsWith('_scan_ended_end') ? ' INCLUDE (scan_end_time)' : '';
    await sql.raw(`${def.replace(/ INCLUDE \(.*\)$/, '')}${kept}`).execute(db.kysely);
  }
}
/**
 * 051 (the activity lists) or 052 (the app users): each SQLite sort index carrying columns after
 * the id rebuilt as before it — the column alone, or 048's (flag, id, end time).
 */
async function withoutCarriedSqlite(db: Db, users: boolean) {
  const { rows } = await sql<{ name: string; def: string }>`
    SELECT name, sql AS def FROM sqlite_master
    WHERE type = 'index' AND instr(name, '_sort_') > 0 AND sql LIKE '%, id, %'`.execute(db.kysely);
  for (const { name, def } of rows) {
    if (name.startsWith('app_users_') !== users) continue;
    const kept = name.endsWith('_scan_ended_end') ? 3 : 1;
    const open = def.indexOf('(');
    const keys = def
      .slice(open + 1, def.lastIndexOf(')'))
      .split(',')
      .slice(0, kept);
    await sql.raw(`DROP INDEX ${name}`).execute(db.kysely);
    await sql.raw(`${def.slice(0, open)}(${keys.join(',')})`).execute(db.kysely);
  }
}
const CODES = ['P0300', 'P0420', 'P0171', 'P0301', 'U0100', 'C1201', 'B1000'];

async function timed(label: string, work: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await work();
  const ms = performance.now() - t;
  process.stdout.write(`  ${label.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms\n`);
  return ms;
}

/** 043: scans with their fault codes, a make moved, deletes. */
async function scanWorkload(db: Db): Promise<number> {
  const k = db.kysely;
  let total = 0;
  total += await timed(`insert ${ROWS} scans`, async () => {
    for (let from = 0; from < ROWS; from += BATCH)
      await k
        .insertInto('scans')
        .values(
          Array.from({ length: Math.min(BATCH, ROWS - from) }, (_, j) => {
            const i = from + j;
            const codes = CODES.slice(i % 7, (i % 7) + (i % 4));
            return {
              email: address(i),
              app_user_id: null,
              scan_start_time: time(i),
              scan_end_time: time(i + 1),
              make: ['Honda', 'Hyundai', 'Tata', 'BMW'][i % 4] as string,
              model: `Model ${i % 50}`,
              license_plate: `KA01XY${i}`,
              vin: `1HGCM82633A${100000 + i}`,
              scan_ended: 1,
              country_id: [91, 44, 1][i % 3] as number,
              function: 'Full Scan',
              type: ['OBD', 'Generic'][i % 2] as string,
              app_version: ['3.4.1', '3.5.0'][i % 2] as string,
              pdf_report: null,
              scan_res_array: '[]',
              decoded_array: JSON.stringify(
                codes.length === 0
                  ? []
                  : [{ system: 'Engine', decodedFaultArray: Object.fromEntries(codes.map((c) => [c, c])) }],
              ),
            };
          }),
        )
        .execute();
  });
  total += await timed('update 2,000 scans’ makes (one statement)', () =>
    sql`UPDATE scans SET make = 'Kia' WHERE id % 10 = 0`.execute(k),
  );
  total += await timed('delete 2,000 scans (one statement)', () =>
    sql`DELETE FROM scans WHERE id % 10 = 1`.execute(k),
  );
  return total;
}

async function workload(db: Db): Promise<number> {
  if (MEASURED === '043' || MEASURED === '050' || MEASURED === '053' || MEASURED === '054')
    return scanWorkload(db);
  const k = db.kysely;
  let total = MEASURED === '044' || MEASURED === '051' ? await scanWorkload(db) : 0;
  total += await timed(`insert ${ROWS} special-function runs`, async () => {
    for (let from = 0; from < ROWS; from += BATCH)
      await k
        .insertInto('special_function_runs')
        .values(
          Array.from({ length: Math.min(BATCH, ROWS - from) }, (_, j) => {
            const i = from + j;
            return {
              user_email: address(i),
              make: ['Honda', 'Hyundai', 'Tata', 'BMW'][i % 4] as string,
              module: ['Engine', 'ABS', 'Airbag'][i % 3] as string,
              model: `Model ${i % 50}`,
              function_type: ['Reset', 'Relearn'][i % 2] as string,
              command_type: ['UDS', 'KWP'][i % 2] as string,
              item_number: i % 9,
              variant: ['Petrol', 'Diesel', 'CNG'][i % 3] as string,
              license_plate: `KA01XY${i}`,
              scan_ended: i % 2,
              hard_coded: i % 5 === 0 ? 1 : 0,
              scan_start_time: time(i),
              scan_end_time: time(i + 1),
              scan_res_array: '[]',
            };
          }),
        )
        .execute();
  });
  total += await timed(`insert ${ROWS} app users`, async () => {
    for (let from = 0; from < ROWS; from += BATCH)
      await k
        .insertInto('app_users')
        .values(
          Array.from({ length: Math.min(BATCH, ROWS - from) }, (_, j) => {
            const i = from + j;
            return {
              email: `${i}.${address(i)}`,
              name: `User ${i}`,
              phone: null,
              country: 'IN',
              plan: ['free', 'premium', 'pro'][i % 3] as string,
              status: ['active', 'expired'][i % 2] as string,
              device: null,
              app_version: '3.4.1',
              created_at: time(i),
              last_login_at: null,
              auth_token: null,
              password_hash: null,
            };
          }),
        )
        .execute();
  });
  total += await timed('update 2,000 runs’ e-mails (one statement)', () =>
    sql`UPDATE special_function_runs SET user_email = 'moved.' || user_email WHERE id % 10 = 0`.execute(k),
  );
  total += await timed('delete 2,000 runs (one statement)', () =>
    sql`DELETE FROM special_function_runs WHERE id % 10 = 1`.execute(k),
  );
  return total;
}

async function fresh(name: string, withMeasured: boolean): Promise<Db> {
  if (SQLITE) {
    const file = `${url.slice('sqlite:'.length)}.${name}`;
    await rm(file, { force: true });
    const db = openDatabase({ dialect: 'sqlite', file });
    await migrate(db);
    if (!withMeasured) for (const statement of DROPPED) await sql.raw(statement).execute(db.kysely);
    if (!withMeasured && (MEASURED === '051' || MEASURED === '052'))
      await withoutCarriedSqlite(db, MEASURED === '052');
    return db;
  }
  const admin = openDatabase({ dialect: 'postgres', url });
  await sql.raw(`DROP SCHEMA IF EXISTS ${name} CASCADE; CREATE SCHEMA ${name}`).execute(admin.kysely);
  await admin.kysely.destroy();
  const db = openDatabase({ dialect: 'postgres', url }, { schema: name });
  await migrate(db);
  if (!withMeasured) for (const statement of DROPPED) await sql.raw(statement).execute(db.kysely);
  if (!withMeasured && MEASURED === '044') await withoutCarried(db);
  return db;
}

const sums: Record<string, number[]> = { with: [], without: [] };
for (const round of [1, 2])
  for (const withMeasured of round === 1 ? [true, false] : [false, true]) {
    const label = withMeasured ? 'with' : 'without';
    const name = `bench_writes_${label}`;
    console.log(`round ${round}, ${label} ${MEASURED}`);
    const db = await fresh(name, withMeasured);
    sums[label]?.push(await workload(db));
    await db.kysely.destroy();
    if (SQLITE) continue;
    const admin = openDatabase({ dialect: 'postgres', url });
    await sql.raw(`DROP SCHEMA ${name} CASCADE`).execute(admin.kysely);
    await admin.kysely.destroy();
  }
console.log(
  `total ms — with ${MEASURED}: ${sums.with?.map((n) => n.toFixed(0)).join(', ')}; without: ${sums.without?.map((n) => n.toFixed(0)).join(', ')}`,
);
process.exit(0);
