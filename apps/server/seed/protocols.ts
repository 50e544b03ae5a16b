import { loadCsv } from './csv.ts';
import type { Segment } from './lists.ts';

/**
 * Vehicle-bus knowledge shared by the catalogues and the generated scans: ECU request headers
 * per module, ELM327 protocol names and AT commands.
 */

export const MODULES = [
  'Engine',
  'ABS',
  'Airbag',
  'Transmission',
  'HVAC',
  'Body',
  'Instrument Cluster',
] as const;
export type Module = (typeof MODULES)[number];

/** ELM327 protocol descriptions (the adapter's `AT DP` text) by `AT SP` number. */
export const PROTOCOLS = {
  '3': 'ISO 9141-2 (5 baud init, 10.4 kbaud)',
  '5': 'ISO 14230-4 KWP (fast init, 10.4 kbaud)',
  '6': 'ISO 15765-4 CAN (11 bit ID, 500 kbaud)',
  '7': 'ISO 15765-4 CAN (29 bit ID, 500 kbaud)',
} as const;
export type ProtocolNumber = keyof typeof PROTOCOLS;

/** OBDb writes 29-bit headers in short form ('DA10' = 18 DA 10 F1); 11-bit ones have three digits. */
export function protocolOfHeader(header: string): ProtocolNumber {
  return header.length > 3 ? '7' : '6';
}

/** The response header of an 11-bit request header (request + 8, ISO 15765-4 convention). */
export function responseHeader(header: string): string {
  // 29-bit physical 'DA28' (18 DA 28 F1) is answered by 18 DA F1 28.
  if (header.startsWith('DA') && header.length === 4) return `18DAF1${header.slice(2)}`;
  // K-line '8110F1' (format, target, tester) is answered with target and tester swapped.
  if (header.length === 6) return `${header.slice(0, 2)}F1${header.slice(2, 4)}`;
  if (header.length !== 3) return header;
  return (Number.parseInt(header, 16) + 8).toString(16).toUpperCase().padStart(3, '0');
}

/** How a make's modules are addressed: request header and, for BMW-style gateways, an extended address. */
export interface ModuleAddress {
  header: string;
  extendedAddress?: string;
  protocol: ProtocolNumber;
}

/** Toyota's 11-bit layout: the common default among the CAN makes we know no better for. */
const DEFAULT_CAN: Record<Module, string> = {
  Engine: '7E0',
  Transmission: '7E1',
  ABS: '7B0',
  Airbag: '780',
  HVAC: '7C4',
  Body: '750',
  'Instrument Cluster': '7C0',
};

/** Brand layouts (VW group, Ford, Hyundai-Kia, GM, Nissan, Honda 29-bit). Engine stays 7E0 (OBD) unless set. */
const BRAND_CAN: Record<string, Partial<Record<Module, string>>> = {
  volkswagen: { ABS: '713', Airbag: '715', 'Instrument Cluster': '714', HVAC: '746', Body: '70E' },
  audi: { ABS: '713', Airbag: '715', 'Instrument Cluster': '714', HVAC: '746', Body: '70E' },
  ford: { ABS: '760', Airbag: '737', 'Instrument Cluster': '720', HVAC: '733', Body: '726' },
  hyundai: { ABS: '7D1', Airbag: '7D2', 'Instrument Cluster': '7C6', HVAC: '7B3', Body: '770' },
  kia: { ABS: '7D1', Airbag: '7D2', 'Instrument Cluster': '7C6', HVAC: '7B3', Body: '770' },
  chevrolet: {
    Transmission: '7E2',
    ABS: '243',
    Airbag: '247',
    Body: '241',
    'Instrument Cluster': '24C',
    HVAC: '251',
  },
  gmc: {
    Transmission: '7E2',
    ABS: '243',
    Airbag: '247',
    Body: '241',
    'Instrument Cluster': '24C',
    HVAC: '251',
  },
  nissan: { ABS: '740', Airbag: '752', 'Instrument Cluster': '743', HVAC: '744', Body: '745' },
  infiniti: { ABS: '740', Airbag: '752', 'Instrument Cluster': '743', HVAC: '744', Body: '745' },
  honda: { ABS: 'DA28', Airbag: 'DA53', 'Instrument Cluster': 'DA60', HVAC: 'DA0E', Body: 'DA40' },
};

/** BMW reaches every ECU through the gateway header 6F1 plus the ECU's extended address. */
const BMW_ADDRESS: Record<Module, string> = {
  Engine: '12',
  Transmission: '18',
  ABS: '29',
  Airbag: '01',
  HVAC: '78',
  Body: '40',
  'Instrument Cluster': '60',
};

/** K-line (ISO 14230) target addresses, used by the small bikes and three-wheelers. */
const KWP_TARGET: Record<Module, string> = {
  Engine: '10',
  Transmission: '18',
  ABS: '28',
  Airbag: '58',
  HVAC: '98',
  Body: '40',
  'Instrument Cluster': '60',
};

