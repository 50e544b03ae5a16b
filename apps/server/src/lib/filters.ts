import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';
import { containsCI, equalsCI, likePattern } from './sql.ts';

/**
 * A trigram index finds a fragment of three or more characters; shorter ones fall back to a
 * plain (scanning) LIKE. Characters LIKE reads as wildcards are plain ones here: the fragment is
 * an FTS5 phrase (`trigramPhrase`), and escaped in the pattern that pg_trgm reads. Fragments
 * holding one ('vikram_joshi267', a pasted address) had been kept off the index since FTS5 was
 * read with LIKE, which has no ESCAPE there: ~600,000 address counters scanned, 60 ms at a
 * million scans (SQLite), against a few ms.
 */
export const usesTrigramIndex = (fragment: string) => fragment.length >= 3;

/**
 * The FTS5 query of a trigram table's rows holding `fragment` in one column (`ref`, the column as
 * the search table's: `f.val`): a phrase of its trigrams, which matches where they follow each
 * other — the fragment, its case folded. Always read with a LIKE on the value itself, which
 * decides: the phrase finds a superset of the LIKE matches (it also folds case beyond ASCII).
 * `LIKE '%…%'` on the FTS column found the same candidates but re-read each one's content
 * (an external-content table's row): 'kumar' among 2.4 million counted values, 185 ms of CPU
 * against 17 ms for the phrase.
 */
export function trigramPhrase(ref: string, fragment: string) {
  return sql<SqlBool>`${sql.ref(ref)} MATCH ${`"${fragment.replaceAll('"', '""')}"`}`;
}

/** Printable ASCII: where FTS5's case folding and LIKE's agree. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * SQLite: the ids of the rows of `table` whose `column` holds `fragment`, from its trigram table
 * `searchTable` (the column named alike there) without a row read — or undefined where that is
 * not exact: a fragment the trigram index does not find, or one beyond printable ASCII. On an
 * ASCII address the phrase and LIKE agree (both fold ASCII case only there); the addresses holding
 * other characters, where the phrase's folding may match and LIKE not, are read through a partial
 * index of them (033's on the users, 049's on the activity lists) and those LIKE rejects taken off.
 */
export function trigramMatchIds(table: string, searchTable: string, column: string, fragment: string) {
  if (!usesTrigramIndex(fragment) || !PRINTABLE_ASCII.test(fragment)) return undefined;
  const own = sql.ref(column);
  const misses = sql`SELECT id FROM ${sql.table(table)} WHERE length(${own}) <> length(CAST(${own} AS BLOB)) AND ${own} NOT LIKE ${likePattern(fragment)} ESCAPE '\\'`;
  return sql<{
    id: number;
  }>`SELECT s.rowid AS id FROM ${sql.table(searchTable)} s WHERE ${trigramPhrase(`s.${column}`, fragment)} AND s.rowid NOT IN (${misses})`;
}

/** The rules `whereFilters` can write off the indexes, and the operator of each. */
const TESTED = {
  contains: 'LIKE',
  equalsCI: '=',
  exact: '=',
  flag: '=',
  atLeast: '>=',
  atMost: '<=',
} as const;

/** SQLite: the rowids (as `id`) of the rows whose `column` its FTS5 trigram table finds `fragment` in: a superset. */
export function trigramCandidates(searchTable: string, column: string, fragment: string) {
  return sql`SELECT rowid AS id FROM ${sql.table(searchTable)} s WHERE ${trigramPhrase(`s.${column}`, fragment)}`;
}

function trigramSearch(searchTable: string, column: string, fragment: string) {
  // A column of an aliased table ('u.email'): the search table names it alone, the id is the alias's.
  const dot = column.lastIndexOf('.');
  const [alias, name] = dot < 0 ? ['', column] : [column.slice(0, dot + 1), column.slice(dot + 1)];
  return sql<SqlBool>`(${sql.ref(`${alias}id`)} IN (SELECT rowid FROM ${sql.table(searchTable)} s WHERE ${trigramPhrase(`s.${name}`, fragment)}) AND ${sql.ref(column)} LIKE ${likePattern(fragment)} ESCAPE '\\')`;
}

