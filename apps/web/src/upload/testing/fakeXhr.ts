import { vi } from 'vitest';

type Handler = ((event?: unknown) => void) | null;

/**
 * A stand-in for the browser's XMLHttpRequest — with `fetch`, the only outside dependency of the
 * upload tests. Each request waits until the test drives it: bytes sent, body sent, an answer.
 */
export class FakeXhr {
  static requests: FakeXhr[] = [];
  method = '';
  url = '';
  timeout = 0;
  status = 0;
  responseText = '';
  requestHeaders: Record<string, string> = {};
  body: FormData | undefined;
  upload: { onprogress: Handler; onload: Handler } = { onprogress: null, onload: null };
  onload: Handler = null;
  onerror: Handler = null;
  ontimeout: Handler = null;
  onabort: Handler = null;
  private contentType: string | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.requestHeaders[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
  }
  aborted = false;
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? this.contentType : null;
  }

  /** `loaded` of `total` bytes have left the browser. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  /** The whole body has been sent. */
  sent() {
    this.upload.onload?.();
  }
  /** The server answers: JSON for an object, the text as it is (HTML) for a string. */
  respond(status: number, body: unknown) {
    this.status = status;
    const html = typeof body === 'string';
    this.responseText = html ? body : JSON.stringify(body);
    this.contentType = html ? 'text/html' : 'application/json; charset=utf-8';
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
  timeOut() {
    this.ontimeout?.();
  }
}

/** Installs the fake; returns the list of requests sent, newest last. */
export function installFakeXhr(): FakeXhr[] {
  FakeXhr.requests = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr.requests;
}
