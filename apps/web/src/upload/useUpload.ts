import type { ColumnMappingNeeded, ImportKind, ImportPreview, ImportRecord, RowProblem } from '@obd/contract';
import { importCommitPath, importPath } from '@obd/contract/constants';
import { useCallback, useSyncExternalStore } from 'react';
import { ApiError, apiFetch, type ResponseSchema } from '../lib/api.ts';
import { followImport } from './importProgress.ts';
import { UPLOAD_MESSAGES } from './messages.ts';
import { sendUpload, UploadError } from './transport.ts';

/** Where an upload is (spec §4: idle, uploading, success, error). */
export type UploadState<Result> =
  | { status: 'idle' }
  /** The browser is sending the file: real bytes. */
  | { status: 'uploading'; stage: 'sending'; sent: number; total: number }
  /** The server has the file and works on it; `record` once its import record has been read. */
  | { status: 'uploading'; stage: 'processing'; record?: ImportRecord }
  /** Issue 15: the file was read and checked, nothing written; "Import" or "Cancel". */
  | {
      status: 'preview';
      result: Result;
      preview: ImportPreview;
      importId: number;
      busy?: 'import' | 'cancel';
    }
  | { status: 'success'; result: Result }
  | {
      status: 'error';
      message: string;
      problems: readonly RowProblem[];
      importId?: number;
      /** A required column was not found: the page offers a mapping. */
      mapping?: ColumnMappingNeeded;
    };

export interface UploadTarget<Result> {
  path: string;
  kind: ImportKind;
  schema: ResponseSchema<Result>;
}

/**
 * Where each kind's upload is, outside any page (issue 15 item 6): an upload belongs to its kind,
 * not to the page showing it, so leaving the page while the file is being sent or read does not
 * cancel it, and coming back shows where it is (still sending, being read, a preview waiting for
 * "Import" or "Cancel"). A finished answer (success, error) is let go once no page shows it, as
 * before; "Cancel" and a new file still stop the one under way.
 */
interface Running {
  state: UploadState<unknown>;
  controller: AbortController | null;
  listeners: Set<() => void>;
}
const IDLE: UploadState<never> = { status: 'idle' };
const uploads = new Map<string, Running>();

function runningOf(kind: string): Running {
  let running = uploads.get(kind);
  if (!running) {
    running = { state: IDLE, controller: null, listeners: new Set() };
    uploads.set(kind, running);
  }
  return running;
}

/** Whether an upload's state outlives the page: under way, or a preview waiting for a choice. */
const outlivesPage = (state: UploadState<unknown>) =>
  state.status === 'uploading' || state.status === 'preview';

/**
 * Runs one upload at a time for a kind of import: sends the file with byte progress, then follows
 * the server's import record for the rows done, and ends with the checked answer or the error
 * sentence.
 */
export function useUpload<Result>(target: UploadTarget<Result>) {
  const kind = target.kind;
  const subscribe = useCallback(
    (listener: () => void) => {
      const running = runningOf(kind);
      running.listeners.add(listener);
      return () => {
        running.listeners.delete(listener);
        if (running.listeners.size === 0 && !outlivesPage(running.state) && uploads.get(kind) === running)
          uploads.delete(kind);
      };
    },
    [kind],
  );
  const state = useSyncExternalStore(subscribe, () => runningOf(kind).state) as UploadState<Result>;
  const setState = useCallback(
    (next: UploadState<Result>) => {
      const running = runningOf(kind);
      running.state = next;
      for (const listener of running.listeners) listener();
    },
    [kind],
  );

  const start = useCallback(
    async (file: File, fields?: Readonly<Record<string, string>>, options: { preview?: boolean } = {}) => {
      const running = runningOf(kind);
      running.controller?.abort();
      const controller = new AbortController();
      running.controller = controller;
      const polling = new AbortController();
      const stillMine = () => running.controller === controller && !controller.signal.aborted;
      const startedAt = Date.now();
      setState({ status: 'uploading', stage: 'sending', sent: 0, total: file.size });
      try {
        const body = await sendUpload({
          path: options.preview ? `${target.path}?preview=true` : target.path,
          file,
          fields,
          signal: controller.signal,
          onProgress: (sent, total) => {
            if (stillMine()) setState({ status: 'uploading', stage: 'sending', sent, total });
          },
          onSent: () => {
            if (!stillMine()) return;
            setState({ status: 'uploading', stage: 'processing' });
            void followImport(kind, file, startedAt, polling.signal, (record) => {
              if (stillMine()) setState({ status: 'uploading', stage: 'processing', record });
            });
          },
        });
        polling.abort();
        if (!stillMine()) return;
        const parsed = target.schema.safeParse(body);
        const preview =
          (parsed.success ? (parsed.data as { preview?: ImportPreview }).preview : undefined) ?? null;
        if (parsed.success && preview) {
          const importId = (parsed.data as { importId: number }).importId;
          setState({ status: 'preview', result: parsed.data, preview, importId });
          return;
        }
        // A server that answers without a preview has imported the file: its result it is.
        setState(
          parsed.success
            ? { status: 'success', result: parsed.data }
            : { status: 'error', message: UPLOAD_MESSAGES.invalidResponse, problems: [] },
        );
      } catch (error) {
        polling.abort();
        if (!stillMine()) return;
        console.error(`Upload to ${target.path} failed`, error);
        setState(
          error instanceof UploadError
            ? {
                status: 'error',
                message: error.message,
                problems: error.problems,
                importId: error.importId,
                mapping: error.mapping,
              }
            : { status: 'error', message: UPLOAD_MESSAGES.failed, problems: [] },
        );
      } finally {
        if (running.controller === controller) running.controller = null;
      }
    },
    [target.path, kind, target.schema, setState],
  );

  /** Imports the previewed file (no second upload), or cancels it; the answer ends the preview. */
  const decide = useCallback(
    async (choice: 'import' | 'cancel') => {
      const current = state;
      if (current.status !== 'preview' || current.busy) return;
      setState({ ...current, busy: choice });
      try {
        if (choice === 'cancel') {
          await apiFetch(importPath(current.importId), { method: 'DELETE' });
          setState({ status: 'idle' });
          return;
        }
        const body = await apiFetch(importCommitPath(current.importId), { method: 'POST' });
        const parsed = target.schema.safeParse(body);
        setState(
          parsed.success
            ? { status: 'success', result: parsed.data }
            : { status: 'error', message: UPLOAD_MESSAGES.invalidResponse, problems: [] },
        );
      } catch (error) {
        console.error(`Preview #${current.importId}: ${choice} failed`, error);
        setState({
          status: 'error',
          message: error instanceof ApiError ? error.message : UPLOAD_MESSAGES.failed,
          problems: [],
          importId: current.importId,
        });
      }
    },
    [state, target.schema, setState],
  );

  const reset = useCallback(() => {
    const running = runningOf(kind);
    running.controller?.abort();
    running.controller = null;
    setState({ status: 'idle' });
  }, [kind, setState]);

  return { state, start, reset, decide };
}
