import type { Module } from './protocols.ts';

/**
 * The service routines of the generated catalogues (custom, actuation and SPF commands) and of
 * the runs that replay them: UDS request strings (10 = diagnostic session, 27 = security access,
 * 22 / 2E = read / write data by identifier, 2F = input-output control, 31 = routine control,
 * 11 = ECU reset). No public source publishes such routines per make, so these are written by
 * hand after the patterns workshop tools use; the identifiers are plausible, not any maker's.
 * `small` marks what bikes and three-wheelers support too.
 */

export interface CustomFunction {
  name: string;
  module: Module;
  small?: boolean;
  variants: Record<string, string[]>;
}

/** Custom commands: each variant (fuel, gearbox …) with its own request sequence. */
export const CUSTOM_FUNCTIONS: CustomFunction[] = [
  {
    name: 'DPF Regeneration',
    module: 'Engine',
    variants: {
      Diesel: ['10 03', '31 01 02 05 01', '31 03 02 05'],
      'Diesel (BS6)': ['10 03', '22 04 0C', '31 01 02 05 02', '31 03 02 05'],
    },
  },
  {
    name: 'Service Reset',
    module: 'Instrument Cluster',
    small: true,
    variants: {
      Petrol: ['10 03', '2E 22 03 00 00', '11 01'],
      Diesel: ['10 03', '2E 22 03 00 00', '2E 22 04 00 00', '11 01'],
    },
  },
  {
    name: 'Throttle Body Relearn',
    module: 'Engine',
    small: true,
    variants: {
      Petrol: ['10 03', '31 01 02 06', '31 03 02 06', '11 01'],
      CNG: ['10 03', '31 01 02 06', '31 03 02 06', '31 01 02 07', '11 01'],
    },
  },
  {
    name: 'Injector Coding',
    module: 'Engine',
    variants: {
      Diesel: [
        '10 03',
        '22 06 01',
        '22 06 02',
        '22 06 03',
        '22 06 04',
        '2E 06 01',
        '2E 06 02',
        '2E 06 03',
        '2E 06 04',
      ],
    },
  },
  {
    name: 'Steering Angle Reset',
    module: 'ABS',
    variants: { All: ['10 03', '31 01 F0 10', '31 03 F0 10', '11 01'] },
  },
  {
    name: 'Battery Registration',
    module: 'Engine',
    variants: {
      Petrol: ['10 03', '2E 10 11 46', '31 01 02 40'],
      Diesel: ['10 03', '2E 10 11 5A', '31 01 02 40'],
      Hybrid: ['10 03', '2E 10 12 3C', '31 01 02 41'],
    },
  },
  {
    name: 'EPB Service Mode',
    module: 'ABS',
    variants: {
      'Open for pad change': ['10 03', '31 01 03 01 01', '31 03 03 01'],
      Close: ['10 03', '31 01 03 01 02', '31 03 03 01'],
    },
  },
  {
    name: 'Gear Learning',
    module: 'Transmission',
    variants: {
      AT: ['10 03', '31 01 02 21', '31 03 02 21'],
      AMT: ['10 03', '31 01 02 22', '31 03 02 22', '11 01'],
    },
  },
];

export interface Actuation {
  type: string;
  module: Module;
  small?: boolean;
  /** Input/output control identifier (UDS 2F). */
  did: string;
  subtypes: readonly [name: string, state: string, message: string][];
}

