import { createHash } from 'node:crypto';
import { getOrAdd } from './collections.ts';
import { loadCsv } from './csv.ts';
import { insertAll, type Row, type SeedContext } from './insert.ts';
import type { VehicleIndex } from './vehicles.ts';

/** sha-256 hex of a cause / symptom / solution text: the short form of the natural key. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Severity 1–3 of a generic code from the OBDex flags: a code that may put the car in limp mode
 * is high, one that lights the MIL medium, anything else low.
 */
function genericSeverity(row: { mil: string; limp_mode_possible: string }): number {
  if (row.limp_mode_possible === 'true') return 3;
  if (row.mil === 'true') return 2;
  return 1;
}

const DIFFICULTY: Record<string, number> = { easy: 1, medium: 2, hard: 3, shop_only: 3 };

/**
 * The manufacturer lists carry only a title and a system, so severity and difficulty are read
 * from the title: misfires, transmission and overheating faults are serious and need a workshop;
 * plain sensor and switch circuits are simple.
 */
function makeSeverity(title: string): number {
  if (/misfire|transmission|shift|overheat|knock|limp|fuel pressure|oil pressure|brake|airbag/i.test(title))
    return 3;
  if (/circuit|sensor|performance|range|malfunction/i.test(title)) return 2;
  return 1;
}

function makeDifficulty(title: string): number {
  if (/transmission|solenoid|valve|module|ecm|pcm|injector|pump|clutch/i.test(title)) return 3;
  if (/switch|sensor|lamp|fuse/i.test(title)) return 1;
  return 2;
}

/** Fault codes, causes, symptoms and solutions from OBDex, Wal33D and MechanicDB. */
export async function seedFaults(ctx: SeedContext, vehicles: VehicleIndex): Promise<void> {
  const codes: Row<'fault_codes'>[] = [];
  const seenCodes = new Set<string>();
  for (const r of loadCsv('dtc_generic_obdex')) {
    if (!r.dtc || seenCodes.has(`${r.dtc}|0`)) continue;
    seenCodes.add(`${r.dtc}|0`);
    codes.push({
      dtc: r.dtc,
      make: null,
      company_id: 0,
      generic: 1,
      title: r.title_en || null,
      severity: genericSeverity(r),
      repair_difficulty: DIFFICULTY[r.repair_difficulty] ?? null,
    });
  }
  for (const r of loadCsv('dtc_manufacturer_wal33d')) {
    const make = vehicles.get(r.make);
    // Acura and Honda share most codes, but they are distinct makes: (dtc, make) is the key.
    if (!r.dtc || seenCodes.has(`${r.dtc}|${make.id}`)) continue;
    seenCodes.add(`${r.dtc}|${make.id}`);
    codes.push({
      dtc: r.dtc,
      make: make.name,
      company_id: make.id,
      generic: 0,
      title: r.title || null,
      severity: makeSeverity(r.title),
      repair_difficulty: makeDifficulty(r.title),
    });
  }
  await insertAll(ctx, 'fault_codes', codes);

  // Texts keyed by (dtc, company_id, language, text): a repeat in the source is skipped.
  const seenTexts = new Set<string>();
  const fresh = (dtc: string, companyId: number, language: string, hash: string) => {
    const key = `${dtc}|${companyId}|${language}|${hash}`;
    if (seenTexts.has(key)) return false;
    seenTexts.add(key);
    return true;
  };

  const causes: Row<'fault_code_causes'>[] = [];
  for (const r of loadCsv('dtc_causes_obdex')) {
    const hash = textHash(r.cause);
    if (!r.dtc || !r.cause || !fresh(`c:${r.dtc}`, 0, r.language, hash)) continue;
    causes.push({
      dtc: r.dtc,
      make: null,
      company_id: 0,
      generic: 1,
      causes: r.cause,
      language: r.language,
      text_hash: hash,
    });
  }
  await insertAll(ctx, 'fault_code_causes', causes);

  const symptoms: Row<'fault_code_symptoms'>[] = [];
  for (const r of loadCsv('dtc_symptoms_obdex')) {
    const hash = textHash(r.symptom);
    if (!r.dtc || !r.symptom || !fresh(`s:${r.dtc}`, 0, r.language, hash)) continue;
    symptoms.push({
      dtc: r.dtc,
      make: null,
      company_id: 0,
      generic: 1,
      symptom: r.symptom,
      language: r.language,
      text_hash: hash,
    });
  }
  await insertAll(ctx, 'fault_code_symptoms', symptoms);

  const solutions: Row<'fault_code_solutions'>[] = [];
  for (const r of loadCsv('dtc_solutions_mechanicdb')) {
    const text = `${r.fix_title}: ${r.steps}`;
    const make = r.make ? vehicles.get(r.make) : null;
    const companyId = make?.id ?? 0;
    const hash = textHash(text);
    if (!r.dtc || !fresh(`x:${r.dtc}`, companyId, 'en', hash)) continue;
    solutions.push({
      dtc: r.dtc,
      make: make?.name ?? null,
      company_id: companyId,
      generic: make ? 0 : 1,
      solution: text,
      language: 'en',
      text_hash: hash,
    });
  }
  await insertAll(ctx, 'fault_code_solutions', solutions);

  ctx.log(
    `fault codes ${codes.length}, causes ${causes.length}, symptoms ${symptoms.length}, solutions ${solutions.length}`,
  );
}

