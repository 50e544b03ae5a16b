import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Issue 12 item 2, the audit log sorts by action and by target (`modules/audit/lists.ts`): 010's
 * (action, at, id) and (target, at, id) serve a filter newest first, not `ORDER BY action, id`
 * (every event of the first action would be sorted to find a page). At a million events a page
 * of either order is read from one end of its own index, the id breaking ties:
 * - SQLite: `(column)`: every SQLite index ends in the rowid, which is the id;
 * - PostgreSQL: `(column [NULLS FIRST], id)`, the order the list asks for, scanned either way.
 * The time and the id orders already have their indexes; the other lists of this session (the
 * operators, the catalogues, the fault codes) hold thousands of rows at most and sort in memory.
 */
const SORTED: readonly (readonly [column: string, nullable: boolean])[] = [
  ['action', false],
  ['target', true],
];

export function auditSortIndexesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [column, nullable] of SORTED) {
        const name = sql.id(`audit_events_sort_${column}`);
        if (dialect === 'sqlite') {
          await sql`CREATE INDEX ${name} ON audit_events (${sql.ref(column)})`.execute(db);
        } else {
          const nulls = nullable ? sql` NULLS FIRST` : sql``;
          await sql`CREATE INDEX ${name} ON audit_events (${sql.ref(column)}${nulls}, id)`.execute(db);
        }
      }
    },
  };
}
