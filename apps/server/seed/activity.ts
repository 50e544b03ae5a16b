import { getOrAdd } from './collections.ts';
import { loadCsv } from './csv.ts';
import { buildDtcPool, type DtcEntry, type DtcPool } from './faults.ts';
import { batchRows, type Row, type SeedContext, type TableName } from './insert.ts';
import { UPDATE_COMMAND_MAKES } from './lists.ts';
import {
  headerCommands,
  type Module,
  type ModuleAddress,
  moduleAddress,
  moduleOfPath,
  PROTOCOLS,
  protocolOfHeader,
  responseOf,
} from './protocols.ts';
import { iso, MINUTE_MS, type Rng, rng, WeightedList } from './random.ts';
import { ACTUATIONS, CUSTOM_FUNCTIONS, SPF_FUNCTIONS } from './routines.ts';
import { pickAppVersion, pickCountry, type UserRef, vin } from './users.ts';
import type { SeededMake, SeededModel, VehicleIndex } from './vehicles.ts';

/**
 * The high-volume tables: scans, special-function runs and actuation runs. Rows come from
 * sources that build each row from prepared pools (JSON fragments, weighted make lists), so a
 * million scans cost string concatenation, not JSON.stringify of nested objects.
 */

/** Scans, runs and actuations happen between these instants (decided for the demo, not the clock). */
const ACTIVITY_FROM_MS = Date.UTC(2025, 0, 1);
const ACTIVITY_TO_MS = Date.UTC(2026, 5, 30, 23, 59, 59);

const J = JSON.stringify;

/** A stream of generated rows for one table; `next()` builds the following row. */
export interface RowSource<T extends TableName> {
  table: T;
  label: string;
  next(): Row<T>;
}

/**
 * Inserts `count` rows from `source` in batches as large as the dialect allows, logging progress
 * about every 10 % (and at least every 100,000 rows) of large runs.
 */
