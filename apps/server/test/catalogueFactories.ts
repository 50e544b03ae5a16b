import type { Db } from '../src/db/database.ts';

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
