import type {
  ActuationCommand,
  ActuationCommandQuery,
  ActuationDetail,
  CustomCommand,
  CustomCommandQuery,
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
  const offset = (q.page - 1) * q.limit;
  const keys = await filtered()
    .select(sql<string>`${keyRef}`.as('key'))
    .groupBy(keyRef)
    .orderBy(keyRef)
    .limit(q.limit)
    .offset(offset)
    .execute();
  // A page short of the limit is the last one: it tells the total (the usual case — the demo
  // catalogues have 8 groups each — saves counting them).
  if (keys.length < q.limit && (keys.length > 0 || offset === 0)) {
    return { keys: keys.map((k) => k.key), total: offset + keys.length };
  }
  const count = await filtered()
    .select(sql<number>`count(distinct ${keyRef})`.as('total'))
    .executeTakeFirstOrThrow();
  return { keys: keys.map((k) => k.key), total: Number(count.total) };
}

/**
 * The items of a stored JSON array as text (`[a,b]` → `a,b`; '' for `[]`), to splice into an
 * answer without parsing it. The seed is the only writer of the grouped catalogues and stores the
 * arrays with JSON.stringify, normalised to the contract's fields (the tests check the answers
 * against the contract's schemas).
 */
const arrayItems = (json: string) => json.trim().slice(1, -1).trim();

const parse = <T>(json: string, fallback: T): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

