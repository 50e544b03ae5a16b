import { type Insertable, type Kysely, sql } from 'kysely';
import type { Db, Dialect } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';

/** What every part of the seed works with: the open transaction and the dialect behind it. */
export interface SeedContext {
  kx: Kysely<Database>;
  dialect: Dialect;
  log: (msg: string) => void;
}

export type TableName = keyof Database & string;
export type Row<T extends TableName> = Insertable<Database[T]>;

/**
 * Rows per multi-row INSERT. Each row binds one parameter per column; SQLite stops at 32,766
 * bound parameters per statement and PostgreSQL at 65,535. Within those limits bigger is faster
 * (fewer round trips and statement preparations), so fill up to just under each bound.
 */
export function batchRows(dialect: Dialect, columns: number): number {
  const maxParams = dialect === 'sqlite' ? 32_000 : 60_000;
  return Math.max(1, Math.floor(maxParams / Math.max(1, columns)));
}

/** Inserts all rows, in as few statements as the parameter limit allows. */
export async function insertAll<T extends TableName>(ctx: SeedContext, table: T, rows: readonly Row<T>[]) {
  const first = rows[0];
  if (!first) return;
  const size = batchRows(ctx.dialect, Object.keys(first).length);
  for (let i = 0; i < rows.length; i += size) {
    // Kysely cannot type `values` over a generic table name; Row<T> is that table's insert type.
    await ctx.kx
      .insertInto(table)
      .values(rows.slice(i, i + size) as never)
      .execute();
  }
}

/** SQLite page cache limit while seeding, in KiB: 1 GiB. */
const SEED_CACHE_KIB = 1_048_576;

/**
 * Runs a bulk load with a large SQLite page cache, then restores the connection's setting.
 * The default cache (2 MiB) thrashes on the random-order inserts into the activity tables'
 * many indexes (email, plate, times, search): a million-scan append spent half its time in I/O.
 * SQLite takes cache pages only as it touches them, so the demo seed (~100 MB) uses far less.
 */
export async function withBulkLoadSettings<T>(db: Db, load: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'sqlite') return load();
  const before = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(db.kysely);
  const previous = Number(before.rows[0]?.cache_size ?? -2000);
  await sql.raw(`PRAGMA cache_size = -${SEED_CACHE_KIB}`).execute(db.kysely);
  try {
    return await load();
  } finally {
    await sql.raw(`PRAGMA cache_size = ${Number.isFinite(previous) ? previous : -2000}`).execute(db.kysely);
  }
}
