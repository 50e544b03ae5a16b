import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import { DEFAULT_LIMITS } from '../auth/loginThrottle.ts';
import { SESSION_IDLE_MS } from '../auth/repository.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { buildDeferredIndexes } from '../import/deferredIndexes.ts';
import { failInterruptedImports, interrupted } from '../import/record.ts';
import { purgeAuditEvents } from '../modules/audit/repository.ts';
import { isoNow } from './time.ts';

/*
 * What a server cleans up after itself and after servers that died: rows whose time is over
 * (sessions, download links, invitations, sign-in attempts), imports whose process died, and the
 * temporary folders of uploads.
 */

/** This process among the servers sharing a machine: a restarted server may get the same pid. */
const INSTANCE = `${process.pid}:${randomBytes(8).toString('hex')}`;
const OWNER_FILE = 'owner';
/** `fs.mkdtemp` adds six characters to the prefix. */
const UPLOAD_FOLDER = /^obd-upload-[A-Za-z0-9]{6}$/;
export const UPLOAD_FOLDER_PREFIX = 'obd-upload-';
/** A folder with no owner file (being made, or made by an older version) is left alone this long. */
const UNOWNED_GRACE_MS = 60 * 60 * 1000;
/** No upload runs this long: past it a folder goes whatever its owner file says (pid reused). */
const MAX_UPLOAD_AGE_MS = 24 * 60 * 60 * 1000;

/** Marks an upload's temporary folder as this process's, for `sweepUploadFolders`. */
export async function markUploadFolder(dir: string) {
  await fs.promises.writeFile(path.join(dir, OWNER_FILE), `${INSTANCE}\n`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the upload folders left by servers that died (killed mid-import, power lost) from the
 * temporary directory. Several servers may share the machine, so a folder goes only when its
 * owner is surely gone: its process is dead, or it is this very pid under another instance (a
 * restarted container), or it has no owner file and is over an hour old, or it is over a day old.
 * Returns the names removed.
 */
export async function sweepUploadFolders(dir = os.tmpdir(), now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!UPLOAD_FOLDER.test(name)) continue;
    const folder = path.join(dir, name);
    try {
      const stat = await fs.promises.stat(folder);
      if (!stat.isDirectory()) continue;
      const age = now - stat.mtimeMs;
      const owner = await fs.promises.readFile(path.join(folder, OWNER_FILE), 'utf8').then(
        (text) => text.trim(),
        () => undefined,
      );
      let stale: boolean;
      if (age > MAX_UPLOAD_AGE_MS) stale = true;
      else if (owner === undefined) stale = age > UNOWNED_GRACE_MS;
      else if (owner === INSTANCE) stale = false;
      else {
        const pid = Number(owner.split(':')[0]);
        stale = !Number.isInteger(pid) || pid <= 0 || pid === process.pid || !processAlive(pid);
      }
      if (!stale) continue;
      await fs.promises.rm(folder, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to read: leave it.
    }
  }
  return removed;
}

export interface Purged {
  sessions: number;
  downloadTickets: number;
  invitations: number;
  loginAttempts: number;
}

/**
 * Deletes the rows whose time is over: sessions ended (signed out, revoked, expired or idle —
 * their download links go with them), download links expired, invitations expired unused (a
 * used one says who made which account and stays), and sign-in attempts older than the
 * throttle's window.
 */
export async function purgeExpired(db: Db, now = Date.now()): Promise<Purged> {
  const nowIso = new Date(now).toISOString();
  const idleSince = new Date(now - SESSION_IDLE_MS).toISOString();
  const count = (result: { numDeletedRows: bigint }[]) => Number(result[0]?.numDeletedRows ?? 0);
  const k = db.kysely;
  const downloadTickets = count(
    await k.deleteFrom('download_tickets').where('expires_at', '<=', nowIso).execute(),
  );
  const sessions = count(
    await k
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([
          eb('revoked_at', 'is not', null),
          eb('expires_at', '<=', nowIso),
          eb('last_seen_at', '<=', idleSince),
        ]),
      )
      .execute(),
  );
  const invitations = count(
    await k
      .deleteFrom('invitations')
      .where('used_at', 'is', null)
      .where('expires_at', '<=', nowIso)
      .execute(),
  );
  const loginAttempts = count(
    await k
      .deleteFrom('login_attempts')
      .where('attempted_at', '<=', new Date(now - DEFAULT_LIMITS.windowMs).toISOString())
      .execute(),
  );
  return { sessions, downloadTickets, invitations, loginAttempts };
}

/** How often a running import says it is alive (PostgreSQL), and when silence means it died. */
export const importHeartbeat = { everyMs: 2000, staleAfterMs: 15_000 };

/**
 * Keeps a running import's heartbeat fresh until the returned function is called. Only on
 * PostgreSQL, where other processes must tell a running import from a dead one; SQLite has one
 * server process, which fails every running import when it starts.
 */
