import { getOrAdd } from './collections.ts';
import { loadCsv } from './csv.ts';
import type { SeedContext } from './insert.ts';
import {
  HAND_MODELS,
  type HandModel,
  REQUIRED_MODELS,
  type Segment,
  segmentOf,
  UPDATE_COMMAND_MAKES,
  VPIC_SOURCES,
} from './lists.ts';

/** Models per make at most: enough for a realistic model list, few enough to read. */
const MODEL_CAP = 60;
/** How many vPIC motorcycle makes (beyond the bike makes of the fixed list) join the make list. */
const VPIC_BIKE_MAKES = 40;

export interface SeededModel {
  id: number;
  name: string;
  groupId: number;
  groupName: string;
  yearFrom: number | null;
  yearTo: number | null;
}

export interface SeededMake {
  id: number;
  name: string;
  segment: Segment;
  models: SeededModel[];
}

/** The seeded makes and models, looked up by the other parts of the seed. */
export class VehicleIndex {
  readonly makes: SeededMake[];
  readonly #byKey = new Map<string, SeededMake>();

  constructor(makes: SeededMake[]) {
    this.makes = makes;
    for (const make of makes) this.#byKey.set(makeKey(make.name), make);
  }

  /** The make called `name`, ignoring case, spaces and punctuation ('Mercedes-Benz' finds 'Mercedes Benz'). */
  find(name: string): SeededMake | undefined {
    return this.#byKey.get(makeKey(name));
  }

  get(name: string): SeededMake {
    const make = this.find(name);
    if (!make) throw new Error(`Seed: make ${name} is missing`);
    return make;
  }

  findModel(make: SeededMake, model: string): SeededModel | undefined {
    const key = model.toLowerCase();
    return make.models.find((m) => m.name.toLowerCase() === key);
  }
}

/** Compares make names the way people write them: 'MERCEDES-BENZ' = 'Mercedes Benz'. */
export function makeKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

interface PlannedModel {
  name: string;
  group: string;
  yearFrom: number | null;
  yearTo: number | null;
}

interface PlannedMake {
  name: string;
  segment: Segment;
  models: PlannedModel[];
}

/**
 * The model group of a vPIC model: models sharing a family name share an ECU command set.
 * 'Accord Crosstour' → 'Accord', 'CB1000R' → 'CB', 'XUV700' → 'XUV', BMW '328i' → '3 Series';
 * short or numeric names ('A4', '405', 'Z900') are their own group.
 */
export function groupNameOf(make: string, model: string): string {
  const first = model.trim().split(/\s+/)[0] ?? model;
  if (make === 'BMW' && /^[1-8]\d{0,2}[a-z]*$/i.test(first)) return `${first[0]} Series`;
  const family = /^([A-Za-z]{2,})[-\s]?\d{2,}[A-Za-z]*$/.exec(first);
  if (family?.[1]) return family[1];
  return first.replace(/[-/,]+$/, '') || model;
}