/** Bike makes with CAN-based diagnostics (the European premium brands). */
const CAN_BIKES = /^(BMW|Ducati|KTM|Triumph|Husqvarna)/;

const addressCache = new Map<string, ModuleAddress>();

/** How `module` of `make` is addressed (memoised: the activity generators ask millions of times). */
export function moduleAddress(make: string, segment: Segment, module: Module): ModuleAddress {
  const cacheKey = `${make}|${segment}|${module}`;
  let address = addressCache.get(cacheKey);
  if (!address) {
    address = addressOf(make, segment, module);
    addressCache.set(cacheKey, address);
  }
  return address;
}

function addressOf(make: string, segment: Segment, module: Module): ModuleAddress {
  const key = make.toLowerCase().replace(/[^a-z]/g, '');
  if (segment === 'three_wheeler' || (segment === 'bike' && !CAN_BIKES.test(make))) {
    return { header: `81${KWP_TARGET[module]}F1`, protocol: '5' };
  }
  if (key === 'bmw' || key === 'bmwbikes') {
    return { header: '6F1', extendedAddress: BMW_ADDRESS[module], protocol: '6' };
  }
  const header = BRAND_CAN[key]?.[module] ?? DEFAULT_CAN[module];
  return { header, protocol: protocolOfHeader(header) };
}

const atCache = new Map<string, string>();

/**
 * An ELM327 AT command, checked against the ELMduino command table and filled from its template
 * ('AT SH %s' + '7E0' → 'AT SH 7E0'), so every setup command in the seed is one the adapter knows.
 */
export function at(command: string, arg?: string): string {
  const key = arg === undefined ? command : `${command}|${arg}`;
  let filled = atCache.get(key);
  if (filled === undefined) {
    const rows = loadCsv('elm327_at_commands_elmduino').filter((r) => r.command === command);
    const row = rows.find((r) => r.command_template.includes('%') === (arg !== undefined));
    if (!row) throw new Error(`Seed: unknown ELM327 command ${command}${arg === undefined ? '' : ' <arg>'}`);
    filled = arg === undefined ? row.command_template : row.command_template.replace(/%\d*[a-z]/, arg);
    atCache.set(key, filled);
  }
  return filled;
}

/** The adapter set-up before talking to one module: reset, echo off, headers on, protocol, header. */
export function setupCommands(address: ModuleAddress): string[] {
  const commands = [at('AT Z'), at('AT E0'), at('AT L0'), at('AT H1'), at('AT SP', address.protocol)];
  if (address.protocol === '7') commands.push(at('AT CP', '18'), at('AT SH', `${address.header}F1`));
  else commands.push(at('AT SH', address.header));
  if (address.extendedAddress) commands.push(at('AT CEA', address.extendedAddress));
  return commands;
}

/**
 * The compact addressing commands that service routines and run logs store ('ATSH7E0'; a
 * 29-bit header also sets the priority byte; BMW adds the ECU's extended address).
 */
export function headerCommands(address: ModuleAddress): readonly string[] {
  let commands = headerCache.get(address);
  if (!commands) {
    const compact = (command: string) => command.replace(/\s+/g, '');
    if (address.protocol === '7') {
      commands = [compact(at('AT CP', '18')), compact(at('AT SH', `${address.header}F1`))];
    } else {
      commands = [compact(at('AT SH', address.header))];
      if (address.extendedAddress) commands.push(compact(at('AT CEA', address.extendedAddress)));
    }
    headerCache.set(address, commands);
  }
  return commands;
}

/** headerCommands per address object (moduleAddress hands out one object per make and module). */
const headerCache = new WeakMap<ModuleAddress, string[]>();

/** The header an ECU answers with: BMW ECUs answer on 0x600 + their address ('612' for the DME). */
export function responseOf(address: ModuleAddress): string {
  return address.extendedAddress ? `6${address.extendedAddress}` : responseHeader(address.header);
}

/**
 * OBDb groups signals by a path ('Engine', 'Battery.Cells', 'Tires'); our screens speak of
 * modules. This maps the first path segment to the module that owns such signals.
 */
export function moduleOfPath(path: string): Module | 'Battery Management' | 'TPMS' {
  const top = path.split('.')[0] ?? '';
  switch (top) {
    case 'Transmission':
      return 'Transmission';
    case 'Movement':
    case 'Orientation':
    case 'Control':
      return 'ABS';
    case 'Seatbelts':
      return 'Airbag';
    case 'Climate':
      return 'HVAC';
    case 'Doors':
    case 'Lights':
    case 'Windows':
    case 'Electrical':
      return 'Body';
    case 'Trips':
    case 'Stats':
    case 'Clocks':
    case 'Details':
      return 'Instrument Cluster';
    case 'Battery':
      return 'Battery Management';
    case 'Tires':
      return 'TPMS';
    default:
      return 'Engine';
  }
}
