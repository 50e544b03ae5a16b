import { type ColumnMappingNeeded, columnMappingNeededSchema, type RowProblem } from '@obd/contract';
import { IMPORTS_PATH } from '@obd/contract/constants';
import { apiFetch } from '../lib/api.ts';
import { getToken } from '../lib/session.ts';
import { UPLOAD_MESSAGES } from './messages.ts';

/** A failed upload: the sentence to show (spec §8), the HTTP status (0: no answer), and what the server kept. */
export class UploadError extends Error {
  readonly status: number;
  /** The row problems the server found before it gave up (a file with no valid rows, …). */
  readonly problems: readonly RowProblem[];
  readonly importId: number | undefined;
  /** A required column was not found: the file's headers and the fields to map (issue 15). */
  readonly mapping: ColumnMappingNeeded | undefined;

  constructor(
    message: string,
    status: number,
    problems: readonly RowProblem[] = [],
    importId?: number,
    mapping?: ColumnMappingNeeded,
  ) {
    super(message);
    this.name = 'UploadError';
    this.status = status;
    this.problems = problems;
    this.importId = importId;
    this.mapping = mapping;
  }
}

export interface UploadRequest {
  /** The endpoint, e.g. `/api/FaultUplodes`. */
  path: string;
  file: File;
  /** Other multipart fields (e.g. `sheetName`); sent before the file so the server has them first. */
  fields?: Readonly<Record<string, string>>;
  /** Bytes of the request body sent so far. */
  onProgress?: (sent: number, total: number) => void;
  /** The whole body has left the browser: the server is now reading the file. */
  onSent?: () => void;
  signal?: AbortSignal;
  /** Give up after this long (default 10 minutes: a 100 MB workbook over a slow line). */
  timeoutMs?: number;
}

export const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * The one upload transport: a multipart POST through XMLHttpRequest, because `fetch` reports no
 * upload progress. Same bearer token as `apiFetch`; a 401 is handed to `apiFetch` (see below).
 * Resolves with the answer's JSON; rejects with an `UploadError` carrying the sentence of spec §8,
 * or with an AbortError when `signal` cancels it.
 */
export function sendUpload(request: UploadRequest): Promise<unknown> {
  const { path, file, fields = {}, onProgress, onSent, signal, timeoutMs = UPLOAD_TIMEOUT_MS } = request;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    body.append('file', file, file.name);

    const xhr = new XMLHttpRequest();
    let sentAny = false;
    xhr.open('POST', path);
    xhr.timeout = timeoutMs;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    xhr.upload.onprogress = (event) => {
      if (event.loaded > 0) sentAny = true;
      onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    };
    xhr.upload.onload = () => {
      sentAny = true;
      onSent?.();
    };
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const settle = () => signal?.removeEventListener('abort', abort);

    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new UploadError(UPLOAD_MESSAGES.timeout, 0));
    };
    // No answer: nothing left the browser means the server is not there; otherwise the line broke.
    xhr.onerror = () => {
      settle();
      reject(new UploadError(sentAny ? UPLOAD_MESSAGES.network : UPLOAD_MESSAGES.unreachable, 0));
    };
    xhr.onload = () => {
      settle();
      const outcome = readAnswer(xhr.status, xhr.getResponseHeader('Content-Type'), xhr.responseText);
      if (outcome instanceof UploadError) {
        if (xhr.status === 401 && token) endSession();
        reject(outcome);
      } else {
        resolve(outcome.body);
      }
    };
    xhr.send(body);
  });
}

/**
 * An answer as the page sees it: the JSON body of a success, or the error sentence (spec §8) —
 * the server's `message` or `error`, else what the status says.
 */
export function readAnswer(
  status: number,
  contentType: string | null,
  text: string,
): { body: unknown } | UploadError {
  const body = parseJson(text);
  const isHtml = /text\/html/i.test(contentType ?? '');
  if (status >= 200 && status < 300) {
    if (body === undefined || isHtml) return new UploadError(UPLOAD_MESSAGES.invalidResponse, status);
    if (isRecord(body) && body.success === false) return errorFromBody(body, status);
    return { body };
  }
  if (status === 404 || status === 405 || isHtml)
    return new UploadError(UPLOAD_MESSAGES.configuration, status);
  if (isRecord(body)) return errorFromBody(body, status);
  return new UploadError(`${UPLOAD_MESSAGES.failed} (HTTP ${status})`, status);
}

function errorFromBody(body: Record<string, unknown>, status: number): UploadError {
  const sentence = [body.message, body.error].find((v): v is string => typeof v === 'string' && v !== '');
  const problems = Array.isArray(body.errors) ? (body.errors as RowProblem[]) : [];
  const importId = typeof body.importId === 'number' ? body.importId : undefined;
  const fallback =
    status >= 200 && status < 300 ? UPLOAD_MESSAGES.failed : `${UPLOAD_MESSAGES.failed} (HTTP ${status})`;
  const mapping = columnMappingNeededSchema.safeParse(body.mapping);
  return new UploadError(
    sentence ?? fallback,
    status,
    problems,
    importId,
    mapping.success ? mapping.data : undefined,
  );
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A 401 to an upload means the token has expired. `apiFetch` owns ending the session and going to
 * the login page (with the way back); one signed-in call through it meets the same 401 and does so.
 */
function endSession(): void {
  apiFetch(IMPORTS_PATH, { query: { limit: 1 } }).catch(() => {});
}
