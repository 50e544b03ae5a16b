import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MAX_WAITING_PREVIEWS, PREVIEW_TTL_MINUTES, type Role } from '@obd/contract';
import type { Db } from '../db/database.ts';
import { HttpError, notFound } from '../lib/errors.ts';
import { isoIn, isoNow } from '../lib/time.ts';
import { headerTexts, normaliseHeader } from './columns.ts';
import type { StartedImport } from './record.ts';

/*
 * Previews (issue 15 item 1): an upload read, checked and written in a transaction that rolled
 * back, whose file stays in its private upload folder for PREVIEW_TTL_MINUTES so that "Import"
 * needs no second upload. The record's status moves preview → running (the commit) or cancelled
 * or expired by one conditional UPDATE each, so two requests — on two server processes too —
 * can never both import a preview, nor import a cancelled one.
 *
 * The file stays where it was received: a server that stops leaves its folder to the next one's
 * sweep (lib/housekeeping.ts) and the preview answers 410 when imported. Servers sharing a
 * database must share their temporary folder for a preview made on one to be imported on another.
 */

export const PREVIEW_TTL_MS = PREVIEW_TTL_MINUTES * 60 * 1000;

/** What a preview keeps besides its record: the form fields its job started from. */
interface Kept {
  fields: Record<string, string>;
}

const gone = (message: string) => new HttpError('GONE', message);

/** The stored upload of a preview, as its import record describes it. */
export async function keepPreview(
  db: Db,
  importId: number,
  operatorId: number,
  file: { path: string; fields: Record<string, string> },
): Promise<string> {
  const expiresAt = isoIn(PREVIEW_TTL_MS);
  const kept: Kept = { fields: file.fields };
  await db.kysely
    .updateTable('imports')
    .set({ preview_path: file.path, expires_at: expiresAt, fields: JSON.stringify(kept) })
    .where('id', '=', importId)
    .where('status', '=', 'preview')
    .execute();
  // Disk under bounds: an operator's previews beyond the newest few are cancelled.
  const older = await db.kysely
    .selectFrom('imports')
    .select('id')
    .where('operator_id', '=', operatorId)
    .where('status', '=', 'preview')
    .orderBy('id', 'desc')
    .offset(MAX_WAITING_PREVIEWS)
    .limit(1000)
    .execute();
  for (const { id } of older)
    await endPreview(
      db,
      Number(id),
      'cancelled',
      'Cancelled: a newer preview of the same operator took its place.',
    );
  return expiresAt;
}

/** Removes a preview's folder (the upload's private folder holding its file). */
async function removeFolder(previewPath: string | null) {
  if (!previewPath) return;
  await fs.promises.rm(path.dirname(previewPath), { recursive: true, force: true }).catch(() => {});
}

/** preview → cancelled or expired, if it still is a preview; its file goes. True when this call ended it. */
async function endPreview(db: Db, id: number, status: 'cancelled' | 'expired', message: string) {
  // A preview's path never changes while it waits; only the request whose UPDATE ends it removes it.
  const kept = await db.kysely
    .selectFrom('imports')
    .select('preview_path')
    .where('id', '=', id)
    .executeTakeFirst();
  const result = await db.kysely
    .updateTable('imports')
    .set({ status, message, preview_path: null, phase: 'done', finished_at: isoNow() })
    .where('id', '=', id)
    .where('status', '=', 'preview')
    .executeTakeFirst();
  const ended = Number(result.numUpdatedRows) > 0;
  if (ended) await removeFolder(kept?.preview_path ?? null);
  return ended;
}

const EXPIRED_MESSAGE = `Expired unimported: a preview's file is kept ${PREVIEW_TTL_MINUTES} minutes. Nothing was written.`;

/** Ends the previews whose time is over (a timer of every server; a commit checks the time too). */
export async function expirePreviews(db: Db, now = isoNow()): Promise<number> {
  const due = await db.kysely
    .selectFrom('imports')
    .select('id')
    .where('status', '=', 'preview')
    .where('expires_at', '<=', now)
    .execute();
  let n = 0;
  for (const { id } of due) if (await endPreview(db, Number(id), 'expired', EXPIRED_MESSAGE)) n++;
  return n;
}

