import { overviewSchema } from '@obd/contract';
import { OVERVIEW_PATH } from '@obd/contract/constants';
import { queryOptions } from '@tanstack/react-query';
import { apiFetchParsed } from '../../lib/api.ts';

/** The Overview's one request for a period: cached per period, cancelled when the period changes. */
export function overviewQueryOptions(from: string, to: string) {
  return queryOptions({
    queryKey: ['overview', from, to] as const,
    queryFn: ({ signal }) => apiFetchParsed(overviewSchema, OVERVIEW_PATH, { query: { from, to }, signal }),
  });
}