export const ACTUATIONS: Actuation[] = [
  {
    type: 'Cooling Fan',
    module: 'Engine',
    small: true,
    did: '04 15',
    subtypes: [
      ['Low Speed', '01', 'Radiator fan runs at low speed. Is it running?'],
      ['High Speed', '02', 'Radiator fan runs at high speed. Is it running faster?'],
    ],
  },
  {
    type: 'Fuel Pump',
    module: 'Engine',
    small: true,
    did: '04 20',
    subtypes: [['On', '01', 'Fuel pump runs for 10 seconds. Can you hear it?']],
  },
  {
    type: 'Horn',
    module: 'Body',
    small: true,
    did: 'D1 0A',
    subtypes: [['On', '01', 'Horn sounds three times. Did it sound?']],
  },
  {
    type: 'Wipers',
    module: 'Body',
    did: 'D1 20',
    subtypes: [
      ['Low', '01', 'Front wipers run at low speed.'],
      ['High', '02', 'Front wipers run at high speed.'],
    ],
  },
  {
    type: 'Headlamps',
    module: 'Body',
    small: true,
    did: 'D1 31',
    subtypes: [
      ['Low Beam', '01', 'Low beam switches on.'],
      ['High Beam', '02', 'High beam switches on.'],
    ],
  },
  {
    type: 'Door Locks',
    module: 'Body',
    did: 'D1 40',
    subtypes: [
      ['Lock', '01', 'All doors lock.'],
      ['Unlock', '02', 'All doors unlock.'],
    ],
  },
  {
    type: 'A/C Compressor',
    module: 'HVAC',
    did: '01 0C',
    subtypes: [['Clutch On', '01', 'A/C compressor clutch engages. Did it click?']],
  },
  {
    type: 'Gauge Sweep',
    module: 'Instrument Cluster',
    did: 'F1 01',
    subtypes: [['Sweep', '01', 'All needles sweep to full scale and back.']],
  },
];

export interface SpfFunction {
  name: string;
  module: Module;
  small?: boolean;
  hardCoded: boolean;
  steps: readonly [pid: string, message: string, commandType: string][];
}

export const SPF_FUNCTIONS: SpfFunction[] = [
  {
    name: 'Injector Coding',
    module: 'Engine',
    hardCoded: false,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['27 01', 'Requesting security seed', 'Security Access'],
      ['27 02', 'Sending security key', 'Security Access'],
      ['22 06 01', 'Reading stored injector codes', 'Read Data By Identifier'],
      ['2E 06 01', 'Enter the 7-character code printed on injector 1', 'Write Data By Identifier'],
      ['11 01', 'Resetting the engine ECU', 'ECU Reset'],
    ],
  },
  {
    name: 'Steering Angle Reset',
    module: 'ABS',
    hardCoded: true,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['31 01 F0 10', 'Centre the steering wheel, then confirm', 'Routine Control'],
      ['31 03 F0 10', 'Reading calibration result', 'Routine Control'],
    ],
  },
  {
    name: 'Battery Registration',
    module: 'Engine',
    hardCoded: false,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['22 10 11', 'Reading registered battery capacity', 'Read Data By Identifier'],
      ['2E 10 11', 'Enter the new battery capacity (Ah)', 'Write Data By Identifier'],
      ['31 01 02 40', 'Registering battery replacement', 'Routine Control'],
    ],
  },
  {
    name: 'Service Reset',
    module: 'Instrument Cluster',
    small: true,
    hardCoded: true,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['2E 22 03 00 00', 'Resetting service interval', 'Write Data By Identifier'],
      ['11 01', 'Restarting the cluster', 'ECU Reset'],
    ],
  },
  {
    name: 'Throttle Body Relearn',
    module: 'Engine',
    small: true,
    hardCoded: true,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['31 01 02 06', 'Ignition on, engine off, do not press the pedal', 'Routine Control'],
      ['31 03 02 06', 'Reading adaptation result', 'Routine Control'],
    ],
  },
  {
    name: 'DPF Regeneration',
    module: 'Engine',
    hardCoded: false,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['22 04 0C', 'Reading soot load', 'Read Data By Identifier'],
      ['31 01 02 05 01', 'Starting regeneration; keep the engine running for 20 minutes', 'Routine Control'],
      ['31 03 02 05', 'Reading regeneration status', 'Routine Control'],
    ],
  },
  {
    name: 'TPMS Relearn',
    module: 'Body',
    hardCoded: true,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['31 01 A0 01', 'Activate each sensor with the TPMS tool, front left first', 'Routine Control'],
      ['31 03 A0 01', 'Reading learned sensor IDs', 'Routine Control'],
    ],
  },
  {
    name: 'Key Programming',
    module: 'Body',
    hardCoded: false,
    steps: [
      ['10 03', 'Switching to extended session', 'Session Control'],
      ['27 01', 'Requesting security seed', 'Security Access'],
      ['27 02', 'Sending security key', 'Security Access'],
      ['31 01 02 10', 'Insert the new key and switch the ignition on', 'Routine Control'],
    ],
  },
];
