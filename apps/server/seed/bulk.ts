import { sql } from 'kysely';
import { FOLDED_WITH } from '../src/modules/operations/emailFolds.ts';
import { COUNTED_LISTS, type CountedTableName } from '../src/modules/operations/lists.ts';
import { idBlockKey } from '../src/modules/operations/usersList.ts';
import type { SeedContext } from './insert.ts';

/**
 * Benchmark volumes (a million scans and runs) without the per-row cost of the counting triggers.
 *
 * Every insert into an activity table fires the triggers of migrations 003 (FTS5 trigram search,
 * SQLite), 004 (list counters per value and day), 007 (per month), 011 (per-scan DTCs and the
 * overview's day and month counters) and 017 (pair counters): some 40 upserts per scan on SQLite,
 * ~333 rows/s; app users fire 020's (per plan, status and creation day; FTS5 on SQLite). A bulk load instead
 *   1. sets the triggers aside (SQLite: drops them, keeping their SQL text from sqlite_master;
 *      PostgreSQL: DISABLE TRIGGER USER) and drops the tables' secondary indexes (keeping their
 *      definitions from the catalogue), all inside the caller's transaction;
 *   2. inserts the generated rows;
 *   3. re-creates the indexes from their saved definitions (a sorted build, not a million random
 *      inserts), recomputes every derived row of the loaded tables with one GROUP BY per counter
 *      (over a narrow copy of the counted columns: one pass over the wide rows), rebuilds the
 *      FTS5 tables, and puts the triggers back exactly as they were.
 * A failure rolls all of it back with the caller's transaction, triggers included.
 *
 * The derived rows are the ones the triggers would have written: `test/seedBulk.test.ts` seeds
 * the same rows both ways on both dialects and compares every derived table row for row. The
 * SQL mirrors the backfills of migrations 004, 007, 011, 017 and 020, which cannot be reused: they
 * live inside frozen migrations, which runtime code may not import (biome noRestrictedImports),
 * and each runs once per column at migration time. The counted columns are read from the running
 * lists' declaration (`modules/operations/lists.ts`), the same the lists count with; a column
 * counted by a future migration but not declared there would show up in that test.
 *
 * Recomputing covers the whole table, not only the new rows: a counter the triggers had left at
 * zero after deletions disappears (the same meaning: no rows). The seed never deletes, so a seeded
 * database is identical either way.
 */

export type BulkTable = CountedTableName | 'app_users';