/** Reads vPIC and the hand-written lists into the make list, models and groups to insert. */
function planVehicles(): PlannedMake[] {
  const vpicModels = new Map<
    string,
    { name: string; segments: string; yearFrom: number | null; yearTo: number | null }[]
  >();
  for (const row of loadCsv('vehicle_models_vpic')) {
    const key = makeKey(row.make);
    const list = getOrAdd(vpicModels, key, () => []);
    list.push({
      name: row.model.trim(),
      segments: row.segments,
      yearFrom: row.year_from ? Number(row.year_from) : null,
      yearTo: row.year_to ? Number(row.year_to) : null,
    });
  }

  const planned: PlannedMake[] = [];
  const taken = new Set<string>();
  const add = (name: string, segment: Segment, vpic: { vpic: string; kind: 'bike' | 'car' } | null) => {
    if (taken.has(makeKey(name))) return;
    taken.add(makeKey(name));
    planned.push({ name, segment, models: planModels(name, vpic, vpicModels) });
  };

  // 1. The fixed list first, in its order (so it also gets the first ids).
  for (const name of UPDATE_COMMAND_MAKES) {
    const segment = segmentOf(name);
    const source = VPIC_SOURCES[name] ?? (segment === 'car' ? { vpic: name, kind: 'car' as const } : null);
    add(name, segment, source);
  }

  // 2. Real motorcycle makes from vPIC: those with the most motorcycle models, skipping the ones
  //    the fixed list already covers under another name ('Honda' → 'Honda Bikes').
  const usedVpic = new Set(Object.values(VPIC_SOURCES).map((s) => makeKey(s.vpic)));
  const bikeCounts = [...vpicModels.entries()]
    .map(([key, models]) => ({
      key,
      count: models.filter((m) => m.segments.split(';').includes('bike')).length,
    }))
    .filter((m) => m.count > 0 && !usedVpic.has(m.key) && !taken.has(m.key))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
    .slice(0, VPIC_BIKE_MAKES);
  const vpicNames = new Map(loadCsv('vehicle_makes_vpic').map((r) => [makeKey(r.make), r.make.trim()]));
  for (const { key } of bikeCounts) {
    const name = vpicNames.get(key) ?? key;
    add(name, 'bike', { vpic: name, kind: 'bike' });
  }

  // 3. Every make the fault-code and OBDb data name, so their rows can point at a make id.
  const dataMakes = [
    ...loadCsv('dtc_manufacturer_wal33d').map((r) => r.make),
    ...loadCsv('dtc_solutions_mechanicdb').map((r) => r.make),
    ...loadCsv('live_data_signals_obdb').map((r) => r.make),
    ...loadCsv('scan_responses_obdb').map((r) => r.make),
  ];
  for (const name of dataMakes) if (name) add(name, 'car', { vpic: name, kind: 'car' });

  return planned;
}

