import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';

/*
 * The problem rows of an upload are stored after its answer is sent (issue 10: a file uploaded
 * again has 100,000 database duplicates to keep, ~1 s of writing that the operator need not wait
 * for). Until they are, the import's `problem_columns` says so instead of holding its columns, so
 * that nothing offers a problems file that is not whole:
 *
 * - `storing`: written with the import's final record (record.ts, `finishImport`), before the
 *   answer; the store's own transaction replaces it with the columns, together with the rows.
 * - `unavailable`: the store failed, or the process that was to store them stopped first (SQLite:
 *   at the next start, or whenever no store is under way in the one process serving the file;
 *   PostgreSQL, where another process may be storing them: once `storing` is older than
 *   STORE_STALE_MS). The rows are then never written: the file is refused with a sentence.
 *
 * The problems file waits for a store under way in this process (up to a bound), so an operator
 * who asks for it right after the answer gets the whole file, a little later.
 */

export const PROBLEMS_STORING = 'storing';
export const PROBLEMS_UNAVAILABLE = 'unavailable';

/** A PostgreSQL store not done after this long is taken for one whose process died. */
const STORE_STALE_MS = 10 * 60 * 1000;

/** Stores under way in this process, by import id. */
const pending = new Map<number, Promise<void>>();

/**
 * Marks import `importId` as having a store of its problem rows to come from this process (before
 * its record says `storing`, so that this process never mistakes it for an abandoned one), and
 * returns the function that runs it: after any earlier store of the same import (a preview being
 * imported), marking the rows unavailable if it fails.
 */
export function expectStore(
  db: Db,
  importId: number,
  log: FastifyBaseLogger,
): (store: () => Promise<void>) => Promise<void> {
  const before = pending.get(importId) ?? Promise.resolve();
  let run: (store: () => Promise<void>) => void = () => {};
  const done = new Promise<void>((resolve) => {
    run = (store) => {
      before
        .then(store)
        .catch(async (error) => {
          log.error({ err: error, importId }, 'could not keep the problem rows');
          await markUnavailable(db, importId).catch((e) =>
            log.error({ err: e, importId }, 'could not mark the problem rows unavailable'),
          );
        })
        .finally(() => {
          if (pending.get(importId) === done) pending.delete(importId);
          resolve();
        });
    };
  });
  pending.set(importId, done);
  return (store) => {
    run(store);
    return done;
  };
}

/** Every store under way in this process (a server closing waits for them). */
export async function storesDone(): Promise<void> {
  while (pending.size > 0) await Promise.all(pending.values());
}

async function markUnavailable(db: Db, importId: number) {
  await db.kysely
    .updateTable('imports')
    .set({ problem_columns: PROBLEMS_UNAVAILABLE })
    .where('id', '=', importId)
    .where('problem_columns', '=', PROBLEMS_STORING)
    .execute();
}

/**
 * Where the problem rows of import `importId` are: `ready` (stored, none kept, or an import from
 * before they were kept), `storing` (still being written, by another process or for longer than
 * `waitMs`), `unavailable` (never to be written), or null: no such import.
 */
export async function problemsState(
  db: Db,
  importId: number,
  waitMs: number,
): Promise<'ready' | 'storing' | 'unavailable' | null> {
  const read = () =>
    db.kysely
      .selectFrom('imports')
      .select(['problem_columns', 'finished_at'])
      .where('id', '=', importId)
      .executeTakeFirst();
  let record = await read();
  if (!record) return null;
  const here = pending.get(importId);
  if (record.problem_columns === PROBLEMS_STORING && here) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([here, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    record = await read();
    if (!record) return null;
    if (record.problem_columns === PROBLEMS_STORING) return 'storing';
  }
  if (record.problem_columns === PROBLEMS_UNAVAILABLE) return 'unavailable';
  if (record.problem_columns !== PROBLEMS_STORING) return 'ready';
  const finished = record.finished_at ? Date.parse(record.finished_at) : 0;
  const abandoned = db.dialect === 'sqlite' || Date.now() - finished > STORE_STALE_MS;
  if (!abandoned) return 'storing';
  await markUnavailable(db, importId);
  return 'unavailable';
}

/** SQLite at start: a store the stopped process never finished never will be (record.ts). */
export async function failInterruptedStores(db: Db) {
  let query = db.kysely
    .updateTable('imports')
    .set({ problem_columns: PROBLEMS_UNAVAILABLE })
    .where('problem_columns', '=', PROBLEMS_STORING);
  // Not those this very process is storing (a second app over the same file, as tests make).
  if (pending.size > 0) query = query.where('id', 'not in', [...pending.keys()]);
  await query.execute();
}
