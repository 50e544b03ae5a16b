import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../lib/errors.ts';

/**
 * Runs `work` in a transaction that no other holder of the same keys, in any server process
 * sharing the database, runs at the same time: a read-then-write (count the attempts, then add
 * one; count the operators, then add the first) cannot interleave with another one's.
 * PostgreSQL: transaction-scoped advisory locks on the keys, taken in one order so two holders
 * never wait for each other. SQLite: `BEGIN IMMEDIATE`, which takes the database's one write lock
 * before the first read (a plain `BEGIN` would read first and could fail to upgrade). `work` must
 * use `trx` only: on SQLite it holds the process's one writing connection.
 */
export async function serialised<T>(
  db: Db,
  keys: string[],
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (db.dialect === 'postgres') {
    return db.kysely.transaction().execute(async (trx) => {
      for (const key of [...new Set(keys)].sort()) {
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${db.schema ?? ''}:${key}`}, 0))`.execute(
          trx,
        );
      }
      return work(trx);
    });
  }
  return db.kysely.connection().execute(async (connection) => {
    try {
      await sql`BEGIN IMMEDIATE`.execute(connection);
    } catch (error) {
      // Another process held the write lock for the whole busy timeout (a long import).
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new HttpError(
          'RATE_LIMITED',
          'The database is busy with a long write. Try again in a few seconds.',
        );
      }
      throw error;
    }
    try {
      const result = await work(connection);
      await sql`COMMIT`.execute(connection);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(connection);
      throw error;
    }
  });
}
