import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Value } from './sheet.ts';

/**
 * `COPY … FROM STDIN` inside a Kysely transaction on PostgreSQL (issue 15 item 5): the import's
 * staged rows reach their temporary table as COPY text, which PostgreSQL parses far faster than
 * the same rows as jsonb parameters (1,000,000 fault-code rows: 2.9 s against 6.7 s at load 8).
 *
 * The transaction's connection is Kysely's own and not reachable, so the COPY travels through
 * it as a query: Kysely's PostgreSQL driver hands a compiled query's `sql` to `pg`'s
 * `client.query` as it is, and `pg` runs any object with a `submit` method as a query of its
 * own (the protocol `pg-copy-streams` uses, without the dependency). The object is thenable,
 * so Kysely's `await` gets the row count when PostgreSQL has taken every row. Covered by
 * test/importCopy.test.ts (an upgrade of either library that breaks this fails it).
 */
export async function copyRows(
  trx: Transaction<Database>,
  /** `COPY table (columns) FROM STDIN` (text format). */
  statement: string,
  /** COPY text (UTF-8), cut anywhere; the copy waits when the socket is full. */
  chunks: AsyncIterable<string | Buffer>,
): Promise<number> {
  const copy = new CopyIn(statement, chunks);
  const query = CompiledQuery.raw('');
  const result = await trx.executeQuery({ ...query, sql: copy as unknown as string });
  return copy.rows ?? Number(result.numAffectedRows ?? 0);
}

/** One value as COPY text: `\N` for null, backslash, tab and line breaks escaped. */
export function copyText(value: Value | boolean | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : value;
}

/** The minimum of pg's query protocol for a COPY FROM STDIN (pg/lib/query.js, client.js). */
interface Connection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.WritableStream & { writableNeedDrain?: boolean };
}

class CopyIn {
  rows: number | undefined;
  private error: Error | undefined;
  private settle: { resolve(v: unknown): void; reject(e: Error): void } | undefined;
  private readonly done: Promise<unknown>;

  constructor(
    private readonly text: string,
    private readonly chunks: AsyncIterable<string | Buffer>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.done.catch(() => undefined); // awaited through `then`
  }

  // Kysely awaits what `client.query` returns: this object.
  // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose (see copyRows)
  then(resolve: (v: unknown) => void, reject: (e: Error) => void) {
    return this.done.then(resolve, reject);
  }

  submit(connection: Connection) {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: Connection) {
    void this.send(connection);
  }

  private async send(connection: Connection) {
    try {
      for await (const chunk of this.chunks) {
        if (this.error) return;
        connection.sendCopyFromChunk(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
        if (connection.stream.writableNeedDrain)
          await new Promise((resolve) => connection.stream.once('drain', resolve));
      }
      if (!this.error) connection.endCopyFrom();
    } catch (error) {
      // PostgreSQL answers the failure with an error, which rejects the copy (handleError).
      this.error = error as Error;
      connection.sendCopyFail(String((error as Error).message ?? error).slice(0, 200));
    }
  }

  handleCommandComplete(message: { text?: string }) {
    const n = /^COPY (\d+)/.exec(message.text ?? '')?.[1];
    if (n !== undefined) this.rows = Number(n);
  }

  handleReadyForQuery() {
    this.settle?.resolve({ command: 'COPY', rowCount: this.rows ?? 0, rows: [] });
  }

  handleError(error: Error) {
    // A failure of our own reading (the copy was abandoned for it) is the one worth telling.
    const reading = this.error;
    this.error = error;
    this.settle?.reject(reading ?? error);
  }

  // Messages a COPY FROM never gets; pg calls them on any query, so they exist.
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyData() {}
}
