import type { ImportKind, ImportRecord, RowProblem } from '@obd/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ResponseSchema } from '../lib/api.ts';
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
  | { status: 'success'; result: Result }
  | { status: 'error'; message: string; problems: readonly RowProblem[]; importId?: number };

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
    async (file: File, fields?: Readonly<Record<string, string>>) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      const polling = new AbortController();
      const stillMine = () => running.current === controller && !controller.signal.aborted;
      const startedAt = Date.now();
      setState({ status: 'uploading', stage: 'sending', sent: 0, total: file.size });
      try {
        const body = await sendUpload({
          path: target.path,
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
            ? { status: 'error', message: error.message, problems: error.problems, importId: error.importId }
            : { status: 'error', message: UPLOAD_MESSAGES.failed, problems: [] },
        );
      } finally {
        if (running.current === controller) running.current = null;
      }
    },
    [target.path, target.kind, target.schema],
  );

  const reset = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState({ status: 'idle' });
  }, []);

  return { state, start, reset };
}
