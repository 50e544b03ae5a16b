import type {
  ActuationCommand,
  ActuationCommandQuery,
  ActuationDetail,
  CustomCommand,
  CustomCommandQuery,
  SpfCommand,
  SpfCommandQuery,
} from '@obd/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { type VehicleFilters, vehicleWhere } from './vehicleFilter.ts';

type GroupedTable = 'custom_commands' | 'actuation_commands' | 'spf_commands';
type Paging = { page: number; limit: number };

/**
 * One page of group keys and the number of groups (decisions §3): the page is cut between
 * groups, never inside one, and `total` counts groups, not rows.
 */
async function pageOfGroups(
  db: Kysely<Database>,
  table: GroupedTable,
  key: 'function_name' | 'actuation_type',
  q: VehicleFilters & Paging,
): Promise<{ keys: string[]; total: number }> {
  const filtered = () =>
    db.selectFrom(`${table} as c` as 'custom_commands as c').where((eb) => vehicleWhere(eb, q));
  const keyRef = sql.ref(`c.${key}`);
  const [keys, count] = await Promise.all([
    filtered()
      .select(sql<string>`${keyRef}`.as('key'))
      .groupBy(keyRef)
      .orderBy(keyRef)
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    filtered().select(sql<number>`count(distinct ${keyRef})`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { keys: keys.map((k) => k.key), total: Number(count.total) };
}

const parse = <T>(json: string, fallback: T): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

/** Distinct values in first-seen order, joined for one cell ("Honda, Acura"). */
const joinDistinct = (values: (string | null)[]) =>
  [...new Set(values.map((v) => v ?? 'All models'))].join(', ');

export async function listCustomCommands(db: Db, q: CustomCommandQuery) {
  const { keys, total } = await pageOfGroups(db.kysely, 'custom_commands', 'function_name', q);
  if (keys.length === 0) return { groups: [] as CustomCommand[], total };
  const rows = await db.kysely
    .selectFrom('custom_commands as c')
    .innerJoin('makes', 'makes.id', 'c.make_id')
    .leftJoin('model_groups', 'model_groups.id', 'c.model_group_id')
    .select(['c.function_name', 'c.variants', 'makes.name as make', 'model_groups.name as model'])
    .where((eb) => eb.and([vehicleWhere(eb, q), eb('c.function_name', 'in', keys)]))
    .orderBy('c.function_name')
    .orderBy('c.id')
    .execute();
  const groups = keys.map((key) => {
    const members = rows.filter((r) => r.function_name === key);
    // Merge the variant → commands maps of the group's rows; a variant seen twice keeps both
    // lists, without repeating a command.
    const commands: Record<string, string[]> = {};
    for (const row of members) {
      const variants = parse<Record<string, string[]>[]>(row.variants, [])[0] ?? {};
      for (const [variant, list] of Object.entries(variants)) {
        commands[variant] = [...new Set([...(commands[variant] ?? []), ...list])];
      }
    }
    return {
      function_name: key,
      make: joinDistinct(members.map((m) => m.make)),
      model: joinDistinct(members.map((m) => m.model)),
      variant: Object.keys(commands),
      commands: [commands],
    };
  });
  return { groups, total };
}

function actuationRows(db: Db, q: VehicleFilters, keys?: string[]) {
  return db.kysely
    .selectFrom('actuation_commands as c')
    .select(['c.id', 'c.actuation_type', 'c.message', 'c.details'])
    .where((eb) => eb.and([vehicleWhere(eb, q), ...(keys ? [eb('c.actuation_type', 'in', keys)] : [])]))
    .orderBy('c.actuation_type')
    .orderBy('c.id');
}

type StoredActuationDetail = Partial<Omit<ActuationDetail, 'message_item'>> & { message_item?: unknown };

const actuationDetail = (d: StoredActuationDetail): ActuationDetail => ({
  pid: d.pid ?? null,
  actuation_subtype: d.actuation_subtype ?? null,
  last_subtype: d.last_subtype ?? null,
  seed_key_variant: d.seed_key_variant ?? null,
  message: d.message ?? null,
  message_item: d.message_item === true || d.message_item === 1 || d.message_item === 'true',
  success_check: d.success_check ?? null,
});

/** Rows of one actuation type → one card: its first message and every row's details in order. */
function toActuationGroups(rows: { actuation_type: string; message: string | null; details: string }[]) {
  const groups = new Map<string, ActuationCommand>();
  const seenLists = new Set<string>();
  for (const row of rows) {
    const group = groups.get(row.actuation_type) ?? {
      actuation_type: row.actuation_type,
      message: row.message,
      details: [],
    };
    group.message ??= row.message;
    // As in actuationCommandsJson: identical step lists of several model groups appear once.
    const key = `${row.actuation_type}\u0000${row.details.trim()}`;
    if (!seenLists.has(key)) {
      seenLists.add(key);
      group.details.push(...parse<StoredActuationDetail[]>(row.details, []).map(actuationDetail));
    }
    groups.set(row.actuation_type, group);
  }
  return [...groups.values()];
}

/**
 * The ActuationCommands answer as JSON text. Unfiltered, a page of 200 types is the whole table
 * (~800 KB of details); parsing every stored details array only to serialise it again took two
 * thirds of the request, so the stored arrays (written normalised by the seed and the imports)
 * are spliced into the answer as they are.
 */
export async function actuationCommandsJson(db: Db, q: ActuationCommandQuery): Promise<string> {
  const { keys, total } = await pageOfGroups(db.kysely, 'actuation_commands', 'actuation_type', q);
  const rows = keys.length > 0 ? await actuationRows(db, q, keys).execute() : [];
  const groups = new Map<string, { message: string | null; details: string[] }>();
  for (const row of rows) {
    const group = groups.get(row.actuation_type) ?? { message: row.message, details: [] };
    group.message ??= row.message;
    const inner = row.details.trim().slice(1, -1).trim();
    // Model groups of a make often share the very same step list: a card lists it once.
    if (inner && !group.details.includes(inner)) group.details.push(inner);
    groups.set(row.actuation_type, group);
  }
  const data = [...groups].map(
    ([type, g]) =>
      `{"actuation_type":${JSON.stringify(type)},"message":${JSON.stringify(g.message)},"details":[${g.details.join(',')}]}`,
  );
  return `{"data":[${data.join(',')}],"total":${total}}`;
}

/** Every actuation card under the filters, a batch of groups at a time, for the CSV export. */
export async function* actuationCommandBatches(db: Db, q: VehicleFilters) {
  for (let page = 1; ; page += 1) {
    const { keys } = await pageOfGroups(db.kysely, 'actuation_commands', 'actuation_type', {
      ...q,
      page,
      limit: 200,
    });
    if (keys.length === 0) return;
    yield toActuationGroups(await actuationRows(db, q, keys).execute());
    if (keys.length < 200) return;
  }
}

export async function listSpfCommands(db: Db, q: SpfCommandQuery) {
  const { keys, total } = await pageOfGroups(db.kysely, 'spf_commands', 'function_name', q);
  if (keys.length === 0) return { groups: [] as SpfCommand[], total };
  const rows = await db.kysely
    .selectFrom('spf_commands as c')
    .select(['c.function_name', 'c.hard_coded', 'c.details'])
    .where((eb) => eb.and([vehicleWhere(eb, q), eb('c.function_name', 'in', keys)]))
    .orderBy('c.function_name')
    .orderBy('c.id')
    .execute();
  const groups = new Map<string, SpfCommand>();
  for (const row of rows) {
    const group = groups.get(row.function_name) ?? {
      function_name: row.function_name,
      hard_coded: false,
      details: [],
    };
    // A function is hard-coded when any of its rows is.
    group.hard_coded ||= row.hard_coded === 1;
    const details = parse<{ pid?: string; message?: string; command_type?: string }[]>(row.details, []);
    group.details.push(
      ...details.map((d) => ({
        pid: d.pid ?? null,
        message: d.message ?? null,
        command_type: d.command_type ?? null,
      })),
    );
    groups.set(row.function_name, group);
  }
  return { groups: [...groups.values()], total };
}
