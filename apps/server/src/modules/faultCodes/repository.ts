import type { FaultCodeQuery } from '@obd/contract';
import type { Db } from '../../db/database.ts';
import { fetchPage } from '../../lib/list.ts';
import { containsCI } from '../../lib/sql.ts';

/** The four fault-code reference tables share the columns the browsers filter on. */
export type FaultTable = 'fault_codes' | 'fault_code_causes' | 'fault_code_symptoms' | 'fault_code_solutions';

type Filters = Pick<FaultCodeQuery, 'dtc' | 'make' | 'generic'>;

/** WHERE clauses of every fault-code browser: dtc and make contain, generic exact (decisions §2). */
function filtered(db: Db, table: FaultTable, f: Filters) {
  // The tables share dtc/make/generic; typing the query as fault_codes keeps one builder for all four.
  return db.kysely.selectFrom(table as 'fault_codes').where((eb) => {
    const conditions = [];
    if (f.dtc) conditions.push(containsCI(eb, db.dialect, 'dtc', f.dtc));
    if (f.make) conditions.push(containsCI(eb, db.dialect, 'make', f.make));
    if (f.generic !== undefined) conditions.push(eb('generic', '=', f.generic ? 1 : 0));
    return eb.and(conditions);
  });
}

const common = ['id', 'dtc', 'make', 'company_id', 'generic'] as const;

const faultCodeColumns = [...common, 'title', 'severity', 'repair_difficulty'] as const;

export function listFaultCodes(db: Db, q: FaultCodeQuery) {
  return fetchPage(filtered(db, 'fault_codes', q), (s) => s.select(faultCodeColumns).orderBy('id'), q);
}

/** Every fault code under the filters, for exports. */
export function faultCodeBatches(db: Db, q: Filters) {
  return db.streamRows(filtered(db, 'fault_codes', q).select(faultCodeColumns).orderBy('id').compile());
}

/** Causes, symptoms or solutions: the same shape with a different text column. */
export function listFaultTexts<C extends 'causes' | 'symptom' | 'solution'>(
  db: Db,
  table: Exclude<FaultTable, 'fault_codes'>,
  textColumn: C,
  q: FaultCodeQuery,
) {
  return fetchPage(
    filtered(db, table, q) as unknown as ReturnType<typeof filtered>,
    (s) =>
      s
        // biome-ignore lint/suspicious/noExplicitAny: the text column differs per table
        .select([...common, 'language' as any, `${textColumn} as text` as any])
        .orderBy('id'),
    q,
  ) as Promise<{
    rows: {
      id: number;
      dtc: string;
      make: string | null;
      company_id: number;
      generic: number;
      language: string;
      text: string;
    }[];
    total: number;
  }>;
}
