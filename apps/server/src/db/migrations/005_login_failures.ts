import type { Kysely } from 'kysely';

/**
 * Failed sign-ins, counted by `auth/loginThrottle.ts`. They live in the database, beside the
 * sessions, so that every server process sharing it enforces one limit per account and address.
 */
export function loginFailuresMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('login_failures')
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('failed_at', 'text', (c) => c.notNull())
        .execute();
      // Counting a subject's failures in the window, and deleting old ones, walk this index.
      await db.schema
        .createIndex('login_failures_subject_idx')
        .on('login_failures')
        .columns(['subject', 'failed_at'])
        .execute();
      await db.schema
        .createIndex('login_failures_failed_at_idx')
        .on('login_failures')
        .columns(['failed_at'])
        .execute();
    },
  };
}
