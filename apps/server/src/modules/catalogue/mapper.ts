import type { ActuationCommand, CustomCommand, LiveDataRow, OdometerRow, SpfCommand } from '@obd/contract';
import type {
  listActuationCommands,
  listCustomCommands,
  listLiveData,
  listOdometer,
  listSpfCommands,
} from './repository.ts';
import { actuationSteps, spfSteps } from './stepLists.ts';

/**
 * Rows of the catalogue tables → the contract's DTOs. Flags are stored as 0/1 and answered as
 * booleans; the grouped catalogues merge their rows into one object per group, from JSON arrays
 * stored as text.
 */

type RowOf<F extends (...args: never[]) => Promise<{ rows: unknown[] }>> = Awaited<
  ReturnType<F>
>['rows'][number];

const bool = (v: number) => v === 1;

/** Stored JSON text; a malformed value shows as the fallback rather than failing the page. */
function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Odometer row → the 12 fields of spec §3, in its camelCase where the spec uses it. */
export function toOdometer(r: RowOf<typeof listOdometer>): OdometerRow {
  return {
    id: r.id,
    header: r.header,
    subHeader: r.sub_header,
    pid: r.pid,
    protocol: r.protocol,
    system: r.system,
    init: r.init,
    formulaBased: bool(r.formula_based),
    generic: bool(r.generic),
    formula_metric: r.formula_metric,
    formula_imperial: r.formula_imperial,
    unit_metric: r.unit_metric,
    unit_imperial: r.unit_imperial,
  };
}

/** Live-data row → its DTO; the decoding reference is parsed (kept as text if it is not JSON). */
export function toLiveData(r: RowOf<typeof listLiveData>): LiveDataRow {
  return {
    id: r.id,
    name: r.name,
    model: r.model,
    make: r.make,
    header: r.header,
    subHeader: r.sub_header,
    pid: r.pid,
    protocol: r.protocol,
    formulaBased: bool(r.formula_based),
    formula_metric: r.formula_metric,
    formula_imperial: r.formula_imperial,
    unit_metric: r.unit_metric,
    unit_imperial: r.unit_imperial,
    referenceJSON: r.reference_json ? parseJson<unknown>(r.reference_json, r.reference_json) : null,
  };
}

/**
 * A page of custom-command groups → one object per function: its variant → commands maps merged
 * in row order (a variant seen twice keeps both lists, without repeating a command), and the
 * distinct makes and model groups of its rows in the order of their first row ("Honda, Acura").
 */
export function toCustomCommands(page: Awaited<ReturnType<typeof listCustomCommands>>): CustomCommand[] {
  const merged = new Map<string, Record<string, string[]>>(page.keys.map((key) => [key, {}]));
  for (const row of page.variantTexts) {
    const commands = merged.get(row.function_name) ?? {};
    const variants = parseJson<Record<string, string[]>[]>(row.variants, [])[0] ?? {};
    for (const [variant, list] of Object.entries(variants)) {
      commands[variant] = [...new Set([...(commands[variant] ?? []), ...list])];
    }
  }
  const makes = new Map<string, Set<string>>();
  const models = new Map<string, Set<string>>();
  for (const row of page.names) {
    const makeSet = makes.get(row.function_name) ?? new Set();
    const modelSet = models.get(row.function_name) ?? new Set();
    makeSet.add(row.make);
    modelSet.add(row.model ?? 'All models');
    makes.set(row.function_name, makeSet);
    models.set(row.function_name, modelSet);
  }
  const joined = (set: Set<string> | undefined) => [...(set ?? [])].join(', ');
  return [...merged].map(([key, commands]) => ({
    function_name: key,
    make: joined(makes.get(key)),
    model: joined(models.get(key)),
    variant: Object.keys(commands),
    commands: [commands],
  }));
}

/** A page of actuation step lists → one card per type: its message and its step lists in order. */
export function toActuationCommands(
  page: Awaited<ReturnType<typeof listActuationCommands>>,
): ActuationCommand[] {
  const message = new Map(page.messages.map((m) => [m.actuation_type, m.message]));
  const cards = new Map<string, ActuationCommand>();
  for (const row of page.stepLists) {
    let card = cards.get(row.actuation_type);
    if (!card) {
      card = {
        actuation_type: row.actuation_type,
        message: message.get(row.actuation_type) ?? null,
        details: [],
      };
      cards.set(row.actuation_type, card);
    }
    for (const step of actuationSteps(row.first, row.details)) card.details.push(step);
  }
  return [...cards.values()];
}

/** A page of SPF step lists → one object per function, hard-coded when any of its rows is. */
export function toSpfCommands(page: Awaited<ReturnType<typeof listSpfCommands>>): SpfCommand[] {
  const functions = new Map<string, SpfCommand>();
  for (const row of page.stepLists) {
    let fn = functions.get(row.function_name);
    if (!fn) {
      fn = { function_name: row.function_name, hard_coded: false, details: [] };
      functions.set(row.function_name, fn);
    }
    fn.hard_coded ||= Number(row.hard_coded) === 1;
    for (const step of spfSteps(row.first, row.details)) fn.details.push(step);
  }
  return [...functions.values()];
}
