import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

/** The reference CSV files shipped beside this module (sources and licences: data/ATTRIBUTION.md). */
export const DATA_DIR = path.join(import.meta.dirname, 'data');

/** The columns the seed reads from each file (the files carry more; see data/ATTRIBUTION.md). */
const COLUMNS = {
  dtc_generic_obdex: ['dtc', 'category', 'title_en', 'repair_difficulty', 'mil', 'limp_mode_possible'],
  dtc_causes_obdex: ['dtc', 'rank', 'language', 'cause'],
  dtc_symptoms_obdex: ['dtc', 'rank', 'language', 'symptom'],
  dtc_manufacturer_wal33d: ['dtc', 'make', 'title', 'system'],
  dtc_solutions_mechanicdb: ['dtc', 'make', 'system', 'title', 'fix_rank', 'fix_title', 'steps'],
  elm327_at_commands_elmduino: ['command', 'command_template', 'category'],
  obd_pids_obdex: ['mode', 'pid', 'command', 'name_en', 'formula', 'unit'],
  live_data_signals_obdb: [
    'make',
    'model',
    'header',
    'receive_header',
    'extended_address',
    'service',
    'command',
    'model_year_filter',
    'signal_id',
    'signal_name',
    'path',
    'description',
    'suggested_metric',
    'bit_offset',
    'bit_length',
    'signed',
    'mul',
    'div',
    'add',
    'min',
    'max',
    'unit',
    'formula',
    'value_map',
  ],
  scan_responses_obdb: ['make', 'model', 'model_year', 'command_id', 'response_frames'],
  vehicle_makes_vpic: ['make_id', 'make', 'segments', 'model_count'],
  vehicle_models_vpic: ['make', 'model', 'segments', 'year_from', 'year_to'],
} as const;

export type DataFile = keyof typeof COLUMNS;
export type CsvRow<F extends DataFile> = Record<(typeof COLUMNS)[F][number], string>;

const cache = new Map<DataFile, unknown>();

/**
 * Parses one data file (header row → object keys; every value a string, '' when empty). A file
 * is parsed once per seed run, however many parts of the seed read it, and released at the end
 * of the run (`releaseCsvCache`): the server that seeded on its first start should not keep
 * tens of megabytes of parsed reference rows.
 */
export function loadCsv<F extends DataFile>(file: F): CsvRow<F>[] {
  const cached = cache.get(file);
  if (cached) return cached as CsvRow<F>[];
  const text = fs.readFileSync(path.join(DATA_DIR, `${file}.csv`), 'utf8');
  let header: string[] = [];
  const rows = parse(text, {
    skip_empty_lines: true,
    columns: (names: string[]) => {
      header = names;
      return names;
    },
  }) as unknown as CsvRow<F>[];
  // Fail here, naming the file, rather than later as an undefined deep inside a generator.
  const missing = COLUMNS[file].filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new Error(`Seed data file ${file}.csv lacks the column(s) ${missing.join(', ')}`);
  cache.set(file, rows);
  return rows;
}

/** Forgets the parsed files (called when a seed run ends). */
export function releaseCsvCache(): void {
  cache.clear();
}
