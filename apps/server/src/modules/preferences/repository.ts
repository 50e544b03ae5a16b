import type { ColumnLayout, Density } from '@obd/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { PreferencesRecord } from './mapper.ts';

/** The operator's stored preferences for `list`, if they ever arranged it. */
export function findListPreferences(
  db: Kysely<Database>,
  operatorId: number,
  list: string,
): Promise<PreferencesRecord | undefined> {
  return db
    .selectFrom('list_preferences')
    .select(['list', 'columns', 'density', 'updated_at'])
    .where('operator_id', '=', operatorId)
    .where('list', '=', list)
    .executeTakeFirst();
}

/**
 * Writes the parts given (one statement: an insert, or an update of the row already there).
 * `columns: null` forgets the arrangement: the list shows its declared columns again.
 */
export async function saveListPreferences(
  db: Kysely<Database>,
  operatorId: number,
  list: string,
  change: { columns?: ColumnLayout | null; density?: Density },
  now: string,
): Promise<void> {
  const columns = change.columns === undefined ? undefined : change.columns && JSON.stringify(change.columns);
  await db
    .insertInto('list_preferences')
    .values({
      operator_id: operatorId,
      list,
      columns: columns ?? null,
      density: change.density ?? 'comfortable',
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['operator_id', 'list']).doUpdateSet({
        updated_at: now,
        ...(columns === undefined ? {} : { columns }),
        ...(change.density === undefined ? {} : { density: change.density }),
      }),
    )
    .execute();
}