/**
 * How one query parameter filters a list (decisions §2). Lists declare a rule per parameter
 * instead of writing WHERE clauses, so every list filters the same way.
 */
export type FilterRule =
  | { match: 'contains'; column: string; searchTable?: string }
  | { match: 'equalsCI'; column: string }
  | { match: 'exact'; column: string }
  | { match: 'flag'; column: string }
  | { match: 'atLeast'; column: string }
  | { match: 'atMost'; column: string }
  | { match: 'oneOfCI'; column: string }
  | { match: 'namedCI'; column: string; table: string }
  | { match: 'modelNamedCI'; column: string; makeColumn: string }
  | { match: 'within'; column: string; to: string }
  | { match: 'reportedCode'; column: string }
  | { match: 'segmentOfMake'; column: string };

export type FilterRules<Q> = Partial<Record<keyof Q, FilterRule>>;

/**
 * Contains, case-insensitive. With `searchTable` (the name of an FTS5 trigram table over the
 * list's table, e.g. `scans_search` of migration 003), SQLite answers from that index instead of
 * scanning; PostgreSQL's ILIKE uses its trigram indexes anyway.
 */
export const contains = (column: string, searchTable?: string): FilterRule => ({
  match: 'contains',
  column,
  ...(searchTable ? { searchTable } : {}),
});
export const equalsIgnoringCase = (column: string): FilterRule => ({ match: 'equalsCI', column });
export const exact = (column: string): FilterRule => ({ match: 'exact', column });
export const flag = (column: string): FilterRule => ({ match: 'flag', column });
export const atLeast = (column: string): FilterRule => ({ match: 'atLeast', column });
export const atMost = (column: string): FilterRule => ({ match: 'atMost', column });
/** A list of values (e.g. module names): any of them, exact and case-insensitive; an empty list matches no row. */
export const oneOfIgnoringCase = (column: string): FilterRule => ({ match: 'oneOfCI', column });
/**
 * `column` holds the id of a row of `table` whose `name` is the value, exact and
 * case-insensitive: a make by name (`namedIgnoringCase('c.make_id', 'makes')`) without a join.
 */
export const namedIgnoringCase = (column: string, table: string): FilterRule => ({
  match: 'namedCI',
  column,
  table,
});
/**
 * A model by name (exact, case-insensitive) over a catalogue keyed by model group (decisions §3):
 * the rows of the model's group (`column`), and the make-wide rows (no group) of its make (`makeColumn`).
 */
export const modelNamedIgnoringCase = (column: string, makeColumn: string): FilterRule => ({
  match: 'modelNamedCI',
  column,
  makeColumn,
});
/** The value falls in [`from`, `to`], an empty (null) bound being open: a model year in a command's years. */
export const within = (from: string, to: string): FilterRule => ({ match: 'within', column: from, to });

type AnyEb = ExpressionBuilder<Record<string, Record<string, unknown>>, string>;

/** `SELECT <table>.<selected> FROM <table> WHERE lower(<table>.name) = <name, lowercased>`. */
function namedIds(e: AnyEb, table: string, selected: string, name: string) {
  return e
    .selectFrom(table)
    .select(`${table}.${selected}`)
    .where((t) => t(t.fn('lower', [`${table}.name`]), '=', name.toLowerCase()));
}

/**
 * A scan (its id in `column`) whose decoded fault codes include the value, exact and
 * case-insensitive: migration 011's `scan_dtcs`, kept by triggers on scans.
 */
export const reportedCode = (column: string): FilterRule => ({ match: 'reportedCode', column });
/**
 * `column` holds a make's name whose segment (`makes.segment`) is the value, case-insensitive;
 * `other`: a make the makes table does not name (as migration 011's overview counters segment scans).
 */
export const segmentOfMake = (column: string): FilterRule => ({ match: 'segmentOfMake', column });

/** Whether a query parameter is given: absent, null and '' all mean "no filter". */
export const isSet = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** The rules of the filters the query gives, in the declaration's order, by parameter name. */
export function activeRules<Q extends object>(rules: FilterRules<Q>, query: Q): [string, FilterRule][] {
  return (Object.entries(rules) as [string, FilterRule][]).filter(([param]) =>
    isSet((query as Record<string, unknown>)[param]),
  );
}

