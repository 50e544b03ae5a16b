import type { ColumnMappingNeeded, ImportKind, ImportPreview, ImportRecord, RowProblem } from '@obd/contract';
import { importCommitPath, importPath } from '@obd/contract/constants';
import { useCallback, useEffect, useRef, useState } from 'react';
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
 * Runs one upload at a time for a page: sends the file with byte progress, then follows the
 * server's import record for the rows done, and ends with the checked answer or the error
 * sentence. Leaving the page cancels it.
 */
export function useUpload<Result>(target: UploadTarget<Result>) {
  const [state, setState] = useState<UploadState<Result>>({ status: 'idle' });
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(
    async (file: File, fields?: Readonly<Record<string, string>>, options: { preview?: boolean } = {}) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      const polling = new AbortController();
      const stillMine = () => running.current === controller && !controller.signal.aborted;
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
            void followImport(target.kind, file, startedAt, polling.signal, (record) => {
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
        if (running.current === controller) running.current = null;
      }
    },
    [target.path, target.kind, target.schema],
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
    [state, target.schema],
  );

  const reset = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState({ status: 'idle' });
  }, []);

  return { state, start, reset, decide };
}
