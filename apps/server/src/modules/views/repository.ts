import type { ColumnLayout } from '@obd/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SavedViewRecord } from './mapper.ts';

const viewColumns = [
  'saved_views.id',
  'saved_views.operator_id',
  'operators.email as owner_email',
  'saved_views.list',
  'saved_views.name',
  'saved_views.shared',
  'saved_views.query',
  'saved_views.columns',
  'saved_views.created_at',
  'saved_views.updated_at',
] as const;

const views = (db: Kysely<Database>) =>
  db
    .selectFrom('saved_views')
    .leftJoin('operators', 'operators.id', 'saved_views.operator_id')
    .select(viewColumns);

/** The views of `list` an operator may open: their own (first), then those others share, by name. */
export function listSavedViews(
  db: Kysely<Database>,
  operatorId: number,
  list: string,
): Promise<SavedViewRecord[]> {
  return views(db)
    .where('saved_views.list', '=', list)
    .where((eb) => eb.or([eb('saved_views.operator_id', '=', operatorId), eb('saved_views.shared', '=', 1)]))
    .orderBy((eb) => eb.case().when('saved_views.operator_id', '=', operatorId).then(0).else(1).end())
    .orderBy('saved_views.name')
    .orderBy('saved_views.id')
    .execute();
}

export function findSavedView(db: Kysely<Database>, id: number): Promise<SavedViewRecord | undefined> {
  return views(db).where('saved_views.id', '=', id).executeTakeFirst();
}

/** Another view of the same owner and list already called `name` (not `exceptId`)? */
export async function nameTaken(
  db: Kysely<Database>,
  owner: number,
  list: string,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('saved_views')
    .select('id')
    .where('operator_id', '=', owner)
    .where('list', '=', list)
    .where('name', '=', name);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function countOwnViews(db: Kysely<Database>, owner: number, list: string): Promise<number> {
  const row = await db
    .selectFrom('saved_views')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('operator_id', '=', owner)
    .where('list', '=', list)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertSavedView(
  db: Kysely<Database>,
  view: {
    owner: number;
    list: string;
    name: string;
    shared: boolean;
    query: string;
    columns: ColumnLayout | null;
  },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('saved_views')
    .values({
      operator_id: view.owner,
      list: view.list,
      name: view.name,
      shared: view.shared ? 1 : 0,
      query: view.query,
      columns: view.columns ? JSON.stringify(view.columns) : null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSavedView(
  db: Kysely<Database>,
  id: number,
  change: { name?: string; shared?: boolean; query?: string; columns?: ColumnLayout | null },
  now: string,
): Promise<void> {
  await db
    .updateTable('saved_views')
    .set({
      updated_at: now,
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.shared === undefined ? {} : { shared: change.shared ? 1 : 0 }),
      ...(change.query === undefined ? {} : { query: change.query }),
      ...(change.columns === undefined
        ? {}
        : { columns: change.columns ? JSON.stringify(change.columns) : null }),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteSavedView(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('saved_views').where('id', '=', id).execute();
}

/** A unique index refused the write (two requests saving the same name at once). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
