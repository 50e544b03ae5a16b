import fs from 'node:fs';
import { MAX_ROW_ERRORS } from '@obd/contract';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deferIndexes } from './deferredIndexes.ts';
import { copyRows } from './pgCopy.ts';
import { importConstants, Phases, type RowProblems, type StagedSheet, type Values } from './sheet.ts';

/**
 * Pass 2 on PostgreSQL (issue 15 item 5): a staged sheet goes into the table set-based.
 *
 * 1. The spooled batches are loaded into a temporary table (no WAL, no index, no constraint:
 *    the cheap part), each batch as the one jsonb parameter of a constant statement.
 * 2. The table is locked against other writers (SHARE ROW EXCLUSIVE: readers go on, another
 *    import, an edit or an undo of the same table waits for the commit), so the stored keys
 *    cannot change until the commit and the database duplicates are decided exactly by an
 *    anti-join, with a plain INSERT … SELECT instead of ON CONFLICT (whose speculative
 *    insertion costs more per row than the insert itself).
 * 3. When the load is big (≥ 50,000 rows) and the table holds at most twice as many rows, the
 *    table's indexes other than the primary key (the natural key's unique constraint and the
 *    trigram GIN indexes included) are dropped first and built again once after the insert,
 *    inside the same transaction: building an index over sorted input costs a fraction of
 *    maintaining it row by row (1,000,000 fault codes: the insert took 67 s with every index,
 *    ~8 s with the primary key only, then ~14 s to build the others, at a load of 8–11).
 *    Dropping takes an ACCESS EXCLUSIVE lock, so readers of that table wait until the commit;
 *    a failure rolls the indexes back with the rows. A preview never drops them (it rolls back
 *    anyway; slower on a big file, but nobody waits for a look). The rebuilt unique constraint re-checks
 *    the keys: a repeat that slipped through fails the import, it never stores a duplicate.
 */
export async function writeSheetPostgres(
  trx: Transaction<Database>,
  staged: StagedSheet,
  options: {
    importId: number;
    problems: RowProblems;
    onProgress(written: number, fraction: number): void;
    /** A preview rolls back: it keeps the indexes so that readers of the table never wait for it. */
    keepIndexes?: boolean;
    phases?: Phases;
  },
): Promise<{ deferred: number }> {
  const started = performance.now();
  const phases = options.phases ?? new Phases();
  phases.start();
  const { plan, stats } = staged;
  const constants = importConstants(plan, options.importId);
  const target = plan.target;
  const table = quote(target.table);
  const stage = quote(`import_stage_${target.table}`);

  // For this transaction: index builds and the anti-join's sorts in memory, and no JIT
  // compilation (~0.8 s of a 1,000,000-row anti-join, measured with EXPLAIN ANALYZE).
  await sql.raw(`set local maintenance_work_mem = '256MB'`).execute(trx);
  await sql.raw(`set local work_mem = '128MB'`).execute(trx);
  await sql.raw('set local jit = off').execute(trx);
  await sql.raw(`drop table if exists ${stage}`).execute(trx);
  await sql
    .raw(
      `create temporary table ${stage} (${target.columns
        .map((c, i) => `${quote(c)} ${target.types[i]}`)
        .join(', ')}, "__row" int4) on commit drop`,
    )
    .execute(trx);
  // 1. The rows into the stage table, as COPY text (see pgCopy.ts).
  await copyRows(
    trx,
    `copy ${stage} (${[...target.columns.map(quote), '"__row"'].join(', ')}) from stdin`,
    copyChunks(staged, options.onProgress),
  );
  phases.mark('stage load');

  // 2. The table locked against other writers: its keys stay as they are until the commit.
  await sql.raw(`lock table ${table} in share row exclusive mode`).execute(trx);
  const unique = target.unique ?? [];
  const match = unique
    .map((i) => `t.${quote(target.columns[i] as string)} = s.${quote(target.columns[i] as string)}`)
    .join(' and ');
  const any = await sql<{
    any: boolean;
  }>`select exists (select 1 from ${sql.table(target.table)}) as any`.execute(trx);
  const stored = any.rows[0]?.any === true;
  phases.mark('lock');

  // 3. The database duplicates, in one anti-join: how many, and the first ones (as many as the
  // row problems and duplicate lists want), in row order.
  let duplicates = 0;
  if (unique.length > 0 && stored) {
    const wanted = Math.max(
      MAX_ROW_ERRORS - options.problems.list.length,
      plan.moreDatabaseDuplicates?.() ?? 0,
    );
    const found = await trx.executeQuery(
      CompiledQuery.raw(
        `select s."__row" as row, json_build_array(${target.columns.map((c) => `s.${quote(c)}`).join(', ')})::text as value, count(*) over () as n from ${stage} s where exists (select 1 from ${table} t where ${match}) order by s."__row" limit $1`,
        [Math.max(wanted, 1)],
      ),
    );
    const rows = found.rows as { row: number; value: string; n: string }[];
    duplicates = Number(rows[0]?.n ?? 0);
    for (const r of rows.slice(0, wanted)) {
      const values = JSON.parse(r.value) as Values;
      const what = plan.describe ? `${plan.describe(values)} is ` : '';
      options.problems.add(plan.label, r.row, `${what}already in the database`);
      plan.onDatabaseDuplicate?.(values, r.row);
      options.problems.count--; // counted below with the others
    }
  }
  phases.mark('find duplicates');

  // 4. A big load into a table not much bigger: its indexes are built again after the insert.
  const adding = staged.accepted - duplicates;
  let rebuild: string[] = [];
  let deferred = 0;
  if (!options.keepIndexes && adding >= REBUILD_MIN_ROWS) {
    const bound = REBUILD_MAX_RATIO * adding;
    const count = stored
      ? await sql<{
          n: string;
        }>`select count(*) as n from (select 1 from ${sql.table(target.table)} limit ${bound + 1}) x`.execute(
          trx,
        )
      : { rows: [{ n: '0' }] };
    if (Number(count.rows[0]?.n ?? 0) <= bound) {
      const dropped = await dropIndexes(trx, target.table);
      rebuild = dropped.again;
      await deferIndexes(trx, target.table, dropped.deferred);
      deferred = dropped.deferred.length;
    }
  }
  phases.mark('drop indexes');

  // 5. One set-based insert of the new rows (no anti-join when none is stored).
  let inserted = 0;
  if (adding > 0) {
    const constantParams = constants.values.map((_, i) => `$${i + 1}::${constants.types[i]}`);
    const columns = [...target.columns, ...constants.columns].map(quote).join(', ');
    const insert = `insert into ${table} (${columns}) select ${[...target.columns.map((c) => `s.${quote(c)}`), ...constantParams].join(', ')} from ${stage} s${
      duplicates > 0 ? ` where not exists (select 1 from ${table} t where ${match}) order by s."__row"` : ''
    }`;
    const result = await trx.executeQuery(CompiledQuery.raw(insert, constants.values));
    inserted = Number(result.numAffectedRows ?? 0);
  }
  stats.inserted += inserted;
  stats.inDatabase += staged.accepted - inserted;
  options.problems.count += staged.accepted - inserted;
  options.onProgress(staged.accepted, 0.75);
  phases.mark('insert');
  for (const [i, index] of rebuild.entries()) {
    await sql.raw(index).execute(trx);
    phases.mark(`build ${/(?:index|constraint) "?(\w+)"?/i.exec(index)?.[1] ?? i}`);
    options.onProgress(staged.accepted, 0.75 + (0.25 * (i + 1)) / rebuild.length);
  }
  await sql.raw(`drop table ${stage}`).execute(trx);
  stats.ms += performance.now() - started;
  return { deferred };
}

