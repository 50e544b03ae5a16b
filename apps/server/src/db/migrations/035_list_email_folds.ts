import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Issue 12, PostgreSQL: an e-mail surname ('kumar') with a second filter. About 25,000 addresses
 * hold 'kumar' before their '@' at a million runs, so 027's split (domains plus local-only
 * addresses) still sums 25,000 address counters: finding them reads 75,000 trigram candidates'
 * rows of `list_totals` (240 ms, 27,600 heap blocks), and their pairs with a frequent value
 * (Diesel: 340,000 pairs, each tested) take 150–1,600 ms more.
 *
 * An address *folded* has each run of ASCII digits replaced by one '0'
 * (aarav.kumar104@gmail.com → aarav.kumar0@gmail.com). A fragment holding no ASCII digit is in an
 * address exactly when it is in its folded form: every stretch between digits is kept as it was,
 * and the '0' marks are digits the fragment cannot match (lower() neither makes nor removes an
 * ASCII digit, so ILIKE agrees too). Addresses that differ only in their numbers share one folded
 * counter: the benchmark's 594,000 addresses per table fold into ~20,000.
 * - `list_totals` gets a row per folded address beside the rows per address: column `email#`
 *   (`user_email#`), the sum of its addresses' counters, and `email#addresses`, how many of its
 *   addresses hold rows;
 * - `list_pairs` the same for the e-mail's pairs with the columns of few values (FOLDED_WITH), where
 *   folding shrinks the pairs ~10–25× (Diesel: 340,000 address pairs, ~40,000 folded); a model, a
 *   make or an item number has about one address pair per row either way, and its listed values are
 *   few rows, so those pairs are not folded;
 * - `list_end_days` the same for 021's addresses per end month;
 * - `list_days` the folded addresses' rows per month of the list's time column (`email#month`).
 * The first three are kept by statement triggers on the counter tables themselves, from the
 * address rows' changes, as 027 keeps the domains ('#' sorts where the column's own name does among
 * the others, as '@' does); the months by triggers on the activity tables, as 029 keeps the
 * domains' days.
 *
 * SQLite: nothing. It has no regexp_replace for a trigger to fold with, and its surname pairs are
 * answered from 027's FTS5 table of local parts within the target; the plans read these rows on
 * PostgreSQL only (`modules/operations/emailFolds.ts`).
 */

/** Frozen: the counted e-mail columns of the activity tables (004). */
const EMAILS = `'email', 'user_email'`;

/** Frozen: the columns of few values whose pairs with the e-mail are folded too (004, 017). */
const FOLDED_WITH = [
  // scans
  'country_id',
  'type',
  'app_version',
  // special-function runs
  'module',
  'function_type',
  'command_type',
  'variant',
  'scan_ended',
  'hard_coded',
  // actuation runs
  'input',
  'actuation_type',
  'actuation_option',
]
  .map((c) => `'${c}'`)
  .join(', ');

/** Frozen: each activity table's e-mail column and time column (004). */
const EMAIL_MONTHS = {
  scans: { email: 'email', order: 'scan_start_time' },
  special_function_runs: { email: 'user_email', order: 'scan_start_time' },
  actuation_runs: { email: 'user_email', order: 'created_at' },
} as const;

const fold = (v: string) => `regexp_replace(${v}, '[0-9]+', '0', 'g')`;

/** A family of folded counters: its key over a counter row `r`, and each change's delta. */
interface Family {
  key: (r: string) => string;
  inserted: string;
  deleted: string;
  /** Over the updated row `r` and its old self `o`. */
  updated: string;
}
/** Rows: the sum of the folded addresses' counters. */
const ROWS = { inserted: 'r.n', deleted: '-r.n', updated: 'r.n - o.n' };

/** The counter tables, their keys, which of their rows fold, and the folded families. */
const FOLDS: Record<string, { keys: string; folds: (r: string) => string; families: Family[] }> = {
  list_totals: {
    keys: 'tbl, col, val',
    folds: (r) => `${r}.col IN (${EMAILS})`,
    families: [
      { key: (r) => `${r}.tbl, ${r}.col || '#', ${fold(`${r}.val`)}`, ...ROWS },
      // How many addresses with rows fold into it (col `email#addresses`): whether a fragment
      // matches more addresses than are worth listing (countPlan.ts matchesTooMany) is then a sum
      // over the folded rows too, not a count over 5,000 addresses' rows.
      {
        key: (r) => `${r}.tbl, ${r}.col || '#addresses', ${fold(`${r}.val`)}`,
        inserted: '(r.n > 0)::int',
        deleted: '-(r.n > 0)::int',
        updated: '(r.n > 0)::int - (o.n > 0)::int',
      },
    ],
  },
  // 021's e-mail rows per end month (`containingEndedBefore`).
  list_end_days: {
    keys: 'tbl, col, val, day',
    folds: (r) => `${r}.col IN (${EMAILS})`,
    families: [{ key: (r) => `${r}.tbl, ${r}.col || '#', ${fold(`${r}.val`)}, ${r}.day`, ...ROWS }],
  },
  list_pairs: {
    keys: 'tbl, a, b, av, bv',
    folds: (r) =>
      `((${r}.a IN (${EMAILS}) AND ${r}.b IN (${FOLDED_WITH})) OR (${r}.b IN (${EMAILS}) AND ${r}.a IN (${FOLDED_WITH})))`,
    families: [
      {
        key: (r) =>
          [
            `${r}.tbl`,
            `CASE WHEN ${r}.a IN (${EMAILS}) THEN ${r}.a || '#' ELSE ${r}.a END`,
            `CASE WHEN ${r}.b IN (${EMAILS}) THEN ${r}.b || '#' ELSE ${r}.b END`,
            `CASE WHEN ${r}.a IN (${EMAILS}) THEN ${fold(`${r}.av`)} ELSE ${r}.av END`,
            `CASE WHEN ${r}.b IN (${EMAILS}) THEN ${fold(`${r}.bv`)} ELSE ${r}.bv END`,
          ].join(', '),
        ...ROWS,
      },
    ],
  },
};

