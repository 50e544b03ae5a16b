import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { postgresStatementTriggers } from './004_list_counts.ts';

/**
 * Operators and the audit log (issue 11):
 * - operators can be disabled (`disabled_at`) and say when they were last seen;
 * - sessions keep the client's address and user agent from sign-in (the "my sessions" list);
 * - `password_resets`: admin-issued one-time codes (only their hash), 24 hours, single use;
 * - `audit_events`: append-only, one row per recorded action. No foreign key on `operator_id`:
 *   an event outlives whatever it names. Page 1 of the audit list, newest first, under any
 *   single filter walks one index from its end: (at, id), (action, at, id), (operator_id, at, id),
 *   (target, at, id);
 * - `audit_counts (col, val, day, n)`: events per day (`col = ''`), per action and per acting
 *   operator per day, and per target (`day = ''`), kept exact by triggers in the same
 *   transaction as every insert and delete, so an exact total at a million events is a sum of a
 *   few hundred rows instead of a count of a million (`modules/audit/repository.ts`).
 */
export function operatorsAuditMigration(dialect: Dialect) {
  const serialId = <T extends CreateTableBuilder<any, any>>(t: T) =>
    dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('operators').addColumn('disabled_at', 'text').execute();
      await db.schema.alterTable('operators').addColumn('last_seen_at', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();

      await db.schema
        .createTable('password_resets')
        .$call(serialId)
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('operator_id', 'integer', (c) =>
          c.notNull().references('operators.id').onDelete('cascade'),
        )
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('password_resets_operator_id_idx')
        .on('password_resets')
        .column('operator_id')
        .execute();
      await db.schema
        .createIndex('password_resets_expires_at_idx')
        .on('password_resets')
        .column('expires_at')
        .execute();
      // The pending-invitations list and the purge read by expiry.
      await db.schema
        .createIndex('invitations_expires_at_idx')
        .on('invitations')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('audit_events')
        .$call(serialId)
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('operator_id', 'integer')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('address', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      for (const [name, columns] of [
        ['audit_events_at_idx', ['at', 'id']],
        ['audit_events_action_idx', ['action', 'at', 'id']],
        ['audit_events_operator_idx', ['operator_id', 'at', 'id']],
        ['audit_events_target_idx', ['target', 'at', 'id']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('audit_events')
          .columns([...columns])
          .execute();
      }

      const count = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('audit_counts')
        .addColumn('col', 'text', (c) => c.notNull())
        .addColumn('val', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('n', count, (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_counts_pk', ['col', 'val', 'day'])
        .execute();

      // The facets of one event row `x`: (col, val, day). Sorted by (col, val, day) when applied,
      // so concurrent writers take the counter rows' locks in one order — the day's total first.
      const facets = (x: string) => [
        [`''`, `''`, `substr(${x}.at, 1, 10)`],
        [`'action'`, `${x}.action`, `substr(${x}.at, 1, 10)`],
        [`'operator_id'`, `CAST(${x}.operator_id AS TEXT)`, `substr(${x}.at, 1, 10)`],
        [`'target'`, `${x}.target`, `''`],
      ];
      if (dialect === 'sqlite') {
        const apply = (alias: 'new' | 'old', sign: '+1' | '-1') => `
          INSERT INTO audit_counts (col, val, day, n)
            SELECT c, v, d, ${sign} FROM (${facets(alias)
              .map(([c, v, d]) => `SELECT ${c} AS c, ${v} AS v, ${d} AS d`)
              .join(' UNION ALL ')}) WHERE v IS NOT NULL
            ON CONFLICT (col, val, day) DO UPDATE SET n = n + excluded.n;`;
        await sql
          .raw(`CREATE TRIGGER audit_counts_ai AFTER INSERT ON audit_events BEGIN ${apply('new', '+1')} END`)
          .execute(db);
        await sql
          .raw(`CREATE TRIGGER audit_counts_ad AFTER DELETE ON audit_events BEGIN ${apply('old', '-1')} END`)
          .execute(db);
      } else {
        await postgresStatementTriggers(
          db,
          'audit_events',
          'audit_counts_keep',
          (rows, sign) => `
          INSERT INTO audit_counts (col, val, day, n)
            SELECT f.c, f.v, f.d, ${sign}count(*) FROM ${rows} x
            CROSS JOIN LATERAL (VALUES ${facets('x')
              .map(([c, v, d]) => `(${c}, ${v}, ${d})`)
              .join(', ')}) AS f(c, v, d)
            WHERE f.v IS NOT NULL GROUP BY f.c, f.v, f.d ORDER BY f.c, f.v, f.d
            ON CONFLICT (col, val, day) DO UPDATE SET n = audit_counts.n + excluded.n;`,
        );
      }
    },
  };
}