/** A staged sheet's spool (COPY text already, see stageSheet) in 1 MB chunks; progress by bytes. */
async function* copyChunks(
  staged: StagedSheet,
  onProgress: (written: number, fraction: number) => void,
): AsyncGenerator<Buffer> {
  const size = Math.max((await fs.promises.stat(staged.spool)).size, 1);
  let sent = 0;
  for await (const chunk of fs.createReadStream(staged.spool, { highWaterMark: 1 << 20 })) {
    yield chunk as Buffer;
    sent += (chunk as Buffer).length;
    const fraction = sent / size;
    onProgress(Math.round(staged.accepted * fraction), 0.5 * fraction);
  }
}

/**
 * Locks the tables an import fills against other writers (SHARE ROW EXCLUSIVE: conflicts with
 * itself and with any INSERT, UPDATE or DELETE, not with reads), in name order. Taken first in
 * the import's transaction: an import that first deletes (Update commands) and then asks for the
 * lock could otherwise deadlock with another one doing the same.
 */
export async function lockTargets(trx: Transaction<Database>, tables: string[]) {
  for (const table of [...new Set(tables)].sort())
    await sql.raw(`lock table ${quote(table)} in share row exclusive mode`).execute(trx);
}

/** Below this many rows to write, a sheet goes into the table's indexes as they are. */
const REBUILD_MIN_ROWS = 50_000;
/**
 * Up to this many stored rows per row added, building the indexes again beats maintaining them:
 * measured on fault_codes (psql, load 9-11), maintaining them costs ~59 s per 1,000,000 rows
 * added, building them ~14 s per 1,000,000 rows in the table after the load, so the break-even
 * is near 3 stored rows per added row.
 */
const REBUILD_MAX_RATIO = 2;

/**
 * Drops a table's indexes and unique constraints other than its primary key (and any a foreign
 * key depends on); returns the statements that build them again, constraints last.
 */
async function dropIndexes(
  trx: Transaction<Database>,
  table: string,
): Promise<{ again: string[]; deferred: { name: string; def: string }[] }> {
  const rows = await sql<{ name: string; def: string; constraint: string | null; condef: string | null }>`
    select i.relname as name, pg_get_indexdef(i.oid) as def, c.conname as constraint,
      pg_get_constraintdef(c.oid) as condef
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    left join pg_constraint c on c.conindid = x.indexrelid and c.conrelid = x.indrelid
    where x.indrelid = to_regclass(${table}) and not x.indisprimary
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = x.indexrelid)
    order by i.relname`.execute(trx);
  const again: string[] = [];
  const constraints: string[] = [];
  const deferred: { name: string; def: string }[] = [];
  for (const r of rows.rows) {
    if (r.constraint) {
      await sql.raw(`alter table ${quote(table)} drop constraint ${quote(r.constraint)}`).execute(trx);
      constraints.push(`alter table ${quote(table)} add constraint ${quote(r.constraint)} ${r.condef}`);
    } else {
      await sql.raw(`drop index ${quote(r.name)}`).execute(trx);
      // Trigram indexes: built after the commit (deferredIndexes.ts); the others now.
      if (/ USING gin /i.test(r.def)) deferred.push({ name: r.name, def: r.def });
      else again.push(r.def);
    }
  }
  return { again: [...again, ...constraints], deferred };
}

const quote = (name: string) => `"${name}"`;
