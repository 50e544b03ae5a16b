import fs from 'node:fs';
import { MAX_ROW_ERRORS } from '@obd/contract';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { Db, Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import {
  importConstants,
  Phases,
  type RowProblems,
  type StagedSheet,
  type TargetTable,
  type Values,
} from './sheet.ts';

/*
 * Pass 2 on SQLite (pass 1, reading into the spool, is sheet.ts; PostgreSQL's pass 2 is
 * bulkPostgres.ts): the spooled batches inserted inside the import's transaction.
 */

/** The lines of a spool file (by path, or an open handle read from its start), as written. */
export async function* spooled(file: string | fs.promises.FileHandle): AsyncGenerator<string> {
  let carry = '';
  const options = { encoding: 'utf8', highWaterMark: 1 << 20 } as const;
  const stream =
    typeof file === 'string'
      ? fs.createReadStream(file, options)
      : file.createReadStream({ ...options, start: 0, autoClose: false });
  for await (const chunk of stream) {
    const text = carry + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      yield text.slice(start, nl);
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (carry.trim()) yield carry;
}

/**
 * The lines of a spool file as bytes, never decoded: SQLite takes each as a blob read as text
 * (`cast(? as text)`), so a million rows' ~100 MB of JSON is neither decoded into strings nor
 * cut up by string operations (~1.4 s of the main thread per million rows, plus their garbage).
 */
export async function* spooledBytes(file: string): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      yield pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  const rest = Buffer.concat(pending);
  if (rest.toString('latin1').trim()) yield rest;
}

/** Below this many rows to write, a sheet is inserted into the table's indexes as they are. */
const REBUILD_MIN_ROWS = 50_000;
/**
 * Up to this many stored rows per row added, the plain indexes are dropped and built again
 * (1,000,000 fault codes into a table of 1,000,000: see bench/RESULTS.md, session 7).
 */
const REBUILD_MAX_RATIO = 2;
/**
 * SQLite page cache during a big write, in KiB: the natural key's unique index of a table that
 * already holds rows is inserted into at every one of its pages; with the default 2 MB cache each
 * insert could evict a dirty page, written to the WAL again and again.
 */
const BULK_CACHE_KIB = 32 * 1024;

/**
 * Pass 2: inserts a staged sheet within the transaction `trx`.
 *
 * Each spooled batch goes to the database as the one JSON parameter of a constant statement
 * (`INSERT … SELECT … FROM jsonb_each(?)` / `json_array_elements($n)`): the database unpacks the
 * rows itself, so no statement is compiled per batch and no value is bound one by one. Rows whose
 * natural key is stored are skipped by ON CONFLICT DO NOTHING and counted from the difference;
 * which rows they were is asked only while row problems or duplicate lists still have room.
 */
export async function writeSheet(
  trx: Transaction<Database>,
  dialect: Dialect,
  staged: StagedSheet,
  options: { importId: number; problems: RowProblems; onProgress(written: number): void; phases?: Phases },
) {
  const phases = options.phases ?? new Phases();
  phases.start();
  const started = performance.now();
  const { plan, stats } = staged;
  const constants = importConstants(plan, options.importId);
  const target = plan.target;
  const table = quote(target.table);
  const columns = [...target.columns, ...constants.columns].map(quote).join(', ');
  const sqlite = dialect === 'sqlite';
  // Each spooled row is its values in column order, then its row number.
  const fields = target.columns.map((_, i) => (sqlite ? `value->>${i}` : `(e->>${i})::${target.types[i]}`));
  const constantParams = constants.values.map((_, i) => (sqlite ? '?' : `$${i + 1}::${constants.types[i]}`));
  // PostgreSQL: jsonb, parsed once per batch; with json every `->>` re-parses the row's text
  // (the 1,000,000-row write took ~47 s with json, ~34 s with jsonb).
  const rowsParam = sqlite
    ? 'jsonb_each(cast(? as text))'
    : `jsonb_array_elements($${constants.values.length + 1}::jsonb) as e`;
  const conflict = target.unique ? ' on conflict do nothing' : '';
  const insert = `insert into ${table} (${columns}) select ${[...fields, ...constantParams].join(', ')} from ${rowsParam} where true${conflict}`;
  // When most rows of a batch were already stored (a file uploaded again), the next batches
  // skip stored keys with an index probe first: ON CONFLICT costs far more per row than that.
  const match = (target.unique ?? [])
    .map((i) => `t.${quote(target.columns[i] as string)} = ${fields[i]}`)
    .join(' and ');
  const insertNew = target.unique
    ? `insert into ${table} (${columns}) select ${[...fields, ...constantParams].join(', ')} from ${rowsParam} where not exists (select 1 from ${table} t where ${match})${conflict}`
    : insert;
  let mostlyStored = false;

  let storedBefore = 0;
  let rebuild: { name: string; sql: string }[] = [];
  if (target.unique) {
    const max = await sql<{
      id: number | null;
    }>`select max(id) as id from ${sql.table(target.table)}`.execute(trx);
    storedBefore = Number(max.rows[0]?.id ?? 0);
  }
  let cacheBefore: number | undefined;
  /** Rows stored before the import, when a big write may drop the plain indexes (else -1). */
  let stored = -1;
  if (sqlite && staged.accepted >= REBUILD_MIN_ROWS) {
    const count = await sql<{ n: number }>`select count(*) as n from ${sql.table(target.table)}`.execute(trx);
    stored = Number(count.rows[0]?.n ?? 0);
    if (stored > REBUILD_MAX_RATIO * staged.accepted) stored = -1;
  }
  phases.mark('drop indexes');
  let listing = 0;
  let dropped = false;
  /** Once the natural key is dropped: the stored rows of each later batch, by batch index. */
  let storedLater: Map<number, [number, Values][]> | undefined;
  // The same insert leaving out the rows given as a JSON array of row numbers.
  const rowNumber = sqlite ? `value->>${target.columns.length}` : '';
  const insertExcept = `${insert.replace(/ where true.*$/, '')} where ${rowNumber} not in (select j.value from json_each(?) j)`;

  try {
    let written = 0;
    let k = 0;
    for await (const bytes of spooledBytes(staged.spool)) {
      const batch = sqlite ? bytes : bytes.toString('utf8');
      // Without the natural key, a batch's stored rows (found before it was dropped) are left out.
      const known = storedLater?.get(k);
      const result = storedLater
        ? await trx.executeQuery(
            CompiledQuery.raw(known ? insertExcept : insert, [
              ...constants.values,
              batch,
              ...(known ? [JSON.stringify(known.map(([row]) => row))] : []),
            ]),
          )
        : await trx.executeQuery(
            CompiledQuery.raw(mostlyStored ? insertNew : insert, [...constants.values, batch]),
          );
      const rows = staged.batches[k++] as number;
      const inserted: number = Number(result.numAffectedRows ?? 0);
      mostlyStored = inserted * 2 < rows;
      // The plain indexes are dropped (and built once at the end) after the first batch of mostly
      // new rows, never for a file whose rows are all stored (one uploaded again inserts nothing,
      // and rebuilding the indexes over the whole table for it cost ~2 s at a million rows).
      if (stored >= 0 && !dropped && !mostlyStored && staged.accepted - written >= REBUILD_MIN_ROWS) {
        dropped = true;
        // Into a table that holds rows, each new row would go into the natural key at a random
        // place (1,000,000 into 1,000,000: ~6 s of the main thread). When the key is the table's
        // only unique index, the rest of the file's stored rows are found first (index probes only
        // read), then the key is dropped and built again with the others: ~25 % less CPU measured.
        const probe = stored > 0 && sqlite && (await onlyUniqueIndex(trx, target));
        // From the batch just inserted (k - 1): its stored rows are listed below from this map, and
        // its own new rows have ids above storedBefore, so they never count as stored.
        if (probe) storedLater = await storedInBatches(trx, target, staged.spool, k - 1, storedBefore);
        rebuild = await dropSecondaryIndexes(trx, target.table, stored, probe);
        // Else the natural key stays, and a bigger page cache keeps its pages. Not into an empty
        // table (rows only append; the cache would just hold dirty pages, ~45 MB more resident
        // memory) nor for rows mostly stored (probes only read).
        if (stored > 0 && !probe) {
          const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(trx);
          cacheBefore = cache.rows[0]?.cache_size;
          await sql.raw(`pragma cache_size = -${BULK_CACHE_KIB}`).execute(trx);
        }
        phases.mark('drop indexes');
      }
      stats.inserted += inserted;
      if (target.unique && inserted < rows) {
        const duplicates = rows - inserted;
        stats.inDatabase += duplicates;
        const wanted = Math.max(
          MAX_ROW_ERRORS - options.problems.list.length,
          plan.moreDatabaseDuplicates?.() ?? 0,
        );
        const asked = performance.now();
        const found =
          wanted <= 0
            ? []
            : storedLater
              ? (storedLater.get(k - 1) ?? []).slice(0, Math.min(wanted, duplicates))
              : await storedRows(trx, dialect, target, batch, storedBefore, Math.min(wanted, duplicates));
        listing += performance.now() - asked;
        for (const [row, values] of found) {
          const what = plan.describe ? `${plan.describe(values)} is ` : '';
          options.problems.add(plan.label, row, `${what}already in the database`);
          plan.onDatabaseDuplicate?.(values, row);
        }
        options.problems.count += duplicates - found.length;
      }
      written += rows;
      options.onProgress(written);
    }
    phases.mark('insert');
    phases.ms.insert = Math.round((phases.ms.insert ?? 0) - listing);
    phases.ms['list duplicates'] = Math.round((phases.ms['list duplicates'] ?? 0) + listing);
    for (const index of rebuild) {
      await sql.raw(index.sql).execute(trx);
      phases.mark(`build ${index.name}`);
    }
  } finally {
    // The connection's own cache size again, whatever happened (it outlives the transaction).
    if (cacheBefore !== undefined) await sql.raw(`pragma cache_size = ${Number(cacheBefore)}`).execute(trx);
  }
  stats.ms += performance.now() - started;
}

/**
 * After a big write's commit on SQLite, the connection's page cache (up to 16 MB, filled by the
 * write) is handed back (`PRAGMA shrink_memory`): kept, it sat under the next import's peak. A
 * file of 1,000,000 rows uploaded again peaked at 291–299 MB without it, 276–292 MB with it
 * (session 11, load 10–15). The pages are read again from the OS's cache when next needed.
 */
export async function releaseCache(db: Db, rows: number) {
  if (db.dialect === 'sqlite' && rows >= REBUILD_MIN_ROWS)
    await sql.raw('pragma shrink_memory').execute(db.kysely);
}

/** The rows of a batch whose key was already stored before this import (id ≤ `storedBefore`). */
async function storedRows(
  trx: Transaction<Database>,
  dialect: Dialect,
  target: TargetTable,
  batch: Buffer | string,
  storedBefore: number,
  limit: number,
): Promise<[number, Values][]> {
  const unique = target.unique ?? [];
  const sqlite = dialect === 'sqlite';
  const match = unique
    .map((i) => {
      const column = quote(target.columns[i] as string);
      return sqlite ? `t.${column} = s.value->>${i}` : `t.${column} = (s.e->>${i})::${target.types[i]}`;
    })
    .join(' and ');
  const query = sqlite
    ? `select json(s.value) as value from jsonb_each(cast(? as text)) s where exists (select 1 from ${quote(target.table)} t where ${match} and t.id <= ?) limit ?`
    : `select s.e::text as value from jsonb_array_elements($1::jsonb) as s(e) where exists (select 1 from ${quote(target.table)} t where ${match} and t.id <= $2) limit $3`;
  const result = await trx.executeQuery(CompiledQuery.raw(query, [batch, storedBefore, limit]));
  return (result.rows as { value: string }[]).map((r) => {
    const values = JSON.parse(r.value) as Values;
    const row = values.pop() as number;
    return [row, values];
  });
}

/**
 * SQLite bulk load: a big import into a table no bigger than itself is faster without the
 * table's plain (non-unique) indexes, rebuilt once at the end from their own definitions. Unique
 * indexes stay, as they decide the database duplicates — unless the table is empty: then no row
 * can meet a stored key, the file's own repeats were already set aside while reading, and the
 * unique index too is built once at the end (1,000,000 fault codes: ~2.9 s of inserts against
 * ~1.5 s plus ~0.4 s for the index; migration 006 made the fault tables' keys droppable indexes).
 * Should a repeat slip through, rebuilding the unique index fails and the import rolls back.
 * It all happens inside the import transaction, so a failure rolls the indexes back too. Not
 * done on PostgreSQL: there dropping an index locks its table against readers until the
 * transaction ends, and it gained little (the insert without the trigram indexes still took
 * ~35 s of the ~47 s, plus ~8 s to rebuild them).
 */
async function dropSecondaryIndexes(
  trx: Transaction<Database>,
  table: string,
  stored: number,
  /** Drop the unique index too, though the table holds rows (its stored rows are known). */
  withUnique = false,
) {
  const unique = stored === 0 || withUnique ? sql`` : sql`and sql not like 'CREATE UNIQUE%'`;
  const indexes = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
    where type = 'index' and tbl_name = ${table} and sql is not null ${unique}`.execute(trx);
  const dropped = indexes.rows.filter((index) => !(stored > 0 && appends(index.sql)));
  for (const index of dropped) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return dropped;
}

/**
 * Whether the natural key is the table's one unique index, and a droppable one (no UNIQUE
 * constraint's automatic index): then ON CONFLICT decides nothing but the database duplicates.
 */
async function onlyUniqueIndex(trx: Transaction<Database>, target: TargetTable): Promise<boolean> {
  if (!target.unique) return false;
  const found = await sql<{ name: string; sql: string | null }>`select name, sql from sqlite_master
    where type = 'index' and tbl_name = ${target.table}`.execute(trx);
  const unique = found.rows.filter((i) => i.sql === null || /^CREATE UNIQUE/i.test(i.sql));
  return unique.length === 1 && unique[0]?.sql !== null;
}

/**
 * The rows of the spool's batches from `from` on whose natural key is stored (before this
 * import: id ≤ `storedBefore`), by batch index: each row number with its values.
 */
async function storedInBatches(
  trx: Transaction<Database>,
  target: TargetTable,
  spool: string,
  from: number,
  storedBefore: number,
): Promise<Map<number, [number, Values][]>> {
  const found = new Map<number, [number, Values][]>();
  let k = 0;
  for await (const bytes of spooledBytes(spool)) {
    if (k >= from) {
      const rows = await storedRows(trx, 'sqlite', target, bytes, storedBefore, -1);
      if (rows.length > 0) found.set(k, rows);
    }
    k++;
  }
  return found;
}

/**
 * Whether new rows land at the right-hand end of an index: on `import_id` (every new row has the
 * newest import's id) or on one column then `id` (`(generic, id)`: the end of each of its few
 * groups). Into a table that holds rows such an index is kept and maintained, cheaper than building
 * it again over the whole table (as bulkPostgres.ts does on PostgreSQL).
 */
function appends(definition: string): boolean {
  return /\(\s*(?:"?import_id"?|"?\w+"?\s*,\s*"?id"?)\s*\)\s*$/i.test(definition);
}

const quote = (name: string) => `"${name}"`;