interface SetAside {
  restoreIndexes(): Promise<void>;
  restoreTriggers(): Promise<void>;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SEED_PROFILE=1 logs every statement of the rebuild that takes over half a second. */
async function exec(ctx: SeedContext, text: string) {
  const t = performance.now();
  await sql.raw(text).execute(ctx.kx);
  const ms = performance.now() - t;
  if (process.env.SEED_PROFILE && ms > 500)
    ctx.log(`${(ms / 1000).toFixed(1)} s ${text.replace(/\s+/g, ' ').slice(0, 140)}`);
}

async function rows<T>(ctx: SeedContext, text: string): Promise<T[]> {
  return (await sql.raw<T>(text).execute(ctx.kx)).rows;
}

/**
 * Drops (SQLite) or disables (PostgreSQL) the triggers and secondary indexes of `tables` (the
 * triggers only, with `indexes: false`).
 */
async function setAside(ctx: SeedContext, tables: readonly string[], indexes = true): Promise<SetAside> {
  const list = tables.map((t) => `'${t}'`).join(', ');
  if (ctx.dialect === 'sqlite') {
    const saved = await rows<{ type: string; name: string; sql: string }>(
      ctx,
      `SELECT type, name, sql FROM sqlite_master WHERE type IN (${indexes ? `'trigger', 'index'` : `'trigger'`}) AND sql IS NOT NULL AND tbl_name IN (${list}) ORDER BY type, name`,
    );
    for (const s of saved) await exec(ctx, `DROP ${s.type === 'trigger' ? 'TRIGGER' : 'INDEX'} ${q(s.name)}`);
    return {
      async restoreIndexes() {
        for (const s of saved.filter((x) => x.type === 'index')) await exec(ctx, s.sql);
      },
      async restoreTriggers() {
        for (const s of saved.filter((x) => x.type === 'trigger')) await exec(ctx, s.sql);
      },
    };
  }
  // PostgreSQL: the indexes that back no constraint (the primary keys stay).
  const secondary = !indexes
    ? []
    : await rows<{ name: string; def: string }>(
        ctx,
        `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
      WHERE i.indrelid IN (${tables.map((t) => `to_regclass('${t}')`).join(', ')})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY 1`,
      );
  for (const t of tables) await exec(ctx, `ALTER TABLE ${q(t)} DISABLE TRIGGER USER`);
  for (const i of secondary) await exec(ctx, `DROP INDEX ${i.name}`);
  return {
    async restoreIndexes() {
      await exec(ctx, `SET LOCAL maintenance_work_mem = '512MB'`);
      for (const i of secondary) await exec(ctx, i.def);
    },
    async restoreTriggers() {
      for (const t of tables) await exec(ctx, `ALTER TABLE ${q(t)} ENABLE TRIGGER USER`);
    },
  };
}

/**
 * Runs `load` (which inserts into `tables`) with their triggers and indexes set aside, then puts
 * them back and recomputes the derived tables. Call inside a transaction.
 */
export async function bulkLoad(
  ctx: SeedContext,
  tables: readonly BulkTable[],
  load: () => Promise<void>,
): Promise<void> {
  if (tables.length === 0) return load();
  const touched = tables.includes('scans') ? [...tables, 'scan_dtcs'] : [...tables];
  const aside = await setAside(ctx, touched);
  await load();
  const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
  let started = performance.now();
  await aside.restoreIndexes();
  ctx.log(`indexes rebuilt in ${seconds(started)}`);
  started = performance.now();
  // With the triggers still off: filling scan_dtcs would fire its own, counting the codes twice.
  await rebuildDerived(ctx, tables);
  await aside.restoreTriggers();
  ctx.log(`derived tables rebuilt in ${seconds(started)}`);
}

/** The day and month buckets of a time text, as the triggers cut them. */
const dayOf = (ref: string) => `substr(${ref}, 1, 10)`;
const monthOf = (ref: string) => `substr(${ref}, 1, 7)`;
const text = (c: string) => `CAST(x.${q(c)} AS TEXT)`;

/** Recomputes every derived row of `tables` from the rows themselves. */
export async function rebuildDerived(ctx: SeedContext, tables: readonly BulkTable[]): Promise<void> {
  const pg = ctx.dialect === 'postgres';
  // The counter tables' own triggers (026's search index, 027's e-mail domains) are set aside
  // too: deleting a table's counter rows would count its domains down after their own rows had
  // gone. What they keep is recomputed below, from the counter rows.
  const counters = await setAside(ctx, ['list_totals', 'list_pairs', 'list_end_days'], false);
  for (const table of tables) {
    if (table === 'app_users') {
      await rebuildUsers(ctx);
      continue;
    }
    const spec = COUNTED_LISTS[table].counted;
    const end = 'end' in spec ? spec.end : undefined;
    const counted = [...spec.byDay, ...spec.totalsOnly];
    const narrow = [...new Set(['id', spec.order, ...(end ? [end] : []), ...counted])];
    // One pass over the wide rows (a scan's JSON is kilobytes) into a narrow copy.
    await exec(ctx, `DROP TABLE IF EXISTS ${pg ? 'pg_temp' : 'temp'}.bulk_rows`);
    await exec(ctx, `CREATE TEMP TABLE bulk_rows AS SELECT ${narrow.map(q).join(', ')} FROM ${q(table)}`);
    for (const derived of ['list_totals', 'list_days', 'list_pairs', 'list_end_days'])
      await exec(ctx, `DELETE FROM ${derived} WHERE tbl = '${table}'`);

    // 004: rows per value of each counted column ('' = all rows; the end time by its day), and
    // per day of the order column for the columns of few values; 007: per month in `months`.
    const facets: { col: string; value: string; byDay: boolean; monthly: boolean }[] = [
      { col: '', value: `''`, byDay: true, monthly: false },
      ...spec.byDay.map((c) => ({ col: c, value: text(c), byDay: true, monthly: false })),
      ...spec.totalsOnly.map((c) => ({
        col: c,
        value: text(c),
        byDay: false,
        monthly: (spec.byMonth as readonly string[]).includes(c),
      })),
      ...(end ? [{ col: end, value: dayOf(`x.${q(end)}`), byDay: true, monthly: false }] : []),
    ];
    const day = dayOf(`x.${q(spec.order)}`);
    for (const f of facets) {
      if (f.monthly) {
        const months = pg ? 'jsonb_object_agg(m, n)' : 'json_group_object(m, n)';
        await exec(
          ctx,
          `INSERT INTO list_totals (tbl, col, val, n, months)
           SELECT '${table}', '${f.col}', v, sum(n), ${months} FROM (
             SELECT ${f.value} AS v, ${monthOf(`x.${q(spec.order)}`)} AS m, count(*) AS n
             FROM bulk_rows x WHERE ${f.value} IS NOT NULL GROUP BY 1, 2) g
           GROUP BY v`,
        );
      } else {
        await exec(
          ctx,
          `INSERT INTO list_totals (tbl, col, val, n) SELECT '${table}', '${f.col}', ${f.value}, count(*) FROM bulk_rows x WHERE ${f.value} IS NOT NULL GROUP BY 3`,
        );
      }
      if (f.byDay)
        await exec(
          ctx,
          `INSERT INTO list_days (tbl, col, val, day, n) SELECT '${table}', '${f.col}', ${f.value}, ${day}, count(*) FROM bulk_rows x WHERE ${f.value} IS NOT NULL GROUP BY 3, 4`,
        );
    }
    // 017: rows per pair of values of two counted columns, the pair's names in order.
    const paired = [...counted].sort();
    for (const [i, a] of paired.entries())
      for (const b of paired.slice(i + 1))
        await exec(
          ctx,
          `INSERT INTO list_pairs (tbl, a, b, av, bv, n) SELECT '${table}', '${a}', '${b}', ${text(a)}, ${text(b)}, count(*) FROM bulk_rows x WHERE x.${q(a)} IS NOT NULL AND x.${q(b)} IS NOT NULL GROUP BY 4, 5`,
        );

    // 021: rows per value and end day (per end month for the columns of many values).
    if (end)
      for (const [columns, bucket] of [
        [spec.byDay, dayOf(`x.${q(end)}`)],
        [spec.byMonth, monthOf(`x.${q(end)}`)],
      ] as const)
        for (const c of columns as readonly string[])
          await exec(
            ctx,
            `INSERT INTO list_end_days (tbl, col, val, day, n) SELECT '${table}', '${c}', ${text(c)}, ${bucket}, count(*) FROM bulk_rows x WHERE x.${q(c)} IS NOT NULL AND x.${q(end)} IS NOT NULL GROUP BY 3, 4`,
          );
    await rebuildEmailDomains(ctx, table);
    // 029: each e-mail domain's rows per day of the time column; 031: per day of the end time.
    const email = counted.find((c) => c === 'email' || c === 'user_email');
    if (email) {
      const at = `${pg ? 'strpos' : 'instr'}(x.${q(email)}, '@')`;
      const domain = `substr(x.${q(email)}, ${at} + 1)`;
      await exec(
        ctx,
        `INSERT INTO list_days (tbl, col, val, day, n) SELECT '${table}', '${email}@', ${domain}, ${day}, count(*) FROM bulk_rows x WHERE ${at} > 0 GROUP BY 3, 4`,
      );
      if (end)
        await exec(
          ctx,
          `INSERT INTO list_end_days (tbl, col, val, day, n) SELECT '${table}', '${email}@day', ${domain}, ${dayOf(`x.${q(end)}`)}, count(*) FROM bulk_rows x WHERE ${at} > 0 AND x.${q(end)} IS NOT NULL GROUP BY 3, 4`,
        );
    }

    if (pg && email) await rebuildEmailFolds(ctx, table, email, spec.order);

    if (table === 'scans') {
      await rebuildOverview(ctx);
      await rebuildCodePairs(ctx);
    }
    await exec(ctx, 'DROP TABLE bulk_rows');
    // 003: the FTS5 trigram index of the list's contains filters (SQLite; PostgreSQL's pg_trgm
    // indexes were rebuilt with the other indexes).
    if (!pg)
      await exec(ctx, `INSERT INTO ${q(`${table}_search`)} (${q(`${table}_search`)}) VALUES ('rebuild')`);
    if (pg) await exec(ctx, `ANALYZE ${q(table)}`);
  }
  if (!pg) {
    // 026: the trigram index over every counter value; 027: over the e-mails' local parts.
    await exec(ctx, `INSERT INTO list_values_search (list_values_search) VALUES ('rebuild')`);
    await exec(ctx, 'DELETE FROM list_locals_search');
    await exec(
      ctx,
      `INSERT INTO list_locals_search (rowid, local) SELECT rowid, CASE WHEN instr(val, '@') > 0 THEN substr(val, 1, instr(val, '@') - 1) ELSE val END FROM list_totals WHERE col IN (${EMAILS})`,
    );
  }
  await counters.restoreTriggers();
  if (pg) await exec(ctx, 'ANALYZE list_totals, list_days, list_pairs, list_end_days');
}

/** 027: the counted e-mail columns; an address's domain is what follows its first '@'. */
const EMAILS = `'email', 'user_email'`;

/** 027, 028: each e-mail domain's counter rows, the sums of its addresses' rows (after the first '@'). */
async function rebuildEmailDomains(ctx: SeedContext, table: string) {
  const at = (v: string) => (ctx.dialect === 'postgres' ? `strpos(${v}, '@')` : `instr(${v}, '@')`);
  const domain = (v: string) => `substr(${v}, ${at(v)} + 1)`;
  const email = (c: string) => `${c} IN (${EMAILS})`;
  const side = (c: string, v: string) => ({
    col: `CASE WHEN ${email(c)} THEN ${c} || '@' ELSE ${c} END`,
    val: `CASE WHEN ${email(c)} THEN ${domain(v)} ELSE ${v} END`,
  });
  const [a, b] = [side('a', 'av'), side('b', 'bv')];
  for (const counters of ['list_totals', 'list_end_days'])
    await exec(ctx, `DELETE FROM ${counters} WHERE tbl = '${table}' AND col IN ('email@', 'user_email@')`);
  await exec(
    ctx,
    `INSERT INTO list_totals (tbl, col, val, n) SELECT tbl, col || '@', ${domain('val')}, sum(n) FROM list_totals WHERE tbl = '${table}' AND ${email('col')} AND ${at('val')} > 0 GROUP BY 1, 2, 3`,
  );
  // 028: the same per end day (month) in list_end_days.
  await exec(
    ctx,
    `INSERT INTO list_end_days (tbl, col, val, day, n) SELECT tbl, col || '@', ${domain('val')}, day, sum(n) FROM list_end_days WHERE tbl = '${table}' AND ${email('col')} AND ${at('val')} > 0 GROUP BY 1, 2, 3, 4`,
  );
  await exec(
    ctx,
    `DELETE FROM list_pairs WHERE tbl = '${table}' AND (a IN ('email@', 'user_email@') OR b IN ('email@', 'user_email@'))`,
  );
  await exec(
    ctx,
    `INSERT INTO list_pairs (tbl, a, b, av, bv, n) SELECT tbl, ${a.col}, ${b.col}, ${a.val}, ${b.val}, sum(n) FROM list_pairs WHERE tbl = '${table}' AND ((${email('a')} AND ${at('av')} > 0) OR (${email('b')} AND ${at('bv')} > 0)) GROUP BY 1, 2, 3, 4, 5`,
  );
}

/**
 * 035 (PostgreSQL): each folded address's counter rows (every run of digits one '0'), the sums of
 * its addresses' rows, and how many of those addresses hold rows; the same for the e-mail's pairs
 * with the columns of few values and its end months; its rows per month of the time column.
 */
async function rebuildEmailFolds(ctx: SeedContext, table: string, address: string, order: string) {
  const fold = (v: string) => `regexp_replace(${v}, '[0-9]+', '0', 'g')`;
  const email = (c: string) => `${c} IN (${EMAILS})`;
  const few = FOLDED_WITH.map((c) => `'${c}'`).join(', ');
  const side = (c: string, v: string) => ({
    col: `CASE WHEN ${email(c)} THEN ${c} || '#' ELSE ${c} END`,
    val: `CASE WHEN ${email(c)} THEN ${fold(v)} ELSE ${v} END`,
  });
  const [a, b] = [side('a', 'av'), side('b', 'bv')];
  await exec(ctx, `DELETE FROM list_totals WHERE tbl = '${table}' AND col LIKE '%#%'`);
  await exec(
    ctx,
    `INSERT INTO list_totals (tbl, col, val, n) SELECT tbl, col || '#', ${fold('val')}, sum(n) FROM list_totals WHERE tbl = '${table}' AND ${email('col')} GROUP BY 1, 2, 3`,
  );
  await exec(
    ctx,
    `INSERT INTO list_totals (tbl, col, val, n) SELECT tbl, col || '#addresses', ${fold('val')}, count(*) FROM list_totals WHERE tbl = '${table}' AND ${email('col')} AND n > 0 GROUP BY 1, 2, 3`,
  );
  await exec(ctx, `DELETE FROM list_end_days WHERE tbl = '${table}' AND col LIKE '%#'`);
  await exec(
    ctx,
    `INSERT INTO list_end_days (tbl, col, val, day, n) SELECT tbl, col || '#', ${fold('val')}, day, sum(n) FROM list_end_days WHERE tbl = '${table}' AND ${email('col')} GROUP BY 1, 2, 3, 4`,
  );
  // Per month of the time column, from the rows (bulk_rows holds the e-mail and the time).
  await exec(ctx, `DELETE FROM list_days WHERE tbl = '${table}' AND col LIKE '%#month'`);
  await exec(
    ctx,
    `INSERT INTO list_days (tbl, col, val, day, n) SELECT '${table}', '${address}#month', ${fold(`x.${q(address)}`)}, substr(x.${q(order)}, 1, 7), count(*) FROM bulk_rows x GROUP BY 3, 4`,
  );
  await exec(ctx, `DELETE FROM list_pairs WHERE tbl = '${table}' AND (a LIKE '%#' OR b LIKE '%#')`);
  await exec(
    ctx,
    `INSERT INTO list_pairs (tbl, a, b, av, bv, n) SELECT tbl, ${a.col}, ${b.col}, ${a.val}, ${b.val}, sum(n) FROM list_pairs WHERE tbl = '${table}' AND ((${email('a')} AND b IN (${few})) OR (${email('b')} AND a IN (${few}))) GROUP BY 1, 2, 3, 4, 5`,
  );
}

/**
 * 011: the codes of each scan (`scan_dtcs`) and the overview's scans per day and month by
 * segment, make, app version, e-mail (days only) and reported code. Reads `bulk_rows` (scans).
 */
async function rebuildOverview(ctx: SeedContext) {
  const pg = ctx.dialect === 'postgres';
  // 022's triggers on overview_days keep the scanner pairs one (e-mail, day) row at a time: on
  // SQLite ~1 ms of CPU a row, hours for the million e-mail days of a million scans. Off while
  // the counters are rewritten, then the pairs recomputed in one pass each (rebuildScanners).
  const scannerTriggers = pg
    ? []
    : await rows<{ name: string; sql: string }>(
        ctx,
        `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'overview_days' ORDER BY name`,
      );
  if (pg) await exec(ctx, 'ALTER TABLE overview_days DISABLE TRIGGER USER');
  for (const t of scannerTriggers) await exec(ctx, `DROP TRIGGER ${q(t.name)}`);
  await rebuildOverviewCounters(ctx);
  await rebuildScanners(ctx);
  for (const t of scannerTriggers) await exec(ctx, t.sql);
  if (pg) await exec(ctx, 'ALTER TABLE overview_days ENABLE TRIGGER USER');
}

/**
 * 022: each e-mail's scan days paired with its previous scan day, per day, per month and per day ×
 * previous month — what its triggers would have written row by row, from `overview_days`.
 */
async function rebuildScanners(ctx: SeedContext) {
  const pairs = `SELECT day, coalesce(lag(day) OVER (PARTITION BY key ORDER BY day), '') AS prev
    FROM overview_days WHERE topic = 'email' AND n > 0`;
  for (const table of ['overview_scanner_days', 'overview_scanner_months', 'overview_scanner_day_months'])
    await exec(ctx, `DELETE FROM ${table}`);
  await exec(
    ctx,
    `INSERT INTO overview_scanner_days (day, prev, n) SELECT day, prev, count(*) FROM (${pairs}) p GROUP BY day, prev`,
  );
  await exec(
    ctx,
    `INSERT INTO overview_scanner_months (month, prev, n) SELECT substr(day, 1, 7), prev, sum(n) FROM overview_scanner_days GROUP BY substr(day, 1, 7), prev`,
  );
  await exec(
    ctx,
    `INSERT INTO overview_scanner_day_months (day, prev, n) SELECT day, substr(prev, 1, 7), sum(n) FROM overview_scanner_days GROUP BY day, substr(prev, 1, 7)`,
  );
  if (ctx.dialect === 'postgres')
    await exec(ctx, 'ANALYZE overview_scanner_days, overview_scanner_months, overview_scanner_day_months');
}

/**
 * 043: scans per reported code and value of each other counted filter (the end time by its day,
 * the e-mail by its domain), from the codes just rebuilt and `bulk_rows` (scans).
 */
async function rebuildCodePairs(ctx: SeedContext) {
  const at = ctx.dialect === 'postgres' ? `strpos(x.email, '@')` : `instr(x.email, '@')`;
  const facets: [string, string][] = [
    ...['country_id', 'make', 'type', 'app_version'].map((c): [string, string] => [c, text(c)]),
    ['scan_end_time', dayOf('x.scan_end_time')],
    ['email@', `CASE WHEN ${at} > 0 THEN substr(x.email, ${at} + 1) END`],
  ];
  await exec(ctx, 'DELETE FROM list_code_pairs');
  for (const [col, value] of facets)
    await exec(
      ctx,
      `INSERT INTO list_code_pairs (dtc, col, val, n)
         SELECT d.dtc, '${col}', ${value}, count(*) FROM scan_dtcs d JOIN bulk_rows x ON x.id = d.scan_id
         WHERE ${value} IS NOT NULL GROUP BY d.dtc, ${value}`,
    );
  if (ctx.dialect === 'postgres') await exec(ctx, 'ANALYZE list_code_pairs');
}

/** 011's counters: the codes of each scan and the scans per day and month by topic. */
async function rebuildOverviewCounters(ctx: SeedContext) {
  const pg = ctx.dialect === 'postgres';
  await exec(ctx, 'DELETE FROM scan_dtcs');
  await exec(ctx, 'DELETE FROM overview_days');
  await exec(ctx, 'DELETE FROM overview_months');
  if (pg) {
    // scan_dtc_codes is 011's function, the one its trigger calls.
    await exec(
      ctx,
      'INSERT INTO scan_dtcs (scan_id, dtc, scan_start_time) SELECT s.id, c, s.scan_start_time FROM scans s CROSS JOIN LATERAL scan_dtc_codes(s.decoded_array) c',
    );
  } else {
    // The codes as 011's trigger reads them: a decoded array that is not JSON, or not of the
    // expected shape, gives none.
    const doc = 's.decoded_array';
    await exec(
      ctx,
      `INSERT INTO scan_dtcs (scan_id, dtc, scan_start_time)
       SELECT DISTINCT s.id, upper(trim(f.key)), s.scan_start_time FROM scans s,
         json_each(CASE WHEN json_valid(${doc}) THEN CASE WHEN json_type(${doc}) = 'array' THEN ${doc} ELSE '[]' END ELSE '[]' END) e,
         json_each(CASE WHEN e.type = 'object' THEN CASE WHEN json_type(e.value, '$.decodedFaultArray') = 'object'
           THEN json_extract(e.value, '$.decodedFaultArray') ELSE '{}' END ELSE '{}' END) f
       WHERE f.key IS NOT NULL AND trim(f.key) <> '' AND length(f.key) <= 40`,
    );
  }
  const topics: [string, string, boolean][] = [
    ['segment', `coalesce((SELECT m.segment FROM makes m WHERE m.name = x.make), 'other')`, false],
    ['make', 'x.make', true],
    ['app_version', `coalesce(x.app_version, '')`, true],
    ['email', 'x.email', false],
  ];
  for (const [topic, value, monthly] of topics) {
    await exec(
      ctx,
      `INSERT INTO overview_days (topic, key, day, n) SELECT '${topic}', k, d, count(*) FROM (SELECT ${value} AS k, ${dayOf('x.scan_start_time')} AS d FROM bulk_rows x) g GROUP BY k, d`,
    );
    if (monthly)
      await exec(
        ctx,
        `INSERT INTO overview_months (topic, key, month, n) SELECT '${topic}', k, m, count(*) FROM (SELECT ${value} AS k, ${monthOf('x.scan_start_time')} AS m FROM bulk_rows x) g GROUP BY k, m`,
      );
  }
  await exec(
    ctx,
    `INSERT INTO overview_days (topic, key, day, n) SELECT 'dtc', dtc, ${dayOf('scan_start_time')}, count(*) FROM scan_dtcs GROUP BY dtc, ${dayOf('scan_start_time')}`,
  );
  await exec(
    ctx,
    `INSERT INTO overview_months (topic, key, month, n) SELECT 'dtc', dtc, ${monthOf('scan_start_time')}, count(*) FROM scan_dtcs GROUP BY dtc, ${monthOf('scan_start_time')}`,
  );
  if (pg) await exec(ctx, 'ANALYZE scan_dtcs, overview_days, overview_months');
}

/**
 * 020: app users per plan, per status and per day of creation (034: plan and status per day; 040:
 * per block of ids); SQLite's FTS5.
 */
async function rebuildUsers(ctx: SeedContext) {
  await exec(ctx, 'DELETE FROM user_counts');
  for (const [col, val, day] of [
    ['plan', 'x.plan', `''`],
    ['status', 'x.status', `''`],
    ['created', `''`, dayOf('x.created_at')],
    // 034: per case-folded plan and status per creation day.
    ['plan@day', 'lower(x.plan)', dayOf('x.created_at')],
    ['status@day', 'lower(x.status)', dayOf('x.created_at')],
  ])
    await exec(
      ctx,
      `INSERT INTO user_counts (col, val, day, n) SELECT '${col}', ${val}, ${day}, count(*) FROM app_users x WHERE ${val} IS NOT NULL AND ${day} IS NOT NULL GROUP BY 2, 3`,
    );
  // 036 (PostgreSQL): per folded address, alone and with the folded status, plan or creation month.
  if (ctx.dialect === 'postgres')
    for (const [col, day] of [
      ['email#', `''`],
      ['email#status', 'lower(x.status)'],
      ['email#plan', 'lower(x.plan)'],
      ['email#month', 'substr(x.created_at, 1, 7)'],
    ])
      await exec(
        ctx,
        `INSERT INTO user_counts (col, val, day, n) SELECT '${col}', regexp_replace(x.email, '[0-9]+', '0', 'g'), ${day}, count(*) FROM app_users x WHERE x.email IS NOT NULL AND ${day} IS NOT NULL GROUP BY 2, 3`,
      );
  // 040: per case-folded plan, status and creation month per block of ids.
  const block = idBlockKey(ctx.dialect, sql.ref('x.id')).compile(ctx.kx).sql;
  for (const [col, val] of [
    ['plan#ids', 'lower(x.plan)'],
    ['status#ids', 'lower(x.status)'],
    ['created#ids', 'substr(x.created_at, 1, 7)'],
  ])
    await exec(
      ctx,
      `INSERT INTO user_counts (col, val, day, n) SELECT '${col}', ${val}, ${block}, count(*) FROM app_users x WHERE ${val} IS NOT NULL GROUP BY 2, 3`,
    );
  if (ctx.dialect === 'sqlite')
    await exec(ctx, `INSERT INTO app_users_search (app_users_search) VALUES ('rebuild')`);
  else await exec(ctx, 'ANALYZE app_users, user_counts');
}
