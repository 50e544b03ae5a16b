import type { FaultCodeListQuery, FaultCodeQuery } from '@obd/contract';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { whereFilters } from '../../lib/filters.ts';
import { fetchPage } from '../../lib/list.ts';
import { orderBySort } from '../../lib/sort.ts';
import { type FaultTextList, faultCodes, faultText, faultTexts } from './lists.ts';

/**
 * One query per list: `…Filtered` (the WHERE of the list's rules) and `…Selected` (its columns
 * and order) build both the page the browser shows and the rows its export streams. Every
 * function takes the executor — the database or a transaction — and the dialect.
 */

type Filters = Omit<FaultCodeQuery, 'page' | 'limit'>;
type ListFilters = Omit<FaultCodeListQuery, 'page' | 'limit'>;

function faultCodesFiltered(db: Kysely<Database>, dialect: Dialect, q: ListFilters) {
  return db.selectFrom(faultCodes.table).where((eb) => whereFilters(eb, dialect, faultCodes.rules, q));
}

const faultCodesSelected =
  (dialect: Dialect, sort: ListFilters) => (q: ReturnType<typeof faultCodesFiltered>) =>
    orderBySort(q.select(faultCodes.columns), dialect, faultCodes.sort, sort);

export function listFaultCodes(db: Kysely<Database>, dialect: Dialect, q: FaultCodeListQuery) {
  return fetchPage(faultCodesFiltered(db, dialect, q), faultCodesSelected(dialect, q), q);
}

/** Every fault code under the filters, in the list's order: the export streams it. */
export function faultCodesQuery(db: Kysely<Database>, dialect: Dialect, q: ListFilters) {
  return faultCodesSelected(dialect, q)(faultCodesFiltered(db, dialect, q));
}

function faultTextsFiltered(db: Kysely<Database>, dialect: Dialect, list: FaultTextList, q: Filters) {
  return db.selectFrom(faultTexts[list].table).where((eb) => whereFilters(eb, dialect, faultText.rules, q));
}

/** Causes, symptoms or solutions: the same columns, the list's own text column as `text`. */
export function listFaultTexts(
  db: Kysely<Database>,
  dialect: Dialect,
  list: FaultTextList,
  q: FaultCodeQuery,
) {
  const { text } = faultTexts[list];
  return fetchPage(
    faultTextsFiltered(db, dialect, list, q),
    (s) =>
      orderBySort(
        s.select([...faultText.columns, (eb) => eb.ref(text).as('text')]),
        dialect,
        faultText.sort,
        q,
      ),
    q,
  );
}
