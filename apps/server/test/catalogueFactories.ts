import { afterAll, beforeAll } from 'vitest';
import type { Db, Dialect } from '../src/db/database.ts';
import { createTestApp, signedIn, type TestContext } from './helpers.ts';

/** A make with model groups and models: `{ Civic: ['Civic', 'Civic Type R'] }` → group Civic. */
export async function insertMake(
  db: Db,
  name: string,
  segment: string,
  groups: Record<string, string[]> = {},
): Promise<{ id: number; groups: Record<string, number> }> {
  const make = await db.kysely
    .insertInto('makes')
    .values({ name, segment })
    .returning('id')
    .executeTakeFirstOrThrow();
  const groupIds: Record<string, number> = {};
  for (const [group, models] of Object.entries(groups)) {
    const g = await db.kysely
      .insertInto('model_groups')
      .values({ make_id: make.id, name: group })
      .returning('id')
      .executeTakeFirstOrThrow();
    groupIds[group] = g.id;
    for (const model of models) {
      await db.kysely
        .insertInto('models')
        .values({ make_id: make.id, model_group_id: g.id, name: model, year_from: 2010, year_to: null })
        .execute();
    }
  }
  return { id: make.id, groups: groupIds };
}

export interface Placement {
  make_id: number;
  model_group_id?: number | null;
  from_year?: number | null;
  to_year?: number | null;
}

const placed = (p: Placement) => ({
  make_id: p.make_id,
  model_group_id: p.model_group_id ?? null,
  from_year: p.from_year ?? null,
  to_year: p.to_year ?? null,
});

export async function insertCustom(
  db: Db,
  p: Placement,
  function_name: string,
  variants: Record<string, string[]>,
) {
  await db.kysely
    .insertInto('custom_commands')
    .values({ ...placed(p), function_name, variants: JSON.stringify([variants]) })
    .execute();
}

export async function insertActuation(
  db: Db,
  p: Placement,
  actuation_type: string,
  details: object[],
  message = `${actuation_type} test`,
) {
  await db.kysely
    .insertInto('actuation_commands')
    .values({ ...placed(p), actuation_type, message, details: JSON.stringify(details) })
    .execute();
}

export async function insertSpf(
  db: Db,
  p: Placement,
  function_name: string,
  hard_coded: boolean,
  details: object[],
) {
  await db.kysely
    .insertInto('spf_commands')
    .values({ ...placed(p), function_name, hard_coded: hard_coded ? 1 : 0, details: JSON.stringify(details) })
    .execute();
}

export async function insertOdometer(
  db: Db,
  p: Placement,
  pid: string,
  extra: { formula_metric?: string } = {},
) {
  await db.kysely
    .insertInto('odometer_commands')
    .values({
      ...placed(p),
      header: '7E0',
      sub_header: '7E8',
      pid,
      protocol: 'ISO 15765-4 CAN (11 bit, 500 kbaud)',
      system: 'Instrument Cluster',
      init: 'ATSH7E0',
      formula_based: 1,
      generic: 0,
      formula_metric: extra.formula_metric ?? '(A*65536+B*256+C)/10',
      formula_imperial: '(A*65536+B*256+C)/16.09',
      unit_metric: 'km',
      unit_imperial: 'mi',
    })
    .execute();
}

export async function insertLiveData(db: Db, p: Placement, name: string, module: string) {
  await db.kysely
    .insertInto('live_data_commands')
    .values({
      ...placed(p),
      name,
      module,
      header: '7E0',
      sub_header: '7E8',
      pid: '010C',
      protocol: 'ISO 15765-4 CAN (11 bit, 500 kbaud)',
      formula_based: 1,
      formula_metric: '(A*256+B)/4',
      formula_imperial: '(A*256+B)/4',
      unit_metric: 'rpm',
      unit_imperial: 'rpm',
      reference_json: JSON.stringify({ bit_offset: 0, bit_length: 16 }),
    })
    .execute();
}

/**
 * The catalogue test's data set: makes, models and every kind of command, seeded once per file and
 * dialect, and an operator signed in. Call inside the file's `describe.each`; `t` and `headers` are
 * set before the file's own `beforeAll` hooks run.
 */
