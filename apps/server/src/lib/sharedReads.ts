import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One request's reads that several of its plans ask for alike, made once per request.
 *
 * A list request's planners are separate functions (`countPlan.ts`, `pairPlan.ts`,
 * `emailDomains.ts`…) that each ask the counters the same question — PostgreSQL's folded sums for
 * an e-mail surname were read three times by one request, ~10 ms each. Threading a cache through
 * every planner's arguments would touch them all for one concern, so the request's scope carries
 * it instead. Outside a scope (an export, a test calling a planner directly) every read is made.
 *
 * Only a request's own reads share: a scope ends with its request, so no answer outlives the
 * request it was read for, and totals stay exact through writes between requests.
 */
const scope = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/** Runs `request` with its own shared reads. */
export function withSharedReads<T>(request: () => Promise<T>): Promise<T> {
  return scope.run(new Map(), request);
}

/** `read()` once per request for `key` (its text must name everything the read depends on). */
export function sharedRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  const reads = scope.getStore();
  if (!reads) return read();
  let found = reads.get(key) as Promise<T> | undefined;
  if (!found) {
    found = read();
    reads.set(key, found);
  }
  return found;
}