interface Caller {
  id: number;
  role: Role;
}

/** The preview `id` if the caller may act on it: its operator, or an admin. */
async function ownPreview(db: Db, id: number, caller: Caller) {
  const row = await db.kysely
    .selectFrom('imports')
    .select(['id', 'operator_id', 'status', 'expires_at', 'preview_path'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`There is no import #${id}.`);
  if (Number(row.operator_id) !== caller.id && caller.role !== 'admin')
    throw new HttpError(
      'FORBIDDEN',
      `Import #${id} is another operator's; only they or an admin can import or cancel it.`,
    );
  return row;
}

/** Why a preview can no longer be imported or cancelled: 410 when it is gone, 409 when it ran. */
function notWaiting(id: number, status: string): HttpError {
  if (status === 'cancelled')
    return gone(`Preview #${id} was cancelled, so it cannot be imported. Upload the file again.`);
  if (status === 'expired')
    return gone(
      `Preview #${id} expired (a preview is kept ${PREVIEW_TTL_MINUTES} minutes), so nothing was imported. Upload the file again.`,
    );
  if (status === 'running') return new HttpError('CONFLICT', `Preview #${id} is being imported already.`);
  return new HttpError(
    'CONFLICT',
    `Import #${id} is not a waiting preview: it has already run (${status}). See it in the import history.`,
  );
}

/** `DELETE /api/imports/:id`: the preview ends and its file goes. */
export async function cancelPreview(db: Db, id: number, caller: Caller): Promise<void> {
  const row = await ownPreview(db, id, caller);
  if (row.status !== 'preview') throw notWaiting(id, row.status);
  const ended = await endPreview(db, id, 'cancelled', 'Cancelled before importing; nothing was written.');
  if (!ended) {
    const now = await ownPreview(db, id, caller);
    throw notWaiting(id, now.status);
  }
}

export interface ClaimedPreview {
  record: StartedImport;
  kind: string;
  file: { path: string; dir: string; fileName: string; size: number; hash: string };
  fields: Record<string, string>;
  /** What the preview answered (its history statistics). */
  previewStats: unknown;
}

/**
 * `POST /api/imports/:id/commit`, its first step: the preview becomes a running import by one
 * conditional UPDATE (status still 'preview', time not over), so of two commits — or a commit
 * and a cancel — exactly one wins. Gone (410) when expired, cancelled or its file is lost.
 */
export async function claimPreview(db: Db, id: number, caller: Caller): Promise<ClaimedPreview> {
  const before = await ownPreview(db, id, caller);
  if (before.status === 'preview' && before.expires_at && before.expires_at <= isoNow()) {
    await endPreview(db, id, 'expired', EXPIRED_MESSAGE);
    throw notWaiting(id, 'expired');
  }
  if (before.status !== 'preview') throw notWaiting(id, before.status);
  const now = isoNow();
  const row = await db.kysely
    .updateTable('imports')
    .set((eb) => ({
      status: 'running',
      phase: 'reading',
      progress: 0,
      rows_processed: 0,
      message: null,
      finished_at: null,
      heartbeat_at: now,
      preview_stats: eb.ref('stats'),
    }))
    .where('id', '=', id)
    .where('status', '=', 'preview')
    .where('expires_at', '>', now)
    .returning([
      'preview_path',
      'fields',
      'kind',
      'file_name',
      'file_size',
      'file_hash',
      'duplicate_of',
      'stats',
    ])
    .executeTakeFirst();
  if (!row) {
    const after = await ownPreview(db, id, caller);
    throw notWaiting(id, after.status === 'preview' ? 'expired' : after.status);
  }
  const lost = async (message: string) => {
    await db.kysely
      .updateTable('imports')
      .set({ status: 'expired', phase: 'done', message, preview_path: null, finished_at: isoNow() })
      .where('id', '=', id)
      .execute();
    return gone(message);
  };
  const file = row.preview_path;
  if (!file || !fs.existsSync(file))
    throw await lost(
      `The file of preview #${id} is no longer on this server (it was restarted, or another server holds it), so nothing was imported. Upload the file again.`,
    );
  let kept: Kept;
  try {
    kept = JSON.parse(row.fields ?? '') as Kept;
  } catch {
    throw await lost(`Preview #${id} lost its form fields, so nothing was imported. Upload the file again.`);
  }
  let previous: { id: number; finished_at: string | null } | undefined;
  if (row.duplicate_of !== null)
    previous = await db.kysely
      .selectFrom('imports')
      .select(['id', 'finished_at'])
      .where('id', '=', row.duplicate_of)
      .executeTakeFirst();
  return {
    record: {
      id,
      duplicateOf: previous ? { id: Number(previous.id), finishedAt: previous.finished_at } : null,
    },
    kind: row.kind,
    file: {
      path: file,
      dir: path.dirname(file),
      fileName: row.file_name,
      size: Number(row.file_size),
      hash: row.file_hash,
    },
    fields: kept.fields ?? {},
    previewStats: row.stats ? JSON.parse(row.stats) : null,
  };
}

/** Figures that depend on the clock, not on the data: left out when a commit is compared with its preview. */
const TIMING = /time|ms$|persecond|performance|improvement|speed/i;

/** How an import's figures differ from its preview's, as a sentence; undefined when they agree. */
export function previewDifference(preview: unknown, now: unknown): string | undefined {
  const flat = (value: unknown, prefix = '', out = new Map<string, number>()) => {
    if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) {
        if (TIMING.test(k)) continue;
        flat(v, prefix ? `${prefix}.${k}` : k, out);
      }
    else if (typeof value === 'number') out.set(prefix, value);
    return out;
  };
  const before = flat(preview);
  const after = flat(now);
  const changes: string[] = [];
  for (const [k, v] of after) {
    const was = before.get(k);
    if (was !== undefined && was !== v)
      changes.push(`${k} ${was.toLocaleString('en-US')} → ${v.toLocaleString('en-US')}`);
  }
  if (changes.length === 0) return undefined;
  return `The database changed since the preview, so these figures differ from it: ${changes.slice(0, 12).join(', ')}.`;
}