function planModels(
  make: string,
  source: { vpic: string; kind: 'bike' | 'car' } | null,
  vpicModels: Map<
    string,
    { name: string; segments: string; yearFrom: number | null; yearTo: number | null }[]
  >,
): PlannedModel[] {
  const models: PlannedModel[] = [];
  const seen = new Set<string>();
  const push = (model: PlannedModel) => {
    const key = model.name.toLowerCase();
    if (!model.name || seen.has(key) || models.length >= MODEL_CAP) return;
    seen.add(key);
    models.push(model);
  };
  const pushHand = (groups: Record<string, readonly HandModel[]> | undefined) => {
    for (const [group, list] of Object.entries(groups ?? {})) {
      for (const [name, yearFrom] of list) push({ name, group, yearFrom, yearTo: null });
    }
  };
  pushHand(REQUIRED_MODELS[make]);
  pushHand(HAND_MODELS[make]);

  if (source) {
    const wanted = source.kind === 'bike' ? ['bike'] : ['car', 'truck'];
    const candidates = (vpicModels.get(makeKey(source.vpic)) ?? []).filter((m) =>
      m.segments.split(';').some((s) => wanted.includes(s)),
    );
    // Over the cap, keep passenger cars before trucks and current models before old ones.
    const rank = (m: { segments: string; yearTo: number | null }) =>
      (source.kind === 'car' && !m.segments.split(';').includes('car') ? 1e5 : 0) - (m.yearTo ?? 9999);
    candidates.sort(
      (a, b) => rank(a) - rank(b) || (b.yearFrom ?? 0) - (a.yearFrom ?? 0) || cmp(a.name, b.name),
    );
    for (const m of candidates) {
      push({ name: m.name, group: groupNameOf(make, m.name), yearFrom: m.yearFrom, yearTo: m.yearTo });
    }
  }

  // Every make has at least one model (and group), even one vPIC and our lists lack.
  if (models.length === 0)
    push({ name: `${make} (all models)`, group: 'All models', yearFrom: null, yearTo: null });
  return models.sort((a, b) => cmp(a.name, b.name));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Inserts makes, model groups and models; returns them with their ids. */
export async function seedVehicles(ctx: SeedContext): Promise<VehicleIndex> {
  const planned = planVehicles();

  const makeRows = await ctx.kx
    .insertInto('makes')
    .values(planned.map((m) => ({ name: m.name, segment: m.segment })))
    .returning(['id', 'name'])
    .execute();
  const makeIds = new Map(makeRows.map((r) => [r.name, r.id]));
  const idOf = (name: string) => {
    const id = makeIds.get(name);
    if (id === undefined) throw new Error(`Seed: make ${name} was not inserted`);
    return id;
  };

  const groupRows = planned.flatMap((m) => {
    const names = [...new Set(m.models.map((x) => x.group))];
    return names.map((name) => ({ make_id: idOf(m.name), name }));
  });
  const groupIds = new Map<string, number>();
  const size = 10_000;
  for (let i = 0; i < groupRows.length; i += size) {
    const inserted = await ctx.kx
      .insertInto('model_groups')
      .values(groupRows.slice(i, i + size))
      .returning(['id', 'make_id', 'name'])
      .execute();
    for (const g of inserted) groupIds.set(`${g.make_id}|${g.name}`, g.id);
  }

  const modelRows = planned.flatMap((m) =>
    m.models.map((x) => {
      const makeId = idOf(m.name);
      const groupId = groupIds.get(`${makeId}|${x.group}`);
      if (groupId === undefined) throw new Error(`Seed: group ${x.group} of ${m.name} is missing`);
      return {
        make_id: makeId,
        model_group_id: groupId,
        name: x.name,
        year_from: x.yearFrom,
        year_to: x.yearTo,
      };
    }),
  );
  const modelIds = new Map<string, number>();
  for (let i = 0; i < modelRows.length; i += 5_000) {
    const inserted = await ctx.kx
      .insertInto('models')
      .values(modelRows.slice(i, i + 5_000))
      .returning(['id', 'make_id', 'name'])
      .execute();
    for (const r of inserted) modelIds.set(`${r.make_id}|${r.name}`, r.id);
  }

  const makes: SeededMake[] = planned.map((m) => {
    const makeId = idOf(m.name);
    return {
      id: makeId,
      name: m.name,
      segment: m.segment,
      models: m.models.map((x) => ({
        id: modelIds.get(`${makeId}|${x.name}`) ?? 0,
        name: x.name,
        groupId: groupIds.get(`${makeId}|${x.group}`) ?? 0,
        groupName: x.group,
        yearFrom: x.yearFrom,
        yearTo: x.yearTo,
      })),
    };
  });
  ctx.log(`makes ${makes.length}, model groups ${groupRows.length}, models ${modelRows.length}`);
  return new VehicleIndex(makes);
}

/** The makes and models already in the database (for appending activity to a seeded database). */
export async function loadVehicles(ctx: SeedContext): Promise<VehicleIndex> {
  const makes = await ctx.kx.selectFrom('makes').select(['id', 'name', 'segment']).orderBy('id').execute();
  const models = await ctx.kx
    .selectFrom('models')
    .innerJoin('model_groups', 'model_groups.id', 'models.model_group_id')
    .select([
      'models.id',
      'models.make_id',
      'models.name',
      'models.model_group_id',
      'model_groups.name as group_name',
      'models.year_from',
      'models.year_to',
    ])
    .orderBy('models.id')
    .execute();
  const byMake = new Map<number, SeededModel[]>();
  for (const m of models) {
    const list = getOrAdd(byMake, m.make_id, () => []);
    list.push({
      id: m.id,
      name: m.name,
      groupId: m.model_group_id,
      groupName: m.group_name,
      yearFrom: m.year_from,
      yearTo: m.year_to,
    });
  }
  return new VehicleIndex(
    makes.map((m) => ({
      id: m.id,
      name: m.name,
      segment: m.segment as Segment,
      models: byMake.get(m.id) ?? [],
    })),
  );
}