export function startImportHeartbeat(db: Db, importId: number): () => void {
  if (db.dialect !== 'postgres') return () => {};
  const beat = () =>
    db.kysely
      .updateTable('imports')
      .set({ heartbeat_at: isoNow() })
      .where('id', '=', importId)
      .where('status', '=', 'running')
      .execute()
      .catch(() => {}); // best effort: a missed beat or two is within the margin
  beat();
  const timer = setInterval(beat, importHeartbeat.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Marks imports whose process died as failed (their transaction never committed, so nothing of
 * them was written). SQLite, at start: every running import (one server process per file).
 * PostgreSQL, at start and then on a timer: those whose heartbeat stopped, or — started by a
 * version without heartbeats — that have run for over an hour.
 */
export async function failAbandonedImports(db: Db, atStart: boolean): Promise<number> {
  if (db.dialect === 'sqlite') {
    if (!atStart) return 0;
    await failInterruptedImports(db);
    return 0;
  }
  const now = Date.now();
  const silentSince = new Date(now - importHeartbeat.staleAfterMs).toISOString();
  const hourAgo = new Date(now - 60 * 60 * 1000).toISOString();
  const abandoned = (eb: ExpressionBuilder<Database, 'imports'>) =>
    eb.or([
      eb.and([eb('heartbeat_at', 'is not', null), eb('heartbeat_at', '<', silentSince)]),
      eb.and([eb('heartbeat_at', 'is', null), eb('started_at', '<', hourAgo)]),
    ]);
  // Read first: an UPDATE that changes nothing would still be a write every few seconds.
  const found = await db.kysely
    .selectFrom('imports')
    .select('id')
    .where('status', '=', 'running')
    .where(abandoned)
    .execute();
  if (found.length === 0) return 0;
  const result = await db.kysely
    .updateTable('imports')
    .set(interrupted())
    .where(
      'id',
      'in',
      found.map((r) => r.id),
    )
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Audit events are kept this many days unless `AUDIT_RETENTION_DAYS` says otherwise. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

export interface AccountsPurged {
  passwordResets: number;
  auditEvents: number;
}

/**
 * Deletes password-reset codes past their expiry (used or not: a used one's use is in the audit
 * log) and audit events older than the retention — the only deletion of audit events there is.
 */
export async function purgeAccountRecords(
  db: Db,
  auditRetentionDays = DEFAULT_AUDIT_RETENTION_DAYS,
  now = Date.now(),
): Promise<AccountsPurged> {
  const result = await db.kysely
    .deleteFrom('password_resets')
    .where('expires_at', '<=', new Date(now).toISOString())
    .executeTakeFirst();
  const auditEvents = await purgeAuditEvents(db.kysely, auditRetentionDays, now);
  return { passwordResets: Number(result.numDeletedRows), auditEvents };
}

export interface HousekeepingOptions {
  /** Days audit events are kept (`AUDIT_RETENTION_DAYS`). */
  auditRetentionDays?: number;
  /** How often expired rows are purged. */
  purgeEveryMs?: number;
  /** How often (PostgreSQL) imports whose process died are looked for. */
  importCheckEveryMs?: number;
  /** Where upload folders are made (the temporary directory). */
  tmpDir?: string;
}

/**
 * Runs the housekeeping when the app is ready (stale upload folders, imports of dead processes,
 * expired rows) and then on timers that never keep the process alive and stop when the app closes.
 */
export function registerHousekeeping(app: FastifyInstance, db: Db, options: HousekeepingOptions = {}) {
  const purgeEveryMs = options.purgeEveryMs ?? 60 * 60 * 1000;
  const importCheckEveryMs = options.importCheckEveryMs ?? 2000;
  const timers: NodeJS.Timeout[] = [];
  const log: FastifyBaseLogger = app.log;
  const purge = async () => {
    try {
      const purged = {
        ...(await purgeExpired(db)),
        ...(await purgeAccountRecords(db, options.auditRetentionDays)),
      };
      if (Object.values(purged).some((n) => n > 0)) log.info({ purged }, 'expired rows purged');
    } catch (error) {
      log.warn({ err: error }, 'could not purge expired rows');
    }
  };
  const checkImports = async (atStart: boolean) => {
    try {
      const failed = await failAbandonedImports(db, atStart);
      if (failed > 0) log.info({ failed }, 'imports of a stopped server marked failed');
    } catch (error) {
      log.warn({ err: error }, 'could not look for abandoned imports');
    }
  };
  app.addHook('onReady', async () => {
    const removed = await sweepUploadFolders(options.tmpDir);
    if (removed.length > 0) log.info({ removed }, 'upload folders of stopped servers removed');
    await checkImports(true);
    // Indexes a big PostgreSQL import left to build after its commit and a stopped process never
    // built: built now, in the background (readers go on meanwhile; see import/deferredIndexes.ts).
    void buildDeferredIndexes(db, log);
    await purge();
    const every = (ms: number, run: () => Promise<void>) => {
      const timer = setInterval(run, ms);
      timer.unref();
      timers.push(timer);
    };
    every(purgeEveryMs, purge);
    if (db.dialect === 'postgres') every(importCheckEveryMs, () => checkImports(false));
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
  });
}