/**
 * The AND of every rule whose parameter is present in the (already validated) query.
 * `offIndexes` (SQLite): the contains, case-insensitive, exact and bound rules are written so
 * that no index serves them (unary `+`), for a page read in the primary key's order that tests
 * each row it walks: otherwise SQLite may read every match through a filter's index and sort
 * them all for 30 rows.
 */
export function whereFilters<DB, TB extends keyof DB, Q extends object>(
  eb: ExpressionBuilder<DB, TB>,
  dialect: Dialect,
  rules: FilterRules<Q>,
  query: Q,
  offIndexes = false,
): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  // Columns are names from the declarations, never from the request.
  const e = eb as unknown as AnyEb;
  const tested = offIndexes && dialect === 'sqlite';
  for (const [param, rule] of Object.entries(rules) as [keyof Q, FilterRule][]) {
    const value = query[param];
    if (!isSet(value)) continue;
    const column = rule.column;
    if (tested && rule.match in TESTED) {
      const v = rule.match === 'contains' ? likePattern(String(value)) : value;
      const operand =
        rule.match === 'equalsCI' ? String(v).toLowerCase() : rule.match === 'flag' ? (v ? 1 : 0) : v;
      conditions.push(
        sql<SqlBool>`${rule.match === 'equalsCI' ? sql`+lower(${sql.ref(column)})` : sql`+${sql.ref(column)}`} ${sql.raw(TESTED[rule.match as keyof typeof TESTED])} ${operand}${rule.match === 'contains' ? sql` ESCAPE '\\'` : sql``}`,
      );
      continue;
    }
    switch (rule.match) {
      case 'contains':
        conditions.push(
          rule.searchTable && dialect === 'sqlite' && usesTrigramIndex(String(value))
            ? trigramSearch(rule.searchTable, column, String(value))
            : containsCI(e, dialect, column, String(value)),
        );
        break;
      case 'equalsCI':
        conditions.push(equalsCI(e, column, String(value)));
        break;
      case 'exact':
        conditions.push(e(column, '=', value));
        break;
      case 'flag':
        conditions.push(e(column, '=', value ? 1 : 0));
        break;
      case 'atLeast':
        conditions.push(e(column, '>=', value));
        break;
      case 'atMost':
        conditions.push(e(column, '<=', value));
        break;
      case 'oneOfCI': {
        const values = (value as readonly string[]).map((v) => v.toLowerCase());
        conditions.push(values.length > 0 ? e(e.fn('lower', [column]), 'in', values) : e.or([]));
        break;
      }
      case 'namedCI':
        conditions.push(e(column, 'in', namedIds(e, rule.table, 'id', String(value))));
        break;
      case 'modelNamedCI': {
        const model = String(value);
        conditions.push(
          e.or([
            e(column, 'in', namedIds(e, 'models', 'model_group_id', model)),
            e.and([e(column, 'is', null), e(rule.makeColumn, 'in', namedIds(e, 'models', 'make_id', model))]),
          ]),
        );
        break;
      }
      case 'reportedCode':
        conditions.push(
          sql<SqlBool>`${sql.ref(column)} IN (SELECT scan_id FROM scan_dtcs WHERE dtc = ${String(value).trim().toUpperCase()})`,
        );
        break;
      case 'segmentOfMake': {
        const segment = String(value).trim().toLowerCase();
        conditions.push(
          segment === 'other'
            ? sql<SqlBool>`${sql.ref(column)} NOT IN (SELECT name FROM makes)`
            : sql<SqlBool>`${sql.ref(column)} IN (SELECT name FROM makes WHERE lower(segment) = ${segment})`,
        );
        break;
      }
      case 'within':
        conditions.push(
          e.and([
            e.or([e(column, 'is', null), e(column, '<=', value)]),
            e.or([e(rule.to, 'is', null), e(rule.to, '>=', value)]),
          ]),
        );
        break;
    }
  }
  return eb.and(conditions);
}
