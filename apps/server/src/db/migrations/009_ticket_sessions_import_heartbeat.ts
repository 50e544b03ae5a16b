import type { Kysely } from 'kysely';

/**
 * A download link dies with the session that asked for it: each ticket names its session (a
 * sign-out, expiry or revocation ends the link too; deleting the session deletes its tickets).
 * Running imports write a heartbeat, so that on a PostgreSQL shared by several processes an
 * import whose process died is told from one still running elsewhere within seconds.
 */
export function ticketSessionsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('download_tickets')
        .addColumn('session_id', 'integer', (c) => c.references('sessions.id').onDelete('cascade'))
        .execute();
      await db.schema.alterTable('imports').addColumn('heartbeat_at', 'text').execute();
      // The purge deletes by expiry; these keep it from reading whole tables as they grow.
      await db.schema
        .createIndex('download_tickets_expires_at_idx')
        .on('download_tickets')
        .columns(['expires_at'])
        .execute();
      await db.schema
        .createIndex('download_tickets_session_id_idx')
        .on('download_tickets')
        .columns(['session_id'])
        .execute();
      await db.schema.createIndex('sessions_expires_at_idx').on('sessions').columns(['expires_at']).execute();
    },
  };
}
