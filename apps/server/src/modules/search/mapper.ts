import type { SearchResult } from '@obd/contract';
import type { search } from './repository.ts';

/** The search's rows → the contract's answer: at most `limit` hits a group, `more` when there were others. */
export function toSearchResult(r: Awaited<ReturnType<typeof search>>, limit: number): SearchResult {
  const group = <T>(hits: T[], seeAll: Record<string, string> | null) => ({
    hits: hits.slice(0, limit),
    more: hits.length > limit,
    seeAll,
  });
  return {
    q: r.q,
    kind: r.kind,
    faultCodes: group(
      r.codes.map((c) => ({ ...c, generic: Number(c.generic) === 1 })),
      r.kind === 'dtc' ? { dtc: r.q.toUpperCase() } : null,
    ),
    scans: group(r.scans.hits, r.scans.seeAll),
    users: group(r.users, r.kind === 'email' || r.users.length > 0 ? { email: r.q } : null),
    makes: group(r.makes, null),
  };
}