export async function listCustomCommands(db: Db, q: CustomCommandQuery) {
  const { keys, total } = await pageOfGroups(db.kysely, 'custom_commands', 'function_name', q);
  if (keys.length === 0) return { groups: [] as CustomCommand[], total };
  const inPage = () =>
    db.kysely
      .selectFrom('custom_commands as c')
      .where((eb) => eb.and([vehicleWhere(eb, q), eb('c.function_name', 'in', keys)]));
  // Most rows of a group repeat the variants of another model group: merging each distinct text
  // once, in the order of its first row, gives the same map as merging every row in order.
  const variantTexts = inPage()
    .select(['c.function_name', 'c.variants', sql<number>`min(c.id)`.as('first')])
    .groupBy(['c.function_name', 'c.variants'])
    .orderBy('c.function_name')
    .orderBy('first')
    .execute();
  // The make and model cells name each distinct make and model group of the rows, in the order of
  // their first row ("Honda, Acura"); deduplicating narrow rows here costs less than two GROUP BYs.
  const nameRows = inPage()
    .innerJoin('makes', 'makes.id', 'c.make_id')
    .leftJoin('model_groups', 'model_groups.id', 'c.model_group_id')
    .select(['c.function_name', 'makes.name as make', 'model_groups.name as model'])
    .orderBy('c.function_name')
    .orderBy('c.id')
    .execute();
  const [texts, names] = await Promise.all([variantTexts, nameRows]);
  const merged = new Map<string, Record<string, string[]>>(keys.map((key) => [key, {}]));
  for (const row of texts) {
    // Merge the variant → commands maps of the group's rows; a variant seen twice keeps both
    // lists, without repeating a command.
    const commands = merged.get(row.function_name) ?? {};
    const variants = parse<Record<string, string[]>[]>(row.variants, [])[0] ?? {};
    for (const [variant, list] of Object.entries(variants)) {
      commands[variant] = [...new Set([...(commands[variant] ?? []), ...list])];
    }
  }
  const makes = new Map<string, Set<string>>();
  const models = new Map<string, Set<string>>();
  for (const row of names) {
    const makeSet = makes.get(row.function_name) ?? new Set();
    const modelSet = models.get(row.function_name) ?? new Set();
    makeSet.add(row.make);
    modelSet.add(row.model ?? 'All models');
    makes.set(row.function_name, makeSet);
    models.set(row.function_name, modelSet);
  }
  const joined = (set: Set<string> | undefined) => [...(set ?? [])].join(', ');
  const groups = [...merged].map(([key, commands]) => ({
    function_name: key,
    make: joined(makes.get(key)),
    model: joined(models.get(key)),
    variant: Object.keys(commands),
    commands: [commands],
  }));
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
 * (~800 KB of details in 908 rows, of which ~100 distinct step lists); parsing every stored details
 * array only to serialise it again took two thirds of the request, so the database drops the
 * repeated lists and the stored arrays are spliced into the answer as they are (see arrayItems).
 */
export async function actuationCommandsJson(db: Db, q: ActuationCommandQuery): Promise<string> {
  const { keys, total } = await pageOfGroups(db.kysely, 'actuation_commands', 'actuation_type', q);
  const inPage = () =>
    db.kysely
      .selectFrom('actuation_commands as c')
      .where((eb) => eb.and([vehicleWhere(eb, q), eb('c.actuation_type', 'in', keys)]));
  const [lists, messages] =
    keys.length === 0
      ? [[], []]
      : await Promise.all([
          // Model groups of a make often share the very same step list: a card lists it once, where
          // its first row puts it.
          inPage()
            .select(['c.actuation_type', 'c.details', sql<number>`min(c.id)`.as('first')])
            .groupBy(['c.actuation_type', 'c.details'])
            .orderBy('c.actuation_type')
            .orderBy('first')
            .execute(),
          // A card's message is the first message of its rows that is set.
          db.kysely
            .selectFrom('actuation_commands as m')
            .select(['m.actuation_type', 'm.message'])
            .where(
              'm.id',
              'in',
              inPage()
                .select(sql<number>`min(c.id)`.as('id'))
                .where('c.message', 'is not', null)
                .groupBy('c.actuation_type'),
            )
            .execute(),
        ]);
  const message = new Map(messages.map((m) => [m.actuation_type, m.message]));
  const groups = new Map<string, string[]>();
  for (const row of lists) {
    const details = groups.get(row.actuation_type) ?? [];
    const items = arrayItems(row.details);
    if (items) details.push(items);
    groups.set(row.actuation_type, details);
  }
  const data = [...groups].map(
    ([type, details]) =>
      `{"actuation_type":${JSON.stringify(type)},"message":${JSON.stringify(message.get(type) ?? null)},"details":[${details.join(',')}]}`,
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

/**
 * The SPFCommands answer as JSON text. Each function lists every distinct step list of its rows
 * once, in the order its first row puts it (several model groups of a make often share one list,
 * and decisions §3 lists a command once, as ActuationCommands does); the stored details arrays
 * are spliced in as they are (see arrayItems) rather than parsed, checked and serialised again.
 */
export async function spfCommandsJson(db: Db, q: SpfCommandQuery): Promise<string> {
  const { keys, total } = await pageOfGroups(db.kysely, 'spf_commands', 'function_name', q);
  const rows =
    keys.length === 0
      ? []
      : await db.kysely
          .selectFrom('spf_commands as c')
          .select([
            'c.function_name',
            'c.details',
            sql<number>`min(c.id)`.as('first'),
            // A function is hard-coded when any of its rows is.
            sql<number>`max(c.hard_coded)`.as('hard_coded'),
          ])
          .where((eb) => eb.and([vehicleWhere(eb, q), eb('c.function_name', 'in', keys)]))
          .groupBy(['c.function_name', 'c.details'])
          .orderBy('c.function_name')
          .orderBy('first')
          .execute();
  const groups = new Map<string, { hardCoded: boolean; details: string[] }>();
  for (const row of rows) {
    const group = groups.get(row.function_name) ?? { hardCoded: false, details: [] };
    group.hardCoded ||= Number(row.hard_coded) === 1;
    const items = arrayItems(row.details);
    if (items) group.details.push(items);
    groups.set(row.function_name, group);
  }
  const data = [...groups].map(
    ([name, g]) =>
      `{"function_name":${JSON.stringify(name)},"hard_coded":${g.hardCoded},"details":[${g.details.join(',')}]}`,
  );
  return `{"data":[${data.join(',')}],"total":${total}}`;
}
