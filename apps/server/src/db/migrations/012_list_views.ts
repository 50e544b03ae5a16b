import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Lists in the hand (issue 12):
 * - `list_preferences`: one row per operator and list — the columns as they arranged them
 *   (`columns`: JSON `{ order, hidden }` of column headers, null for the declared columns) and the
 *   row density; it goes with the operator, not the browser.
 * - `saved_views`: a list's address query (filters and sort, relative dates kept as said) and its
 *   columns under a name, owned by an operator, private or shared with every operator. A view's
 *   name is unique per owner and list. Both go when their operator is deleted.
 */
export function listViewsMigration(dialect: Dialect) {
  const serialId = <T extends CreateTableBuilder<any, any>>(t: T) =>
    dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('list_preferences')
        .addColumn('operator_id', 'integer', (c) =>
          c.notNull().references('operators.id').onDelete('cascade'),
        )
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('columns', 'text')
        .addColumn('density', 'text', (c) => c.notNull().defaultTo('comfortable'))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('list_preferences_pk', ['operator_id', 'list'])
        .execute();

      await db.schema
        .createTable('saved_views')
        .$call(serialId)
        .addColumn('operator_id', 'integer', (c) =>
          c.notNull().references('operators.id').onDelete('cascade'),
        )
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('shared', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('columns', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // A list's views menu: the operator's own views, then the shared ones.
      await db.schema
        .createIndex('saved_views_owner_idx')
        .on('saved_views')
        .columns(['operator_id', 'list', 'name'])
        .unique()
        .execute();
      await db.schema
        .createIndex('saved_views_shared_idx')
        .on('saved_views')
        .columns(['list', 'shared'])
        .execute();
    },
  };
}