export function listEmailFoldsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, { keys, folds, families }] of Object.entries(FOLDS)) {
        // The rows already there, per folded key, before the triggers (which would count them
        // again).
        for (const { key, inserted } of families)
          await sql
            .raw(
              `INSERT INTO ${table} (${keys}, n) SELECT ${key('r')}, sum(${inserted}) FROM ${table} r WHERE ${folds('r')} GROUP BY ${key('r')} HAVING sum(${inserted}) <> 0`,
            )
            .execute(db);
        await triggers(db, table, keys, folds('r'), families);
      }
      // The folded rows of a table read with their counts from the index alone (a fragment's
      // folded addresses are found by testing each of the table's ~20,000).
      await sql
        .raw(
          `CREATE INDEX list_totals_folds ON list_totals (tbl, col, val) INCLUDE (n) WHERE col IN ('email#', 'user_email#', 'email#addresses', 'user_email#addresses')`,
        )
        .execute(db);
      // Rows per folded address and month of the list's time column (col `email#month`, day
      // 'YYYY-MM'), kept by triggers on the activity tables as 029 keeps the domains' days.
      for (const [table, { email, order }] of Object.entries(EMAIL_MONTHS)) {
        const apply = (rows: string, sign: string) => `
          INSERT INTO list_days (tbl, col, val, day, n)
            SELECT '${table}', '${email}#month', ${fold(`x."${email}"`)}, substr(x."${order}", 1, 7), ${sign}count(*)
            FROM ${rows} x GROUP BY 3, 4 ORDER BY 3, 4
            ON CONFLICT (tbl, col, val, day) DO UPDATE SET n = list_days.n + excluded.n;`;
        await sql.raw(apply(`"${table}"`, '')).execute(db);
        await postgresStatementTriggers(db, table, `${table}_fold_months`, apply);
      }
      await sql`ANALYZE list_totals, list_pairs, list_end_days, list_days`.execute(db);
    },
  };
}

/**
 * Per statement (the counters are written per statement, 004): the statement's folded rows summed
 * per folded key, added to the folded counters. The folded rows' own upsert fires these triggers
 * (and 027's) again, finding no row to fold: the EXISTS stops there. An update is its rows' change
 * of n; counter rows never change their key.
 */
async function triggers(db: Kysely<any>, table: string, keys: string, folds: string, families: Family[]) {
  const fn = `${table}_folds`;
  const upsert = (from: string, delta: (f: Family) => string, where: string) => `
    IF EXISTS (SELECT 1 FROM ${from} WHERE ${where}) THEN${families
      .map(
        (f) => `
      INSERT INTO ${table} (${keys}, n)
        SELECT ${f.key('r')}, sum(${delta(f)}) FROM ${from} WHERE ${where}
        GROUP BY ${f.key('r')} HAVING sum(${delta(f)}) <> 0 ORDER BY ${f.key('r')}
        ON CONFLICT (${keys}) DO UPDATE SET n = ${table}.n + excluded.n;`,
      )
      .join('')}
    END IF;`;
  const same = keys
    .split(', ')
    .map((k) => `o.${k} = r.${k}`)
    .join(' AND ');
  await sql
    .raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${upsert('new_rows r', (f) => f.inserted, folds)}
      ELSIF TG_OP = 'DELETE' THEN ${upsert('old_rows r', (f) => f.deleted, folds)}
      ELSE ${upsert(`new_rows r JOIN old_rows o ON ${same}`, (f) => f.updated, `${folds} AND r.n <> o.n`)}
      END IF;
      RETURN NULL;
    END $fn$`)
    .execute(db);
  for (const [suffix, event, referencing] of [
    ['ai', 'INSERT', 'NEW TABLE AS new_rows'],
    ['ad', 'DELETE', 'OLD TABLE AS old_rows'],
    ['au', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ] as const)
    await sql
      .raw(
        `CREATE TRIGGER ${fn}_${suffix} AFTER ${event} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      )
      .execute(db);
}