export async function insertFromSource<T extends TableName>(
  ctx: SeedContext,
  source: RowSource<T>,
  count: number,
  progress?: { done: number; total: number },
): Promise<void> {
  if (count <= 0) return;
  const first = source.next();
  const size = batchRows(ctx.dialect, Object.keys(first).length);
  const total = progress?.total ?? count;
  let done = progress?.done ?? 0;
  const step = Math.min(100_000, Math.max(10_000, Math.ceil(total / 10)));
  let nextLog = Math.ceil((done + 1) / step) * step;
  let pending: Row<T> | undefined = first;
  for (let left = count; left > 0; ) {
    const n = Math.min(size, left);
    const batch: Row<T>[] = new Array(n);
    for (let i = 0; i < n; i++) {
      batch[i] = pending ?? source.next();
      pending = undefined;
    }
    // Kysely cannot type `values` over a generic table name; Row<T> is that table's insert type.
    await ctx.kx
      .insertInto(source.table)
      .values(batch as never)
      .execute();
    left -= n;
    done += n;
    if (done >= nextLog && total >= 20_000) {
      ctx.log(`${source.label}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
      nextLog += step;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Pools

/**
 * One recorded vehicle (make, model, model year): its commands, each with the real answers
 * recorded for it. Entries are scanResArray JSON without the closing make, which the scan adds.
 */
interface Session {
  model: string;
  commands: string[][];
}

interface ScanVehicle {
  make: SeededMake;
  /** `"make":"Ford"}`: closes every entry of this make. */
  suffix: string;
  /** Sessions recorded from this make's own vehicles (OBDb), if any. */
  sessions: Session[];
}

export interface ActivityPools {
  users: UserRef[];
  scanVehicles: WeightedList<ScanVehicle>;
  runMakes: WeightedList<SeededMake>;
  dtc: DtcPool;
  /** Standard mode 01 answers of real engines: scans of makes without recordings use these. */
  genericSessions: Session[];
}

/** Everything the activity generators draw from, built once per seed or append run. */
export function buildActivityPools(vehicles: VehicleIndex, users: UserRef[]): ActivityPools {
  if (users.length === 0) throw new Error('Seed: activity needs at least one app user');

  // Which module answered a recorded command: look the command up in the OBDb signal sets.
  const pathOf = new Map<string, string>();
  for (const s of loadCsv('live_data_signals_obdb')) pathOf.set(`${s.make}|${s.header}|${s.command}`, s.path);

  // make → "model|year" → command id → entry prefixes, in file order.
  const recorded = new Map<string, Map<string, Map<string, string[]>>>();
  const generic = new Map<string, Map<string, string[]>>();
  const add = (into: Map<string, Map<string, string[]>>, session: string, command: string, entry: string) => {
    const commands = getOrAdd(into, session, () => new Map());
    const cases = getOrAdd(commands, command, () => []);
    cases.push(entry);
  };
  for (const row of loadCsv('scan_responses_obdb')) {
    const [request = ''] = row.command_id.split('|');
    const parts = request.split('.');
    const header = parts[0] ?? '';
    const pid = parts[parts.length - 1] ?? '';
    const path = pathOf.get(`${row.make}|${header}|${pid}`);
    const system = path !== undefined ? moduleOfPath(path) : systemOfHeader(header, pid);
    const data = row.response_frames.replace(/;+$/, '');
    const prefix = `{"system":${J(system)},"pid":${J(pid)},"data":${J(data)},"header":${J(header)},"protocol":${J(PROTOCOLS[protocolOfHeader(header)])},`;
    const make = vehicles.get(row.make).name;
    const sessions = getOrAdd(recorded, make, () => new Map());
    const session = `${row.model}|${row.model_year}`;
    add(sessions, session, row.command_id, prefix);
    // Standard mode 01 answers from engine ECUs fit any make: the pool for makes without recordings.
    if (header === '7E0' && pid.startsWith('01')) add(generic, `${make}|${session}`, row.command_id, prefix);
  }
  const toSessions = (byKey: Map<string, Map<string, string[]>>): Session[] =>
    [...byKey.entries()].map(([key, commands]) => ({
      model: key.split('|')[0] ?? '',
      commands: [...commands.values()],
    }));

  // Makes with recorded scans dominate, as they would among the vehicles a scanner app supports;
  // the Indian market makes of the fixed list come next.
  const scanVehicles: ScanVehicle[] = [];
  const scanWeights: number[] = [];
  const fixed = new Set<string>(UPDATE_COMMAND_MAKES);
  for (const make of vehicles.makes) {
    const sessions = recorded.get(make.name);
    let weight = 0;
    if (sessions) weight = 6;
    else if (fixed.has(make.name)) {
      weight = { car: 1, bike: 0.8, three_wheeler: 0.4, hcv: 0.3 }[make.segment];
      if (['Mahindra', 'Tata', 'Suzuki', 'Tata EV'].includes(make.name)) weight = 3;
    } else if (make.segment === 'car') weight = 0.2;
    if (weight === 0 || make.models.length === 0) continue;
    scanVehicles.push({
      make,
      suffix: `"make":${J(make.name)}}`,
      sessions: sessions ? toSessions(sessions) : [],
    });
    scanWeights.push(weight);
  }

  const runMakes = vehicles.makes.filter((m) => fixed.has(m.name) || recorded.has(m.name));
  const runWeights = runMakes.map((m) => (recorded.has(m.name) ? 3 : m.segment === 'car' ? 2 : 1));

  return {
    users,
    scanVehicles: new WeightedList(scanVehicles, scanWeights),
    runMakes: new WeightedList(runMakes, runWeights),
    dtc: buildDtcPool(vehicles),
    genericSessions: toSessions(generic).filter((s) => s.commands.length >= 3),
  };
}

/** The module of a recorded command whose signal OBDb does not list: by the request header. */
function systemOfHeader(header: string, pid: string): string {
  if (header === '7E0' || header === '7DF' || pid.startsWith('01')) return 'Engine';
  if (header === '7E1' || header === '7E2') return 'Transmission';
  if (header === '7B0' || header === '760' || header === '713') return 'ABS';
  if (header === '720' || header === '714' || header === '7C0') return 'Instrument Cluster';
  return 'Body';
}

/** Users are not equally active: a few mechanics scan daily, most owners now and then. */
function pickUser(r: Rng, users: UserRef[]): UserRef {
  return users[Math.floor(users.length * r.next() ** 1.6)] as UserRef;
}

function activityTime(r: Rng): number {
  return ACTIVITY_FROM_MS + Math.floor(r.next() * (ACTIVITY_TO_MS - ACTIVITY_FROM_MS));
}

// ---------------------------------------------------------------------------------------------
// Scans

const SCAN_FUNCTIONS = new WeightedList(
  ['Full Scan', 'Quick Scan', 'Single System', 'Live Data', 'Clear Codes'] as const,
  [30, 20, 12, 25, 13],
);
const SCAN_TYPES = new WeightedList(['OBD', 'Manufacturer', 'Generic'] as const, [50, 30, 20]);
const DTC_COUNTS = new WeightedList([1, 2, 3, 4], [45, 30, 15, 10]);
const OTHER_COUNTRY_IDS = [91, 1, 44, 49, 971];

/** Encodes a DTC as the two bytes of a mode 03 answer (SAE J2012: P=00, C=01, B=10, U=11). */
function dtcBytes(code: string): string {
  const letter = 'PCBU'.indexOf(code[0] ?? 'P');
  const first = (Math.max(letter, 0) << 2) | (Number(code[1]) & 3);
  return `${first.toString(16).toUpperCase()}${code.slice(2, 5)}`;
}

/**
 * The raw answer to mode 03 as an adapter with headers on prints it: one CAN frame for up to two
 * codes, a first frame plus consecutive frame beyond; on K-line the ISO 14230 header instead.
 */
function mode03Frames(codes: readonly string[], address: ModuleAddress): string {
  const bytes = codes.map(dtcBytes).join('');
  const rx = responseOf(address);
  if (address.protocol === '5') {
    const payload = `43${bytes}`;
    return `${(0x80 + payload.length / 2).toString(16).toUpperCase()}F1${rx.slice(4, 6)}${payload}`;
  }
  const payload = `43${codes.length.toString(16).toUpperCase().padStart(2, '0')}${bytes}`;
  const len = payload.length / 2;
  if (len <= 7) return `${rx}${len.toString(16).toUpperCase().padStart(2, '0')}${payload}`;
  const firstFrame = `${rx}10${len.toString(16).toUpperCase().padStart(2, '0')}${payload.slice(0, 12)}`;
  return `${firstFrame};${rx}21${payload.slice(12).padEnd(14, '0')}`;
}

const SYSTEM_OF_LETTER: Record<string, Module> = { P: 'Engine', C: 'ABS', B: 'Airbag', U: 'Body' };

function pickDtc(r: Rng, pool: DtcPool, makeId: number): DtcEntry {
  const roll = r.next();
  const own = pool.byMake.get(makeId);
  if (roll < 0.3 && pool.common.length > 0) return r.pick(pool.common);
  if (roll < 0.45 && own) return r.pick(own);
  if (roll < 0.78) return r.pick(pool.powertrain);
  if (roll < 0.87) return r.pick(pool.chassis);
  if (roll < 0.94) return r.pick(pool.body);
  return r.pick(pool.network);
}

/** decodedArray: one entry per system that reported codes, with the real codes and titles. */
function decodedArray(r: Rng, pools: ActivityPools, make: SeededMake): string {
  const count = DTC_COUNTS.pick(r);
  const bySystem = new Map<Module, DtcEntry[]>();
  for (let i = 0; i < count; i++) {
    const dtc = pickDtc(r, pools.dtc, make.id);
    const system = SYSTEM_OF_LETTER[dtc.code[0] ?? 'P'] ?? 'Engine';
    const list = getOrAdd(bySystem, system, () => []);
    if (!list.some((d) => d.code === dtc.code)) list.push(dtc);
  }
  const entries: string[] = [];
  for (const [system, dtcs] of bySystem) {
    const address = moduleAddress(make.name, make.segment, system);
    const data = mode03Frames(
      dtcs.map((d) => d.code),
      address,
    );
    const faults = dtcs.map((d) => d.json).join(',');
    entries.push(
      `{"system":${J(system)},"pid":"03","data":${J(data)},"protocol":${J(PROTOCOLS[address.protocol])},"header":${J(address.header)},"decodedFaultArray":{${faults}}}`,
    );
  }
  return `[${entries.join(',')}]`;
}

export function scanSource(pools: ActivityPools, stream: string): RowSource<'scans'> {
  const r = rng(stream);
  return {
    table: 'scans',
    label: 'scans',
    next() {
      const user = pickUser(r, pools.users);
      const vehicle = pools.scanVehicles.pick(r);
      const make = vehicle.make;

      // Recorded makes mostly scan their recorded vehicles; otherwise any model, standard answers.
      let model: string;
      let session: Session;
      if (vehicle.sessions.length > 0 && r.chance(0.85)) {
        session = r.pick(vehicle.sessions);
        model = session.model;
      } else {
        session = r.pick(pools.genericSessions);
        model = (r.pick(make.models) as SeededModel).name;
      }
      // A window of the session's commands, one recorded answer each: one coherent visit.
      const n = Math.min(session.commands.length, r.int(3, 12));
      const start = r.int(0, session.commands.length - n);
      let res = '[';
      for (let i = 0; i < n; i++) {
        res += `${i === 0 ? '' : ','}${r.pick(session.commands[start + i] as string[])}${vehicle.suffix}`;
      }
      res += ']';

      const fn = SCAN_FUNCTIONS.pick(r);
      const readsCodes = fn === 'Full Scan' || fn === 'Quick Scan' || fn === 'Single System';
      const startMs = activityTime(r);
      const ended = r.chance(0.95);
      const country = r.chance(0.9) ? user.country : pickCountry(r);
      return {
        email: user.email,
        app_user_id: user.id,
        scan_start_time: iso(startMs),
        scan_end_time: ended ? iso(startMs + r.int(60, 1200) * 1000) : null,
        make: make.name,
        model,
        license_plate: r.chance(0.97) ? country.plate(r) : null,
        vin: r.chance(0.92) ? vin(r, make.name) : null,
        scan_ended: ended ? 1 : 0,
        country_id: r.chance(0.98) ? country.id : r.pick(OTHER_COUNTRY_IDS),
        function: fn,
        type: SCAN_TYPES.pick(r),
        app_version: r.chance(0.85) ? user.appVersion : pickAppVersion(r),
        pdf_report: r.chance(0.3)
          ? `https://reports.example-obd.com/scans/${new Date(startMs).getUTCFullYear()}/${r.hex(16)}.pdf`
          : null,
        scan_res_array: res,
        decoded_array: readsCodes ? decodedArray(r, pools, make) : '[]',
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// UDS answers for the replayed routines

/** The positive answer an ECU gives to a request (service id + 0x40, echoing the sub-function). */
function positiveAnswer(r: Rng, request: string): string {
  const bytes = request.split(' ');
  const sid = bytes[0] ?? '';
  const rest = bytes.slice(1);
  const answer = (Number.parseInt(sid, 16) + 0x40).toString(16).toUpperCase();
  switch (sid) {
    case '10':
      return `${answer} ${rest[0] ?? '03'} 00 32 01 F4`;
    case '27':
      return Number.parseInt(rest[0] ?? '01', 16) % 2 === 1
        ? `${answer} ${rest[0]} ${r
            .hex(8)
            .toUpperCase()
            .replace(/(..)(?!$)/g, '$1 ')}`
        : `${answer} ${rest[0]}`;
    case '22':
      return `${answer} ${rest.join(' ')} ${r
        .hex(4)
        .toUpperCase()
        .replace(/(..)(?!$)/g, '$1 ')}`;
    case '2E':
      return `${answer} ${rest.slice(0, 2).join(' ')}`;
    case '31':
      return `${answer} ${rest.slice(0, 3).join(' ')} 00`;
    case '2F':
      return `${answer} ${rest.join(' ')}`;
    case '11':
      return `${answer} ${rest[0] ?? '01'}`;
    default:
      return answer;
  }
}

/** `{pid, data, input}` as the app logs one request and its answer. */
function step(pid: string, data: string, input: string): string {
  return `{"pid":${J(pid)},"data":${J(data)},"input":${J(input)}}`;
}

/**
 * An answer as the adapter prints it with headers on: CAN 'header, length, bytes'
 * ('7E8 02 51 01'); K-line 'format+length, tester, ECU, bytes' ('82 F1 10 51 01').
 */
function frame(rx: string, payload: string): string {
  const len = payload.split(' ').length;
  if (rx.length === 6 && rx.startsWith('8'))
    return `${(0x80 + len).toString(16).toUpperCase()} ${rx.slice(2, 4)} ${rx.slice(4, 6)} ${payload}`;
  return `${rx} ${len.toString(16).toUpperCase().padStart(2, '0')} ${payload}`;
}

/** 'ATSH7E0' answers 'OK'; a request answers with the response header and the UDS bytes. */
function replay(
  r: Rng,
  rx: string,
  requests: readonly string[],
  inputFor: (pid: string) => string,
  fail: boolean,
) {
  const out: string[] = [];
  requests.forEach((pid, i) => {
    if (pid.startsWith('AT')) {
      out.push(step(pid, 'OK', ''));
      return;
    }
    // A failed run stops at a negative answer: 22 = conditions not correct.
    if (fail && i === requests.length - 1) {
      out.push(step(pid, frame(rx, `7F ${pid.slice(0, 2)} 22`), inputFor(pid)));
      return;
    }
    out.push(step(pid, frame(rx, positiveAnswer(r, pid)), inputFor(pid)));
  });
  return `[${out.join(',')}]`;
}

// ---------------------------------------------------------------------------------------------
// Special-function runs

const FUNCTION_TYPE_OF: Record<string, string> = {
  'Injector Coding': 'Coding',
  'Key Programming': 'Coding',
  'Service Reset': 'Reset',
  'Steering Angle Reset': 'Reset',
  'Battery Registration': 'Reset',
  'Throttle Body Relearn': 'Adaptation',
  'TPMS Relearn': 'Adaptation',
  'DPF Regeneration': 'Special Function',
};

const FUEL_VARIANTS = new WeightedList(
  ['Petrol', 'Diesel', 'CNG', 'Hybrid', 'EV'] as const,
  [45, 35, 10, 6, 4],
);

function pickRunMake(r: Rng, pools: ActivityPools): SeededMake {
  return pools.runMakes.pick(r);
}

function modelOf(r: Rng, make: SeededMake): SeededModel | null {
  return make.models.length > 0 ? r.pick(make.models) : null;
}

export function specialFunctionSource(
  pools: ActivityPools,
  stream: string,
): RowSource<'special_function_runs'> {
  const r = rng(stream);
  return {
    table: 'special_function_runs',
    label: 'special function runs',
    next() {
      const user = pickUser(r, pools.users);
      const make = pickRunMake(r, pools);
      const small = make.segment === 'bike' || make.segment === 'three_wheeler';
      const candidates = SPF_FUNCTIONS.filter((f) => !small || f.small);
      const fn = r.pick(candidates.length > 0 ? candidates : SPF_FUNCTIONS);
      const address = moduleAddress(make.name, make.segment, fn.module);
      const custom = CUSTOM_FUNCTIONS.find((c) => c.name === fn.name);
      const variant = custom ? r.pick(Object.keys(custom.variants)) : FUEL_VARIANTS.pick(r);
      const startMs = activityTime(r);
      const ended = r.chance(0.93);
      const requests = [...headerCommands(address), ...fn.steps.map((s) => s[0])];
      const input = (pid: string) =>
        pid.startsWith('2E 06')
          ? r.chars('0123456789ABCDEF', 7)
          : pid.startsWith('2E 10')
            ? String(r.pick([45, 60, 70, 74, 80, 95]))
            : '';
      return {
        user_email: user.email,
        make: make.name,
        module: fn.module,
        model: modelOf(r, make)?.name ?? null,
        function_type: FUNCTION_TYPE_OF[fn.name] ?? 'Special Function',
        command_type: address.protocol === '5' ? 'KWP2000' : r.chance(0.9) ? 'UDS' : 'OBD',
        item_number: r.int(1, 40),
        variant,
        license_plate: r.chance(0.95) ? user.country.plate(r) : null,
        scan_ended: ended ? 1 : 0,
        hard_coded: fn.hardCoded ? 1 : r.chance(0.1) ? 1 : 0,
        scan_start_time: iso(startMs),
        scan_end_time: ended ? iso(startMs + r.int(30, 900) * 1000) : null,
        scan_res_array: replay(r, responseOf(address), requests, input, !ended),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Actuation runs

const ACTUATION_OPTIONS = new WeightedList(['On', 'Off', 'Cycle'] as const, [55, 25, 20]);
/** OBD adapters the app pairs with (the product id is the adapter's serial). */
const ADAPTER_PREFIXES = ['OBDPRO-BT', 'OBDPRO-WIFI', 'OBDX-MINI', 'OBDPRO-BLE'];

export function actuationSource(pools: ActivityPools, stream: string): RowSource<'actuation_runs'> {
  const r = rng(stream);
  return {
    table: 'actuation_runs',
    label: 'actuation runs',
    next() {
      const user = pickUser(r, pools.users);
      const make = pickRunMake(r, pools);
      const small = make.segment === 'bike' || make.segment === 'three_wheeler';
      const candidates = ACTUATIONS.filter((a) => !small || a.small);
      const act = r.pick(candidates.length > 0 ? candidates : ACTUATIONS);
      const sub = r.pick(act.subtypes);
      const option = ACTUATION_OPTIONS.pick(r);
      const address = moduleAddress(make.name, make.segment, act.module);
      const requests = [
        ...headerCommands(address),
        '10 03',
        ...(option === 'Off' ? [] : [`2F ${act.did} 03 ${sub[1]}`]),
        `2F ${act.did} 00`,
      ];
      const input = option === 'Off' ? 'Off' : sub[0];
      const model = modelOf(r, make);
      const createdMs = activityTime(r);
      const ended = r.chance(0.96);
      const endMs = createdMs + r.int(5, 180) * 1000;
      return {
        user_email: user.email,
        make: make.name,
        model: model?.name ?? null,
        actuation_type: act.type,
        actuation_option: option,
        input,
        device: user.device,
        product_id: `${r.pick(ADAPTER_PREFIXES)}-${r.digits(8)}`,
        user_car_model_id: model?.id ?? null,
        end_date: ended ? iso(endMs) : null,
        created_at: iso(createdMs),
        updated_at: iso(ended ? endMs : createdMs + MINUTE_MS),
        scan_res_array: replay(
          r,
          responseOf(address),
          requests,
          (pid) => (pid.startsWith('2F') ? input : ''),
          !ended,
        ),
      };
    },
  };
}
