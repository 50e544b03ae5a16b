import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * The session touch (an active operator's last-seen time, written at most once a minute) is a
 * write, and any write changes the data version that keys the response cache: left alone, every
 * operator's touch would retire every kept answer. So the touch is written in a way that shows
 * that it was the only change between two versions, and the version after it is then taken as
 * the one before (`VersionAliases`): answers kept before the touch still hold after it, while
 * any other write, in this process or another, still retires them.
 *
 * - SQLite: `BEGIN IMMEDIATE` takes the write lock, so no other connection can commit until the
 *   touch does, and this connection's other statements wait for it (Kysely holds the connection);
 *   the versions read inside, just before and just after the two updates, differ by the touch.
 * - PostgreSQL: the version is the cluster's snapshot (`xmin:xmax:in-progress ids`). Read with the
 *   touch's own transaction id in one statement: if that id is the next one (`xmax`) and the
 *   version after the commit is that snapshot with the touch ended and nothing else, nothing else
 *   started or ended meanwhile. Otherwise no alias: the kept answers retire as before.
 */
export class VersionAliases {
  private readonly aliases = new Map<string, string>();

  /** The version that `version` stands for: itself unless only touches came after that one. */
  resolve(version: string): string {
    return this.aliases.get(version) ?? version;
  }

  add(after: string, before: string) {
    const canonical = this.resolve(before);
    if (after === canonical) return;
    // Old aliases are of versions no request will read again: a few hundred are plenty.
    if (this.aliases.size >= 512) this.aliases.delete(this.aliases.keys().next().value as string);
    this.aliases.set(after, canonical);
  }
}

export type TouchWrite = (db: Kysely<Database>) => Promise<void>;

export async function touchWithAlias(db: Db, aliases: VersionAliases, write: TouchWrite): Promise<void> {
  if (db.dialect === 'sqlite') {
    await db.kysely.connection().execute(async (connection) => {
      await sql`BEGIN IMMEDIATE`.execute(connection);
      try {
        const before = await db.dataVersion();
        await write(connection);
        const after = await db.dataVersion();
        await sql`COMMIT`.execute(connection);
        aliases.add(after, before);
      } catch (error) {
        await sql`ROLLBACK`.execute(connection).catch(() => undefined);
        throw error;
      }
    });
    return;
  }
  const taken = await db.kysely.transaction().execute(async (trx) => {
    const { rows } = await sql<{ snapshot: string; id: string }>`
      SELECT pg_current_snapshot()::text AS snapshot, pg_current_xact_id()::text AS id`.execute(trx);
    await write(trx);
    return rows[0];
  });
  if (!taken) return;
  const expected = afterOnly(taken.snapshot, BigInt(taken.id));
  if (expected !== undefined && (await db.dataVersion()) === expected) aliases.add(expected, taken.snapshot);
}

/** The snapshot `before` would become if transaction `id`, the next one, ended and nothing else happened. */
function afterOnly(before: string, id: bigint): string | undefined {
  const [, xmax, xip = ''] = before.split(':');
  if (xmax === undefined || BigInt(xmax) !== id) return undefined;
  const next = id + 1n;
  return xip === '' ? `${next}:${next}:` : `${before.split(':')[0]}:${next}:${xip}`;
}
