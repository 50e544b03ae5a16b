import type { ExportFormat } from '@obd/contract';
import { EXPORTS_PATH } from '@obd/contract/constants';
import { apiFetchParsedLater } from './api.ts';

const ticketSchema = async () => (await import('./downloadSchemas.ts')).exportTicketSchema;

export interface DownloadRequest {
  /** The server's export name, e.g. `coverage`, `scans`, `scanReport`. */
  list: string;
  format: ExportFormat;
  /** The list's searched filters (or a document's id), exactly as the list endpoint takes them. */
  query: Readonly<Record<string, string>>;
  /** Only these columns, in this order (the visible ones); every column when absent. */
  columns?: string[];
}

/**
 * Downloads an export natively (decisions §6): asks the server for a short-lived, single-use
 * link with the bearer token, then lets the browser fetch that link itself, so the file streams
 * to disk with the browser's own progress and the token never appears in a URL.
 */
export async function startDownload(request: DownloadRequest): Promise<void> {
  const ticket = await apiFetchParsedLater(ticketSchema, EXPORTS_PATH, {
    method: 'POST',
    body: { ...request, query: { ...request.query } },
  });
  saveFrom(ticket.url);
}

/**
 * Lets the browser save what a download link answers, with its own progress. The server names the
 * file (Content-Disposition); `download` keeps the page where it is.
 */
export function saveFrom(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Opens a document (a scan's PDF report) in a new tab through a single-use link. */
export async function openDocument(request: DownloadRequest, target: Window | null): Promise<void> {
  const ticket = await apiFetchParsedLater(ticketSchema, EXPORTS_PATH, {
    method: 'POST',
    body: { ...request, query: { ...request.query } },
  });
  if (target) target.location.href = ticket.url;
  else window.open(ticket.url, '_blank', 'noopener');
}