/* Column mappings remembered per kind of upload and set of file headers (issue 15 item 4). */

/** The same for the same headers whatever their order, case, spacing or punctuation. */
export function headersKey(header: (string | undefined)[]): string {
  const names = headerTexts(header).map(normaliseHeader).filter(Boolean).sort();
  return createHash('sha256').update(names.join('\u0000')).digest('hex');
}

export async function rememberMapping(
  db: Db,
  kind: string,
  header: (string | undefined)[],
  mapped: Record<string, string>,
  operatorId: number,
) {
  const values = {
    kind,
    headers_key: headersKey(header),
    mapping: JSON.stringify(mapped),
    operator_id: operatorId,
    updated_at: isoNow(),
  };
  await db.kysely
    .insertInto('import_column_mappings')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['kind', 'headers_key']).doUpdateSet({
        mapping: values.mapping,
        operator_id: values.operator_id,
        updated_at: values.updated_at,
      }),
    )
    .execute();
}

/** The mapping remembered for these headers, limited to fields asked and headers present. */
export async function rememberedMapping(
  db: Db,
  kind: string,
  headers: string[],
  fields: string[],
): Promise<Record<string, string> | null> {
  const row = await db.kysely
    .selectFrom('import_column_mappings')
    .select('mapping')
    .where('kind', '=', kind)
    .where('headers_key', '=', headersKey(headers))
    .executeTakeFirst();
  if (!row) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(row.mapping);
  } catch {
    return null;
  }
  if (!stored || typeof stored !== 'object') return null;
  const present = new Set(headers.map(normaliseHeader));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(stored as Record<string, unknown>)) {
    if (typeof v === 'string' && fields.includes(k) && present.has(normaliseHeader(v))) out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : null;
}
