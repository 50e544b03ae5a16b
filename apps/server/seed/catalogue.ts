import { getOrAdd } from './collections.ts';
import { type CsvRow, loadCsv } from './csv.ts';
import { insertAll, type Row, type SeedContext } from './insert.ts';
import { UPDATE_COMMAND_MAKES } from './lists.ts';
import {
  at,
  headerCommands,
  MODULES,
  type Module,
  type ModuleAddress,
  moduleAddress,
  moduleOfPath,
  PROTOCOLS,
  protocolOfHeader,
  setupCommands,
} from './protocols.ts';
import { type Rng, rng } from './random.ts';
import { ACTUATIONS, CUSTOM_FUNCTIONS, SPF_FUNCTIONS } from './routines.ts';
import type { SeededMake, SeededModel, VehicleIndex } from './vehicles.ts';

/**
 * The command catalogues: coverage, mechanic (lookup) commands, live-data and odometer commands
 * from the real OBDb / OBDex data, and generated custom, actuation and SPF commands.
 */
export async function seedCatalogues(ctx: SeedContext, vehicles: VehicleIndex): Promise<void> {
  const coverage = buildCoverage(vehicles);
  await insertAll(ctx, 'coverage', coverage);
  const mechanic = buildMechanicCommands(vehicles);
  await insertAll(ctx, 'mechanic_commands', mechanic);
  const live = buildLiveData(vehicles);
  await insertAll(ctx, 'live_data_commands', live);
  const odometer = buildOdometer(vehicles);
  await insertAll(ctx, 'odometer_commands', odometer);
  const { custom, actuation, spf } = buildServiceCatalogues(vehicles);
  await insertAll(ctx, 'custom_commands', custom);
  await insertAll(ctx, 'actuation_commands', actuation);
  await insertAll(ctx, 'spf_commands', spf);
  ctx.log(
    `coverage ${coverage.length}, mechanic commands ${mechanic.length}, live data ${live.length}, ` +
      `odometer ${odometer.length}, custom ${custom.length}, actuation ${actuation.length}, spf ${spf.length}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Coverage

type CoverageList = Record<string, readonly string[]>;

const CAR_COVERAGE: CoverageList = {
  Scan: [
    'Engine',
    'ABS',
    'Airbag',
    'Transmission',
    'Instrument Cluster',
    'Body Control',
    'HVAC',
    'Immobilizer',
    'TPMS',
    'Electric Power Steering',
    'Parking Assist',
    'Gateway',
  ],
  'Live Data': ['Engine', 'Transmission', 'ABS', 'HVAC', 'Battery Management'],
  Actuation: ['Cooling Fan', 'Fuel Pump', 'Horn', 'Wipers', 'Headlamps', 'Door Locks', 'A/C Compressor'],
  'Special Function': [
    'DPF Regeneration',
    'Injector Coding',
    'Service Reset',
    'Throttle Body Relearn',
    'Steering Angle Reset',
    'Battery Registration',
    'EPB Service Mode',
    'TPMS Relearn',
    'Key Programming',
    'Gear Learning',
  ],
  Odometer: ['Instrument Cluster', 'Engine'],
};

const SMALL_COVERAGE: CoverageList = {
  Scan: ['Engine', 'ABS', 'Instrument Cluster'],
  'Live Data': ['Engine'],
  Actuation: ['Cooling Fan', 'Fuel Pump', 'Headlamps', 'Horn'],
  'Special Function': ['Service Reset', 'Throttle Body Relearn'],
  Odometer: ['Instrument Cluster'],
};

const HCV_COVERAGE: CoverageList = {
  ...CAR_COVERAGE,
  'Special Function': [...(CAR_COVERAGE['Special Function'] ?? []), 'SCR AdBlue Reset', 'EGR Adaptation'],
};

/** Each make supports a deterministic subset: engine scan and live data always, the rest mostly. */
function buildCoverage(vehicles: VehicleIndex): Row<'coverage'>[] {
  const rows: Row<'coverage'>[] = [];
  for (const make of vehicles.makes) {
    const r = rng(`coverage:${make.name}`);
    const list =
      make.segment === 'car' ? CAR_COVERAGE : make.segment === 'hcv' ? HCV_COVERAGE : SMALL_COVERAGE;
    for (const [functionType, names] of Object.entries(list)) {
      for (const name of names) {
        const core = name === 'Engine' && (functionType === 'Scan' || functionType === 'Live Data');
        if (core || r.chance(0.75))
          rows.push({ make_id: make.id, function_name: name, function_type: functionType });
      }
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Mechanic (lookup) commands

/** Modules a make's lookup commands cover, by segment. */
function modulesOf(make: SeededMake): readonly Module[] {
  if (make.segment === 'bike') return ['Engine', 'ABS', 'Instrument Cluster'];
  if (make.segment === 'three_wheeler') return ['Engine', 'Instrument Cluster'];
  return MODULES;
}

/** Modules whose scan belongs to a full scan (the rest are scanned on request). */
const FULL_SCAN_MODULES = new Set<Module>(['Engine', 'ABS', 'Airbag', 'Transmission']);

/** Standard ISO 14229 identification DIDs every UDS ECU answers: part number, software, serial… */
const UDS_IDENTIFICATION = ['22F187', '22F189', '22F18C', '22F191', '22F197'];

/** Mode 01 PIDs a live-data session typically polls (from OBDex's mode 01 table). */
const ENGINE_LIVE_PIDS = [
  '0104',
  '0105',
  '010B',
  '010C',
  '010D',
  '010F',
  '0110',
  '0111',
  '012F',
  '0142',
  '015C',
];

function buildMechanicCommands(vehicles: VehicleIndex): Row<'mechanic_commands'>[] {
  const obdPids = new Set(loadCsv('obd_pids_obdex').map((p) => p.command));
  const enginePids = ENGINE_LIVE_PIDS.filter((p) => obdPids.has(p));
  const obdbCommands = obdbCommandsByModule();

  const rows: Row<'mechanic_commands'>[] = [];
  for (const make of vehicles.makes) {
    for (const module of modulesOf(make)) {
      const address = moduleAddress(make.name, make.segment, module);
      const setup = setupCommands(address);
      const isEngine = module === 'Engine';
      const kline = address.protocol === '5';
      const own = obdbCommands.get(`${make.name}|${module}`) ?? [];
      const diagnostic: Record<string, string[]> = {
        // Emissions DTC modes 03/07/0A on the engine (and CAN transmissions); UDS 19 02 elsewhere.
        scan: isEngine
          ? ['03', '07', '0A']
          : module === 'Transmission' && !kline
            ? ['03', '07']
            : kline
              ? ['1800FF00']
              : ['1902FF', '190A'],
        live_data: [
          ...(isEngine ? enginePids : own.length > 0 ? [] : UDS_IDENTIFICATION),
          ...obdbLiveData(own, address, 12),
        ],
        vin: isEngine ? ['0902'] : kline ? ['1A90'] : ['22F190'],
        clear_codes: isEngine ? ['04'] : kline ? ['14FF00'] : ['14FFFFFF'],
      };
      for (const [functionType, commands] of Object.entries(diagnostic)) {
        const fullScan = functionType === 'scan' && FULL_SCAN_MODULES.has(module) ? 1 : 0;
        for (const command of [...setup, ...commands]) {
          rows.push({ make_id: make.id, command, module, function_type: functionType, full_scan: fullScan });
        }
      }
    }
  }
  return rows;
}

/** OBDb's own request commands of one ECU (request header) of a make's module. */
interface ObdbEcu {
  header: string;
  extendedAddress: string;
  commands: string[];
}

/** OBDb's own request commands per make and module (e.g. Ford Transmission → 7E0 221E12). */
function obdbCommandsByModule(): Map<string, ObdbEcu[]> {
  const byModule = new Map<string, ObdbEcu[]>();
  for (const s of loadCsv('live_data_signals_obdb')) {
    if (!s.command || !s.header || s.service === '01') continue;
    const ecus = getOrAdd(byModule, `${s.make}|${moduleOfPath(s.path)}`, () => []);
    let ecu = ecus.find((e) => e.header === s.header && e.extendedAddress === s.extended_address);
    if (!ecu) {
      ecu = { header: s.header, extendedAddress: s.extended_address, commands: [] };
      ecus.push(ecu);
    }
    if (!ecu.commands.includes(s.command)) ecu.commands.push(s.command);
  }
  return byModule;
}

/**
 * Live-data polling of OBDb's ECUs: each ECU's commands after the AT commands that address it
 * (protocol, header, extended address), at most `limit` requests in all.
 */
function obdbLiveData(ecus: readonly ObdbEcu[], current: ModuleAddress, limit: number): string[] {
  const out: string[] = [];
  let address = current;
  let left = limit;
  for (const ecu of ecus) {
    if (left <= 0) break;
    const next: ModuleAddress = {
      header: ecu.header,
      protocol: protocolOfHeader(ecu.header),
      ...(ecu.extendedAddress ? { extendedAddress: ecu.extendedAddress } : {}),
    };
    if (next.protocol !== address.protocol) out.push(at('AT SP', next.protocol));
    if (next.protocol === '7' && address.protocol !== '7') out.push(at('AT CP', '18'));
    if (next.header !== address.header || next.protocol !== address.protocol) {
      out.push(at('AT SH', next.protocol === '7' ? `${next.header}F1` : next.header));
    }
    if (next.extendedAddress && next.extendedAddress !== address.extendedAddress) {
      out.push(at('AT CEA', next.extendedAddress));
    }
    const commands = ecu.commands.slice(0, left);
    out.push(...commands);
    left -= commands.length;
    address = next;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Live data and odometer commands

/** OBDb unit names → the imperial unit and the factor/offset that converts a metric value. */
const IMPERIAL: Record<string, { unit: string; convert: (f: string) => string }> = {
  celsius: { unit: 'fahrenheit', convert: (f) => `(${f})*9/5+32` },
  kilometersPerHour: { unit: 'milesPerHour', convert: (f) => `(${f})*0.621371` },
  kilometers: { unit: 'miles', convert: (f) => `(${f})*0.621371` },
  kilopascal: { unit: 'psi', convert: (f) => `(${f})*0.145038` },
  bars: { unit: 'psi', convert: (f) => `(${f})*14.5038` },
  liters: { unit: 'gallons', convert: (f) => `(${f})*0.264172` },
  centimeters: { unit: 'inches', convert: (f) => `(${f})*0.393701` },
  millimeters: { unit: 'inches', convert: (f) => `(${f})*0.0393701` },
  newtonMeters: { unit: 'poundFeet', convert: (f) => `(${f})*0.737562` },
  '°C': { unit: '°F', convert: (f) => `(${f})*9/5+32` },
  'km/h': { unit: 'mph', convert: (f) => `(${f})*0.621371` },
  km: { unit: 'mi', convert: (f) => `(${f})*0.621371` },
  kPa: { unit: 'psi', convert: (f) => `(${f})*0.145038` },
  Nm: { unit: 'lb-ft', convert: (f) => `(${f})*0.737562` },
  'L/h': { unit: 'gal/h', convert: (f) => `(${f})*0.264172` },
};

function imperial(formula: string, unit: string): { formula: string | null; unit: string | null } {
  const conversion = IMPERIAL[unit];
  if (!formula) return { formula: null, unit: unit || null };
  if (!conversion) return { formula, unit: unit || null };
  return { formula: conversion.convert(formula), unit: conversion.unit };
}

/** OBDb model-year filters: {"from":2009}, {"to":2018}, {"from":2009,"to":2020}; listed years are ignored. */
function yearRange(filter: string): { from_year: number | null; to_year: number | null } {
  if (!filter) return { from_year: null, to_year: null };
  try {
    const parsed = JSON.parse(filter) as { from?: unknown; to?: unknown };
    return {
      from_year: typeof parsed.from === 'number' ? parsed.from : null,
      to_year: typeof parsed.to === 'number' ? parsed.to : null,
    };
  } catch {
    return { from_year: null, to_year: null };
  }
}

const num = (v: string) => (v === '' ? null : Number(v));
const json = (v: string): unknown => {
  if (!v) return null;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/** The signal's decoding rule as the Live Commands screen shows it under "reference data". */
function referenceJson(s: CsvRow<'live_data_signals_obdb'>): string {
  return JSON.stringify({
    signal_id: s.signal_id,
    bit_offset: num(s.bit_offset),
    bit_length: num(s.bit_length),
    signed: s.signed === 'true',
    mul: num(s.mul),
    div: num(s.div),
    add: num(s.add),
    min: num(s.min),
    max: num(s.max),
    value_map: json(s.value_map),
    model_year_filter: json(s.model_year_filter),
    description: s.description || null,
  });
}

/** The model group a signal set belongs to: its model's group, or none (make-wide). */
function groupOf(make: SeededMake, model: string): number | null {
  if (!model) return null;
  const found: SeededModel | undefined = make.models.find(
    (m) => m.name.toLowerCase() === model.toLowerCase(),
  );
  if (!found) throw new Error(`Seed: model ${make.name} ${model} is missing`);
  return found.groupId;
}

/** Makes without OBDb signal sets that still get the standard mode 01 PIDs as live data. */
const GENERIC_LIVE_DATA_MAKES = [
  'Mahindra',
  'Tata',
  'Suzuki',
  'Kia',
  'Renault',
  'MG',
  'Royal Enfield Bikes',
  'TVS Bikes',
];

function buildLiveData(vehicles: VehicleIndex): Row<'live_data_commands'>[] {
  const rows: Row<'live_data_commands'>[] = [];
  for (const s of loadCsv('live_data_signals_obdb')) {
    const make = vehicles.get(s.make);
    const converted = imperial(s.formula, s.unit);
    rows.push({
      make_id: make.id,
      model_group_id: groupOf(make, s.model),
      ...yearRange(s.model_year_filter),
      name: s.signal_name,
      module: s.path || 'Engine',
      header: s.header || null,
      sub_header: s.receive_header || null,
      pid: s.command || null,
      protocol: s.header ? PROTOCOLS[protocolOfHeader(s.header)] : null,
      formula_based: s.formula ? 1 : 0,
      formula_metric: s.formula || null,
      formula_imperial: converted.formula,
      unit_metric: s.unit || null,
      unit_imperial: converted.unit,
      reference_json: referenceJson(s),
    });
  }

  const pids = loadCsv('obd_pids_obdex').filter((p) => p.mode === '01' && p.formula);
  for (const name of GENERIC_LIVE_DATA_MAKES) {
    const make = vehicles.find(name);
    if (!make) continue;
    for (const p of pids) {
      const converted = imperial(p.formula, p.unit);
      rows.push({
        make_id: make.id,
        model_group_id: null,
        from_year: null,
        to_year: null,
        name: p.name_en,
        module: 'Engine',
        header: '7DF',
        sub_header: '7E8',
        pid: p.command,
        protocol: PROTOCOLS['6'],
        formula_based: 1,
        formula_metric: p.formula,
        formula_imperial: converted.formula,
        unit_metric: p.unit || null,
        unit_imperial: converted.unit,
        reference_json: JSON.stringify({
          signal_id: `OBD_${p.command}`,
          source: 'SAE J1979 mode 01',
          pid: p.pid,
        }),
      });
    }
  }
  return rows;
}

/** Makes that also get the standard odometer PID 01A6 (OBD-II, model year 2019 on) as a generic row. */
const GENERIC_ODOMETER_MAKES = [
  'Mahindra',
  'Tata',
  'Suzuki',
  'Hyundai',
  'Kia',
  'Toyota',
  'Honda',
  'Renault',
  'MG',
  'Volkswagen',
  'Ford',
  'Nissan',
];

function buildOdometer(vehicles: VehicleIndex): Row<'odometer_commands'>[] {
  const rows: Row<'odometer_commands'>[] = [];
  for (const s of loadCsv('live_data_signals_obdb')) {
    const name = `${s.signal_name} ${s.suggested_metric}`.toLowerCase();
    // Odometer-like: named so, or a distance kept with the trip data ('Trips').
    const distance = s.unit === 'kilometers' || s.unit === 'miles';
    if (!distance || !(name.includes('odometer') || s.path === 'Trips')) continue;
    const make = vehicles.get(s.make);
    const miles = s.unit === 'miles';
    const f = s.formula || 'x';
    rows.push({
      make_id: make.id,
      model_group_id: groupOf(make, s.model),
      ...yearRange(s.model_year_filter),
      header: s.header || null,
      sub_header: s.receive_header || null,
      pid: s.command || null,
      protocol: s.header ? PROTOCOLS[protocolOfHeader(s.header)] : null,
      system: moduleOfPath(s.path) === 'Engine' ? 'Engine' : 'Instrument Cluster',
      init: s.header ? `ATSH${s.header.length > 3 ? `${s.header}F1` : s.header}` : null,
      formula_based: s.formula ? 1 : 0,
      generic: 0,
      formula_metric: miles ? `(${f})*1.609344` : f,
      formula_imperial: miles ? f : `(${f})*0.621371`,
      unit_metric: 'km',
      unit_imperial: 'mi',
    });
  }

  const odometer = loadCsv('obd_pids_obdex').find((p) => p.command === '01A6');
  if (odometer) {
    for (const name of GENERIC_ODOMETER_MAKES) {
      const make = vehicles.find(name);
      if (!make) continue;
      rows.push({
        make_id: make.id,
        model_group_id: null,
        from_year: 2019,
        to_year: null,
        header: '7DF',
        sub_header: '7E8',
        pid: odometer.command,
        protocol: PROTOCOLS['6'],
        system: 'Engine',
        init: 'ATSH7DF',
        formula_based: 1,
        generic: 1,
        formula_metric: odometer.formula,
        formula_imperial: `(${odometer.formula})*0.621371`,
        unit_metric: 'km',
        unit_imperial: 'mi',
      });
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Custom, actuation and SPF commands (generated: no public source has them)

/** A catalogue row's year range: from the group's earliest model year, sometimes closed. */
function groupYears(
  r: Rng,
  models: readonly SeededModel[],
): { from_year: number | null; to_year: number | null } {
  const years = models.map((m) => m.yearFrom).filter((y): y is number => y !== null);
  const from =
    years.length > 0 ? Math.max(2005, Math.min(...years)) : r.chance(0.5) ? r.int(2010, 2020) : null;
  const to = from !== null && r.chance(0.3) ? Math.min(2026, from + r.int(4, 10)) : null;
  return { from_year: from, to_year: to };
}

/** Which makes get generated service catalogues: the fixed-list makes and those with scan data. */
function serviceMakes(vehicles: VehicleIndex): SeededMake[] {
  const wanted = new Set<string>(UPDATE_COMMAND_MAKES);
  for (const s of loadCsv('scan_responses_obdb')) wanted.add(vehicles.get(s.make).name);
  return vehicles.makes.filter((m) => wanted.has(m.name));
}

function buildServiceCatalogues(vehicles: VehicleIndex) {
  const custom: Row<'custom_commands'>[] = [];
  const actuation: Row<'actuation_commands'>[] = [];
  const spf: Row<'spf_commands'>[] = [];

  for (const make of serviceMakes(vehicles)) {
    const r = rng(`service:${make.name}`);
    const small = make.segment === 'bike' || make.segment === 'three_wheeler';
    const byGroup = new Map<number, SeededModel[]>();
    for (const m of make.models) {
      const list = getOrAdd(byGroup, m.groupId, () => []);
      list.push(m);
    }
    // A few model groups get their own rows; one set is make-wide (no group).
    const groups: (readonly [number | null, SeededModel[]])[] = [
      [null, []],
      ...r.sample([...byGroup.entries()], small ? 1 : 3),
    ];
    for (const [groupId, models] of groups) {
      const header = (module: Module) => headerCommands(moduleAddress(make.name, make.segment, module));
      const base = () => ({ make_id: make.id, model_group_id: groupId, ...groupYears(r, models) });

      for (const fn of r.sample(
        CUSTOM_FUNCTIONS.filter((f) => !small || f.small),
        small ? 2 : r.int(3, 5),
      )) {
        const variants: Record<string, string[]> = {};
        for (const [variant, commands] of Object.entries(fn.variants))
          variants[variant] = [...header(fn.module), ...commands];
        // decisions §3: commands[0] maps each variant to its command list.
        custom.push({ ...base(), function_name: fn.name, variants: JSON.stringify([variants]) });
      }

      for (const act of r.sample(
        ACTUATIONS.filter((a) => !small || a.small),
        small ? 2 : r.int(3, 6),
      )) {
        const secured = act.module === 'Body' || act.module === 'Engine' ? r.chance(0.4) : false;
        const seedKey = secured ? r.pick(['Level 1 (27 01/27 02)', 'Level 3 (27 03/27 04)']) : 'None';
        const did = act.did;
        // Every step names the subtype the test ends with ('Off': control handed back to the ECU).
        const details = [
          ...header(act.module).map((pid) => ({
            pid,
            actuation_subtype: 'Setup',
            last_subtype: 'Off',
            seed_key_variant: seedKey,
            message: 'Connecting to the module',
            message_item: false,
            success_check: 'OK',
          })),
          {
            pid: '10 03',
            actuation_subtype: 'Session',
            last_subtype: 'Off',
            seed_key_variant: seedKey,
            message: 'Switching to extended session',
            message_item: false,
            success_check: '50 03',
          },
          ...act.subtypes.map(([name, state, message]) => ({
            pid: `2F ${did} 03 ${state}`,
            actuation_subtype: name,
            last_subtype: 'Off',
            seed_key_variant: seedKey,
            message,
            message_item: true,
            success_check: `6F ${did} 03`,
          })),
          {
            pid: `2F ${did} 00`,
            actuation_subtype: 'Off',
            last_subtype: 'Off',
            seed_key_variant: seedKey,
            message: `${act.type} returned to ECU control.`,
            message_item: false,
            success_check: `6F ${did} 00`,
          },
        ];
        actuation.push({
          ...base(),
          actuation_type: act.type,
          message: `Engine off, ignition on. ${act.type} test: follow the prompts.`,
          details: JSON.stringify(details),
        });
      }

      for (const fn of r.sample(
        SPF_FUNCTIONS.filter((f) => !small || f.small),
        small ? 1 : r.int(2, 4),
      )) {
        const details = [
          ...header(fn.module).map((pid) => ({
            pid,
            message: 'Connecting to the module',
            command_type: 'Setup',
          })),
          ...fn.steps.map(([pid, message, commandType]) => ({ pid, message, command_type: commandType })),
        ];
        spf.push({
          ...base(),
          function_name: fn.name,
          hard_coded: fn.hardCoded ? 1 : 0,
          details: JSON.stringify(details),
        });
      }
    }
  }
  return { custom, actuation, spf };
}