export function catalogueSuite(dialect: Dialect) {
  let t: TestContext;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    const honda = await insertMake(t.db, 'Honda', 'car', {
      Civic: ['Civic', 'Civic Type R'],
      Jazz: ['Jazz'],
    });
    const tvs = await insertMake(t.db, 'TVS Bikes', 'bike', { Apache: ['Apache RTR 160'] });
    await insertMake(t.db, 'Bajaj 3 Wheelers', 'three_wheeler', { RE: ['RE Compact'] });
    await insertMake(t.db, 'Ashok Leyland', 'hcv');

    await t.db.kysely
      .insertInto('coverage')
      .values([
        ...Array.from({ length: 33 }, (_, i) => ({
          make_id: honda.id,
          function_name: `Function ${i + 1}`,
          function_type: 'Scan',
        })),
        { make_id: tvs.id, function_name: '=cmd|calc', function_type: 'Live Data' },
      ])
      .execute();
    await t.db.kysely
      .insertInto('mechanic_commands')
      .values([
        { make_id: honda.id, command: 'AT Z', module: 'Engine', function_type: 'scan', full_scan: 1 },
        { make_id: honda.id, command: '03', module: 'Engine', function_type: 'scan', full_scan: 1 },
        { make_id: honda.id, command: '22 F1 90', module: 'ABS', function_type: 'scan', full_scan: 0 },
        { make_id: honda.id, command: '19 02 FF', module: 'Airbag', function_type: 'scan', full_scan: 1 },
        { make_id: honda.id, command: '0902', module: 'Engine', function_type: 'vin', full_scan: 1 },
        { make_id: tvs.id, command: '03', module: 'Engine', function_type: 'scan', full_scan: 1 },
      ])
      .execute();

    const civic = { make_id: honda.id, model_group_id: honda.groups.Civic };
    const jazz = { make_id: honda.id, model_group_id: honda.groups.Jazz };
    const hondaWide = { make_id: honda.id };
    await insertCustom(t.db, { ...civic, from_year: 2016, to_year: 2021 }, 'DPF Regeneration', {
      Diesel: ['10 03', '31 01 FF 00'],
    });
    await insertCustom(t.db, { ...civic, from_year: 2022 }, 'DPF Regeneration', {
      Petrol: ['10 03'],
      Diesel: ['31 01 FF 01'],
    });
    await insertCustom(t.db, jazz, 'Injector Coding', { Petrol: ['2E F1 01'] });
    await insertCustom(t.db, hondaWide, 'Service Reset', { All: ['31 01 02 03'] });
    await insertCustom(t.db, { make_id: tvs.id, model_group_id: tvs.groups.Apache }, 'ABS Bleed', {
      All: ['31 01 AB'],
    });

    const detail = (pid: string) => ({
      pid,
      actuation_subtype: 'On',
      last_subtype: 'Off',
      seed_key_variant: 'HND1',
      message: `Run ${pid}`,
      message_item: true,
      success_check: '71',
    });
    await insertActuation(t.db, civic, 'Cooling Fan', [detail('2F 01'), detail('2F 02')]);
    await insertActuation(t.db, jazz, 'Cooling Fan', [detail('2F 03')]);
    await insertActuation(t.db, civic, 'Horn', [detail('2F 10')]);
    // The same step list for a second model group: listed once on the Horn card.
    await insertActuation(t.db, jazz, 'Horn', [detail('2F 10')]);
    await insertSpf(t.db, civic, 'Steering Angle Reset', false, [
      { pid: '31 01 01', message: 'Centre the wheel', command_type: 'UDS' },
    ]);
    await insertSpf(t.db, jazz, 'Steering Angle Reset', true, [
      { pid: '31 01 02', message: 'Centre', command_type: 'UDS' },
    ]);
    // The Civic's step list again, for the Jazz's group: listed once on the card.
    await insertSpf(t.db, jazz, 'Steering Angle Reset', false, [
      { pid: '31 01 01', message: 'Centre the wheel', command_type: 'UDS' },
    ]);
    for (let i = 0; i < 32; i += 1) {
      await insertOdometer(
        t.db,
        { ...civic, from_year: 2015, to_year: 2020 },
        `22 F1 ${String(i).padStart(2, '0')}`,
      );
    }
    await insertOdometer(t.db, { make_id: tvs.id }, '01 A6', { formula_metric: '@SUM(A1)' });
    await insertLiveData(t.db, civic, 'Engine speed', 'Engine');
    await insertLiveData(t.db, hondaWide, 'Battery voltage', 'Battery');
    await insertLiveData(t.db, { make_id: tvs.id }, 'Engine speed', 'Engine');
  });
  afterAll(() => t.close());
  return {
    get t() {
      return t;
    },
    get headers() {
      return headers;
    },
  };
}
