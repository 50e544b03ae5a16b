import type { ServerResponse } from 'node:http';
import { HttpError } from '../lib/errors.ts';

/**
 * How many list downloads may run at once, and how long one may wait for its client. A running
 * download holds a database connection (PostgreSQL: a pooled client with a cursor, one of ten)
 * until its last row is sent, so a client that stops reading must not keep it: without these,
 * ten stalled downloads took every connection and the server stopped answering.
 * Mutable so tests (and a server that wants other figures) can change them.
 */
export const exportLimits = {
  /** Downloads of one operator at once. */
  perOperator: 3,
  /** Downloads of this server process at once: below the pool's ten connections, so lists and sign-in always find one. */
  perServer: 6,
  /** A download whose client has read nothing for this long is cut off, freeing its connection. */
  sendTimeoutMs: 60_000,
};

/** Downloads running in this process, over every app it holds (tests watch it). */
let inProcess = 0;
export const exportsRunning = () => inProcess;

/** Counts the downloads running in this process, per operator and in all. */
export class ExportSlots {
  private total = 0;
  private readonly byOperator = new Map<number, number>();

  /** Throws a 429 with a sentence when the operator or the server is at its cap. */
  check(operatorId: number) {
    const mine = this.byOperator.get(operatorId) ?? 0;
    if (mine >= exportLimits.perOperator) {
      throw new HttpError(
        'RATE_LIMITED',
        `You already have ${mine} downloads running. Wait for one of them to finish, then start this one again.`,
      );
    }
    if (this.total >= exportLimits.perServer) {
      throw new HttpError(
        'RATE_LIMITED',
        `The server is busy with ${this.total} other downloads. Try again in a minute.`,
      );
    }
  }

  /** Takes a slot (after `check`, in the same tick); the function returned gives it back, once. */
  take(operatorId: number): () => void {
    this.check(operatorId);
    this.total += 1;
    inProcess += 1;
    this.byOperator.set(operatorId, (this.byOperator.get(operatorId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      inProcess -= 1;
      const left = (this.byOperator.get(operatorId) ?? 1) - 1;
      if (left > 0) this.byOperator.set(operatorId, left);
      else this.byOperator.delete(operatorId);
    };
  }
}

/**
 * Cuts a response off when its client has taken nothing for `timeoutMs`: the response has been
 * waiting to drain (its buffers full) all that time. Destroying it makes Fastify destroy the
 * body stream, which closes the query's cursor and gives its connection back. A slow client that
 * keeps reading drains now and then and is never cut; a slow query sends nothing and so never
 * waits to drain.
 */
export function cutOffWhenStalled(res: ServerResponse, timeoutMs: number, onCut: () => void) {
  let waitingSince = 0;
  const drained = () => {
    waitingSince = 0;
  };
  const timer = setInterval(
    () => {
      if (!res.writableNeedDrain) {
        waitingSince = 0;
        return;
      }
      const now = Date.now();
      if (waitingSince === 0) waitingSince = now;
      else if (now - waitingSince >= timeoutMs) {
        stop();
        onCut();
        res.destroy();
      }
    },
    Math.max(20, Math.min(1000, Math.floor(timeoutMs / 5))),
  );
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    res.off('drain', drained);
  };
  res.on('drain', drained);
  res.once('close', stop);
}
