import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * PostgreSQL trigram (GIN) indexes built after a big import's commit instead of inside it
 * (issue 15 item 5). Building `fault_codes`' three trigram indexes over 1,000,000 rows takes
 * longer than everything else of the import together (title 22 s, dtc 5 s, make 5 s at load 8;
 * PostgreSQL builds a GIN index on one core, and maintaining it row by row costs more still), and
 * they only speed up "contains" searches: without them such a search reads the table, slower but
 * with the same answer. So a big import drops them in its transaction, writes their definitions
 * here in the same transaction (a crash cannot lose them: the rows and the note commit together),
 * and after its commit they are built again, one transaction per index that also removes its
 * note (a crash mid-build leaves the note, never half an index). A build takes a SHARE lock:
 * readers go on, writers of that table (another import, an edit, an undo) wait for it. Not
 * CREATE INDEX CONCURRENTLY: it scans the table twice and waits for every older transaction of
 * the database, however unrelated. Whatever a crashed process left is built after the next big
 * import, or by `buildDeferredIndexes` at start.
 *
 * The note's table is made on first need (PostgreSQL only; SQLite never defers).
 */
const TABLE = 'import_deferred_indexes';

/** The index definitions dropped in `trx`, noted to be built after its commit. */
export async function deferIndexes(
  trx: Transaction<Database>,
  table: string,
  indexes: { name: string; def: string }[],
) {
  if (indexes.length === 0) return;
  // Two first big imports of different tables would otherwise race to create the note's table.
  await sql`select pg_advisory_xact_lock(hashtext(${TABLE}))`.execute(trx);
  await sql
    .raw(
      `create table if not exists ${TABLE} (name text primary key, table_name text not null, definition text not null)`,
    )
    .execute(trx);
  for (const index of indexes)
    await sql`insert into ${sql.table(TABLE)} (name, table_name, definition)
      values (${index.name}, ${table}, ${index.def})
      on conflict (name) do update set table_name = excluded.table_name, definition = excluded.definition`.execute(
      trx,
    );
}

const running = new WeakMap<Db, Promise<void>>();

/**
 * Builds every noted index (once per process at a time; a second call while one runs returns
 * the same promise, which also lets tests wait for the builds). Never throws: a failure is
 * logged and the note kept, so the next call tries again.
 */
export function buildDeferredIndexes(db: Db, log?: FastifyBaseLogger): Promise<void> {
  if (db.dialect !== 'postgres') return Promise.resolve();
  const current = running.get(db);
  if (current) return current.then(() => buildDeferredIndexes(db, log));
  const run = buildAll(db, log)
    .catch((error) => log?.error({ err: error }, 'could not build the indexes an import deferred'))
    .finally(() => running.delete(db));
  running.set(db, run);
  return run;
}

/** The builds under way in this process, if any (tests wait for them). */
export function deferredBuilds(db: Db): Promise<void> {
  return running.get(db) ?? Promise.resolve();
}

async function buildAll(db: Db, log?: FastifyBaseLogger) {
  const exists = await sql<{ t: string | null }>`select to_regclass(${TABLE})::text as t`.execute(db.kysely);
  if (!exists.rows[0]?.t) return;
  for (;;) {
    const started = performance.now();
    // One index per transaction: built and its note removed together, so a crash mid-build
    // leaves the note (and no half-built index) for the next builder.
    const built = await db.kysely.transaction().execute(async (trx) => {
      const first = await sql<{
        table_name: string;
      }>`select table_name from ${sql.table(TABLE)} order by name limit 1`.execute(trx);
      const table = first.rows[0]?.table_name;
      if (!table) return null;
      // The table first, as an import takes it (then its notes): the two cannot deadlock. SHARE:
      // readers go on, writers of the table wait for the build.
      await sql.raw(`lock table "${table.replaceAll('"', '""')}" in share mode`).execute(trx);
      const pending = await sql<{
        name: string;
        definition: string;
      }>`select name, definition from ${sql.table(TABLE)} where table_name = ${table} order by name limit 1 for update`.execute(
        trx,
      );
      const next = pending.rows[0];
      if (!next) return '';
      await sql.raw(`set local maintenance_work_mem = '256MB'`).execute(trx);
      await sql
        .raw(next.definition.replace(/^CREATE (UNIQUE )?INDEX /i, 'CREATE $1INDEX IF NOT EXISTS '))
        .execute(trx);
      await sql`delete from ${sql.table(TABLE)} where name = ${next.name}`.execute(trx);
      return next.name;
    });
    if (built === '') continue;
    if (!built) return;
    log?.info({ index: built, ms: Math.round(performance.now() - started) }, 'deferred index built');
  }
}
