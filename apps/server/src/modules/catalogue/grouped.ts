import type {
  ActuationCommand,
  ActuationCommandQuery,
  ActuationDetail,
  CustomCommand,
  CustomCommandQuery,
  SpfCommandQuery,
} from '@obd/contract';
import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { type VehicleFilters, vehicleWhere } from './vehicleFilter.ts';

type GroupedTable = 'custom_commands' | 'actuation_commands' | 'spf_commands';
type Paging = { page: number; limit: number };

/** The number of groups under the filters (decisions §3: `total` counts groups, not rows). */
async function countGroups(
  db: Kysely<Database>,
  table: GroupedTable,
  key: 'function_name' | 'actuation_type',
  q: VehicleFilters,
): Promise<number> {
  const count = await db
    .selectFrom(`${table} as c` as 'custom_commands as c')
    .where((eb) => vehicleWhere(eb, q))
    .select(sql<number>`count(distinct ${sql.ref(`c.${key}`)})`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(count.total);
}

/**
 * One page of group keys and the number of groups (decisions §3): the page is cut between
 * groups, never inside one.
 */
async function pageOfGroups(
  db: Kysely<Database>,
  table: GroupedTable,
  key: 'function_name' | 'actuation_type',
  q: VehicleFilters & Paging,
): Promise<{ keys: string[]; total: number }> {
  const keyRef = sql.ref(`c.${key}`);
  const [keys, total] = await Promise.all([
    db
      .selectFrom(`${table} as c` as 'custom_commands as c')
      .where((eb) => vehicleWhere(eb, q))
      .select(sql<string>`${keyRef}`.as('key'))
      .groupBy(keyRef)
      .orderBy(keyRef)
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    countGroups(db, table, key, q),
  ]);
  return { keys: keys.map((k) => k.key), total };
}

/**
 * The items of a stored JSON array as text (`[a,b]` → `a,b`; NULL for `[]`), to splice into an
 * answer without parsing. The seed is the only writer of the grouped catalogues and stores the
 * arrays with JSON.stringify, normalised to the contract's fields (the tests check the answers
 * against the contract's schemas).
 */
const arrayItems = (column: string) => {
  const text = sql`trim(${sql.ref(column)})`;
  return sql<string | null>`nullif(trim(substr(${text}, 2, length(${text}) - 2)), '')`;
};

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
  /** The distinct `name`s of each group's rows in the order of their first row: "Honda, Acura". */
  const namesInOrder = <DB2, TB2 extends keyof DB2>(
    rows: SelectQueryBuilder<DB2, TB2, object>,
    name: RawBuilder<string>,
  ) =>
    db.kysely
      .selectFrom(
        rows
          .select([
            sql<string>`c.function_name`.as('function_name'),
            name.as('name'),
            sql<number>`min(c.id)`.as('first'),
          ])
          .groupBy([sql`c.function_name`, name])
          .as('n'),
      )
      .select([
        sql<string>`n.function_name`.as('function_name'),
        sql<string>`string_agg(n.name, ', ' order by n.first)`.as('names'),
      ])
      .groupBy(sql`n.function_name`)
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.function_name, r.names])));
  const [texts, makes, models] = await Promise.all([
    variantTexts,
    namesInOrder(inPage().innerJoin('makes', 'makes.id', 'c.make_id'), sql`makes.name`),
    namesInOrder(
      inPage().leftJoin('model_groups', 'model_groups.id', 'c.model_group_id'),
      sql`coalesce(model_groups.name, 'All models')`,
    ),
  ]);
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
  const groups = [...merged].map(([key, commands]) => ({
    function_name: key,
    make: makes.get(key) ?? '',
    model: models.get(key) ?? '',
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
          // its first row puts it. (Grouping on the stored text itself is three times cheaper than
          // on its items.)
          inPage()
            .select([
              'c.actuation_type',
              arrayItems('c.details').as('items'),
              sql<number>`min(c.id)`.as('first'),
            ])
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
    if (row.items) details.push(row.items);
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
 * The SPFCommands answer as JSON text: each function's rows in order, their stored details arrays
 * joined by the database (see arrayItems) — unfiltered that is the whole table, ~270 KB of details
 * that parsing, checking and serialising again made the slowest list of the catalogue.
 */
export async function spfCommandsJson(db: Db, q: SpfCommandQuery): Promise<string> {
  const filtered = () => db.kysely.selectFrom('spf_commands as c').where((eb) => vehicleWhere(eb, q));
  const [groups, total] = await Promise.all([
    filtered()
      .select([
        'c.function_name',
        // A function is hard-coded when any of its rows is.
        sql<number>`max(c.hard_coded)`.as('hard_coded'),
        sql<string | null>`string_agg(${arrayItems('c.details')}, ',' order by c.id)`.as('details'),
      ])
      .groupBy('c.function_name')
      .orderBy('c.function_name')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    countGroups(db.kysely, 'spf_commands', 'function_name', q),
  ]);
  const data = groups.map(
    (g) =>
      `{"function_name":${JSON.stringify(g.function_name)},"hard_coded":${Number(g.hard_coded) === 1},"details":[${g.details ?? ''}]}`,
  );
  return `{"data":[${data.join(',')}],"total":${total}}`;
}
