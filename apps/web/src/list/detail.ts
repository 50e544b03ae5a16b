import { queryOptions } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError, apiFetchParsedLater } from '../lib/api.ts';
import { loadSchema, queryKeys, type SchemaSource } from './declaration.ts';

/** One line of a detail screen's summary: its label and what the record shows there. */
export interface SummaryField<Rec> {
  label: string;
  value: (record: Rec) => ReactNode;
}

/** A part of a detail screen under its own heading (a table of results, …). */
export interface DetailSection<Rec> {
  title: string;
  render: (record: Rec) => ReactNode;
}

/** The sentences of a detail screen. */
export interface DetailMessages {
  /** The server answered 404, or the address has no usable id. */
  notFound: string;
  /** Any other failure. */
  error: string;
}

/**
 * Everything that makes one detail screen (`/…/details?id=7`) different from another. The engine
 * (`DetailScreen`) reads the id from the address, fetches the record — so a pasted link or a reload
 * works —, shows loading, not-found and error states, and a Back button to the list.
 */
export interface DetailDeclaration<Rec> {
  title: string;
  /** API path of the collection: the record is `GET {endpoint}/{id}`. */
  endpoint: string;
  /**
   * Checks the answer and types the record: a contract schema, or its dynamic import (loaded
   * alongside the request, so zod is not in the first download of the list the detail belongs to).
   */
  schema: SchemaSource<Rec>;
  /** The list the records belong to: Back returns to it with its remembered filters and page. */
  listPath: string;
  messages: DetailMessages;
  summary: readonly SummaryField<Rec>[];
  sections: readonly DetailSection<Rec>[];
}

/** The `id` of the address: a whole number ≥ 1, else undefined (a junk link is "not found"). */
export function parseRecordId(params: URLSearchParams): number | undefined {
  const raw = params.get('id')?.trim();
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 ? id : undefined;
}

/** The request of one record, declared once: key, fetcher and cancellation. */
export function detailQueryOptions<Rec>(declaration: DetailDeclaration<Rec>, id: number) {
  return queryOptions({
    queryKey: queryKeys.detail(declaration.endpoint, id),
    queryFn: ({ signal }) =>
      apiFetchParsedLater(() => loadSchema(declaration.schema), `${declaration.endpoint}/${id}`, { signal }),
  });
}

/** What a detail screen shows; exactly one at a time. */
export type DetailStatus<Rec> =
  | { kind: 'loading' }
  | { kind: 'notFound'; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'record'; record: Rec };

/** The status of a detail query; a 404 is "not found", not an error. */
export function detailStatus<Rec>(
  declaration: DetailDeclaration<Rec>,
  id: number | undefined,
  query: { data: Rec | undefined; error: Error | null; isPending: boolean },
): DetailStatus<Rec> {
  if (id === undefined) return { kind: 'notFound', message: declaration.messages.notFound };
  if (query.data !== undefined) return { kind: 'record', record: query.data };
  if (query.error) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return { kind: 'notFound', message: declaration.messages.notFound };
    }
    return { kind: 'error', message: declaration.messages.error };
  }
  return { kind: 'loading' };
}
