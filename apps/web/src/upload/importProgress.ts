import type { ImportKind, ImportRecord } from '@obd/contract';
import { IMPORTS_PATH } from '@obd/contract/constants';
import { apiFetchParsedLater } from '../lib/api.ts';

/** The import answers' schemas, loaded with the first request that needs them (no zod up front). */
export const importSchemas = () => import('./schemas.ts');

/** How often the import record is read while the server works on the file. */
export const POLL_INTERVAL_MS = 400;

/**
 * The import the server started for our upload. The upload answer names it only at the end, so
 * while the request runs the newest running import of this kind with this file's name and size,
 * started after we began sending, is ours.
 */
export async function findRunningImport(
  kind: ImportKind,
  file: Pick<File, 'name' | 'size'>,
  sentAt: number,
  signal: AbortSignal,
): Promise<ImportRecord | undefined> {
  const list = await apiFetchParsedLater(
    async () => (await importSchemas()).importHistorySchema,
    IMPORTS_PATH,
    {
      query: { status: 'running', kind, limit: 10 },
      signal,
    },
  );
  // A minute of slack for a server clock a little behind the browser's.
  const since = sentAt - 60_000;
  return list.data.find(
    (record) =>
      record.fileSize === file.size &&
      record.fileName === baseName(file.name) &&
      Date.parse(record.startedAt) >= since,
  );
}

/** One import with its progress (and, once finished, its row problems). */
export function readImport(id: number, signal: AbortSignal) {
  return apiFetchParsedLater(
    async () => (await importSchemas()).importDetailSchema,
    `${IMPORTS_PATH}/${id}`,
    {
      signal,
    },
  );
}

/**
 * Reads the progress of our import until `signal` aborts (the upload answered): first finds it,
 * then follows it. One request at a time; a failed read is retried at the next tick, since the
 * upload's own answer is what decides the outcome.
 */
export async function followImport(
  kind: ImportKind,
  file: Pick<File, 'name' | 'size'>,
  sentAt: number,
  signal: AbortSignal,
  onRecord: (record: ImportRecord) => void,
): Promise<void> {
  let id: number | undefined;
  while (!signal.aborted) {
    try {
      const record =
        id === undefined ? await findRunningImport(kind, file, sentAt, signal) : await readImport(id, signal);
      if (record && !signal.aborted) {
        id = record.id;
        onRecord(record);
      }
    } catch {
      // Cancelled, or a read failed while the server is busy: try again next tick.
    }
    await sleep(POLL_INTERVAL_MS, signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

// The server keeps the last part of the name the browser sent (no folders).
const baseName = (name: string) => name.split(/[\\/]/).pop() || 'upload';
