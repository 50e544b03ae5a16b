import { createHash } from 'node:crypto';
import type { Db } from '../src/db/database.ts';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

export interface FaultCodeInput {
  dtc: string;
  title?: string | null;
  severity?: number | null;
  repair_difficulty?: number | null;
  make?: string | null;
  company_id?: number;
  generic?: boolean;
}

/** Fault codes with sensible defaults; each test states only what it cares about. */
export async function insertFaultCodes(db: Db, rows: FaultCodeInput[]) {
  if (rows.length === 0) return;
  await db.kysely
    .insertInto('fault_codes')
    .values(
      rows.map((r) => ({
        dtc: r.dtc,
        title: r.title === undefined ? `Title of ${r.dtc}` : r.title,
        severity: r.severity === undefined ? 2 : r.severity,
        repair_difficulty: r.repair_difficulty === undefined ? 1 : r.repair_difficulty,
        make: r.make ?? null,
        company_id: r.company_id ?? 0,
        generic: (r.generic ?? r.company_id === undefined) ? 1 : 0,
      })),
    )
    .execute();
}

export type FaultTextTable = 'fault_code_causes' | 'fault_code_symptoms' | 'fault_code_solutions';
const TEXT_COLUMN = {
  fault_code_causes: 'causes',
  fault_code_symptoms: 'symptom',
  fault_code_solutions: 'solution',
};

export async function insertFaultTexts(
  db: Db,
  table: FaultTextTable,
  rows: {
    dtc: string;
    text: string;
    language?: string;
    make?: string | null;
    company_id?: number;
    generic?: boolean;
  }[],
) {
  // The three tables differ only in the name of the text column.
  await db.kysely
    .insertInto(table as 'fault_code_causes')
    .values(
      rows.map((r) => ({
        dtc: r.dtc,
        ...({ [TEXT_COLUMN[table]]: r.text } as { causes: string }),
        language: r.language ?? 'en',
        make: r.make ?? null,
        company_id: r.company_id ?? 0,
        generic: (r.generic ?? r.company_id === undefined) ? 1 : 0,
        text_hash: hash(r.text),
      })),
    )
    .execute();
}