/** A code and its title, as a scan's decodedFaultArray shows it. */
export interface DtcEntry {
  code: string;
  title: string;
  /** `"P0301":"Cylinder 1 Misfire Detected"`: the entry's JSON, built once for many scans. */
  json: string;
}

function dtcEntry(code: string, title: string): DtcEntry {
  return { code, title, json: `${JSON.stringify(code)}:${JSON.stringify(title)}` };
}

/** Real codes to put in generated scan results, by first letter, plus each make's own codes. */
export interface DtcPool {
  common: DtcEntry[];
  powertrain: DtcEntry[];
  chassis: DtcEntry[];
  body: DtcEntry[];
  network: DtcEntry[];
  byMake: Map<number, DtcEntry[]>;
}

/** Codes that real scans report most often (misfire, lean, catalyst, EVAP, thermostat …). */
const COMMON_CODES = [
  'P0300',
  'P0301',
  'P0302',
  'P0303',
  'P0304',
  'P0420',
  'P0430',
  'P0171',
  'P0174',
  'P0128',
  'P0442',
  'P0455',
  'P0456',
  'P0113',
  'P0101',
  'P0135',
  'P0141',
  'P0401',
  'P0506',
  'P0700',
];

export function buildDtcPool(vehicles: VehicleIndex): DtcPool {
  const pool: DtcPool = { common: [], powertrain: [], chassis: [], body: [], network: [], byMake: new Map() };
  const titles = new Map<string, string>();
  for (const r of loadCsv('dtc_generic_obdex')) {
    if (!r.dtc || !r.title_en) continue;
    titles.set(r.dtc, r.title_en);
    const entry = dtcEntry(r.dtc, r.title_en);
    const first = r.dtc[0];
    if (first === 'P') pool.powertrain.push(entry);
    else if (first === 'C') pool.chassis.push(entry);
    else if (first === 'B') pool.body.push(entry);
    else if (first === 'U') pool.network.push(entry);
  }
  for (const code of COMMON_CODES) {
    const title = titles.get(code);
    if (title) pool.common.push(dtcEntry(code, title));
  }
  for (const r of loadCsv('dtc_manufacturer_wal33d')) {
    const make = vehicles.find(r.make);
    if (!make || !r.title) continue;
    const list = getOrAdd(pool.byMake, make.id, () => []);
    list.push(dtcEntry(r.dtc, r.title));
  }
  return pool;
}
