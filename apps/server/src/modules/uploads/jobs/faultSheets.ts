import type { ColumnSpec } from '../../../import/columns.ts';
import type { SheetPlan, Values } from '../../../import/sheet.ts';
import {
  companyId,
  genericFlag,
  optionalText,
  Reason,
  requiredText,
  scale,
  textHash,
} from '../../../import/values.ts';

/** Plans for the fault-code sheets, shared by the Bulk Uploader and the Excel Importer. */

const common = {
  dtc: {
    key: 'dtc',
    label: 'DTC',
    aliases: ['DTC Code', 'Code', 'Fault Code', 'Trouble Code'],
    required: true,
  },
  make: { key: 'make', label: 'Make', aliases: ['Brand', 'Manufacturer'] },
  company: { key: 'company', label: 'Company ID', aliases: ['Company', 'CompanyId', 'Company No'] },
  generic: { key: 'generic', label: 'Generic', aliases: ['Is Generic', 'Generic Code'] },
} as const satisfies Record<string, ColumnSpec>;

const FAULT_CODE_COLUMNS = [
  common.dtc,
  { key: 'title', label: 'Title', aliases: ['Description', 'Fault Description', 'Name'] },
  { key: 'severity', label: 'Severity', aliases: ['Severity Level'] },
  { key: 'difficulty', label: 'Repair Difficulty', aliases: ['Difficulty', 'Repair Difficulty Level'] },
  common.make,
  common.company,
  common.generic,
] as const;

/** A DTC as stored: trimmed, upper-case (codes are written P0300, and `p0300` is the same code). */
function dtcOf(raw: string): string | Reason {
  const dtc = requiredText(raw, 'DTC', 32);
  return dtc instanceof Reason ? dtc : dtc.toUpperCase();
}

const describe = (values: Values) => `${values[0]} (company ${values[1]})`;

/** The fault codes sheet → fault_codes; key (dtc, company_id). */
export function faultCodePlan(label: string, defaultCompany: number): SheetPlan {
  return {
    label,
    columns: FAULT_CODE_COLUMNS,
    key: [0, 1],
    target: {
      table: 'fault_codes',
      columns: ['dtc', 'company_id', 'title', 'severity', 'repair_difficulty', 'make', 'generic'],
      types: ['text', 'int4', 'text', 'int4', 'int4', 'text', 'int4'],
      unique: [0, 1],
    },
    describe,
    parse(cell) {
      const dtc = dtcOf(cell('dtc'));
      if (dtc instanceof Reason) return dtc;
      const company = companyId(cell('company'), defaultCompany);
      if (company instanceof Reason) return company;
      const title = optionalText(cell('title'), 'Title', 2000);
      if (title instanceof Reason) return title;
      const severity = scale(cell('severity'), 'Severity');
      if (severity instanceof Reason) return severity;
      const difficulty = scale(cell('difficulty'), 'Repair Difficulty');
      if (difficulty instanceof Reason) return difficulty;
      const make = optionalText(cell('make'), 'Make', 200);
      if (make instanceof Reason) return make;
      const generic = genericFlag(cell('generic'));
      if (generic instanceof Reason) return generic;
      return [dtc, company, title, severity, difficulty, make, generic];
    },
  };
}

const FAULT_TEXT_SHEETS = {
  causes: {
    table: 'fault_code_causes',
    column: 'causes',
    summaryKey: 'my_fault_code_causes',
    text: { key: 'text', label: 'Causes', aliases: ['Cause', 'Text', 'Description'], required: true },
  },
  symptoms: {
    table: 'fault_code_symptoms',
    column: 'symptom',
    summaryKey: 'my_fault_code_symptoms',
    text: { key: 'text', label: 'Symptom', aliases: ['Symptoms', 'Text', 'Description'], required: true },
  },
  solutions: {
    table: 'fault_code_solutions',
    column: 'solution',
    summaryKey: 'my_fault_code_solutions',
    text: {
      key: 'text',
      label: 'Solution',
      aliases: ['Solutions', 'Fix', 'Text', 'Description'],
      required: true,
    },
  },
} as const;

/** A causes / symptoms / solutions sheet; key (dtc, company_id, language, text) with the text as its sha-256. */
export function faultTextPlan(label: string, kind: keyof typeof FAULT_TEXT_SHEETS): SheetPlan {
  const sheet = FAULT_TEXT_SHEETS[kind];
  const textLabel = sheet.text.label;
  return {
    label,
    columns: [
      common.dtc,
      sheet.text,
      { key: 'language', label: 'Language', aliases: ['Lang', 'Locale'] },
      common.make,
      common.company,
      common.generic,
    ],
    key: [0, 1, 2, 3],
    target: {
      table: sheet.table,
      columns: ['dtc', 'company_id', 'language', 'text_hash', sheet.column, 'make', 'generic'],
      types: ['text', 'int4', 'text', 'text', 'text', 'text', 'int4'],
      unique: [0, 1, 2, 3],
    },
    describe: (values) => `${values[0]} (company ${values[1]}, ${values[2]})`,
    parse(cell) {
      const dtc = dtcOf(cell('dtc'));
      if (dtc instanceof Reason) return dtc;
      const text = requiredText(cell('text'), textLabel, 10_000);
      if (text instanceof Reason) return text;
      const language = optionalText(cell('language'), 'Language', 16);
      if (language instanceof Reason) return language;
      const company = companyId(cell('company'), 0);
      if (company instanceof Reason) return company;
      const make = optionalText(cell('make'), 'Make', 200);
      if (make instanceof Reason) return make;
      const generic = genericFlag(cell('generic'));
      if (generic instanceof Reason) return generic;
      return [dtc, company, (language ?? 'en').toLowerCase(), textHash(text), text, make, generic];
    },
  };
}
