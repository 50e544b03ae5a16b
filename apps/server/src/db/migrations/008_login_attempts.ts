import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Sign-in and sign-up attempts, one row each, written before the password or invitation is
 * checked (`auth/loginThrottle.ts`): a burst of simultaneous attempts is counted as it arrives,
 * not after each check ends. A row stays as a failure; a success deletes its account and
 * address's rows. Replaces `login_failures` (005), whose rows were written after the check.
 */
export function loginAttemptsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('login_attempts')
        .$call((t) =>
          dialect === 'postgres'
            ? t.addColumn('id', 'serial', (c) => c.primaryKey())
            : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('attempted_at', 'text', (c) => c.notNull())
        .execute();
      // The throttle counts an account's, an address's and a pair's attempts in the window.
      await db.schema
        .createIndex('login_attempts_email_idx')
        .on('login_attempts')
        .columns(['email', 'attempted_at'])
        .execute();
      await db.schema
        .createIndex('login_attempts_address_idx')
        .on('login_attempts')
        .columns(['address', 'attempted_at'])
        .execute();
      await db.schema
        .createIndex('login_attempts_attempted_at_idx')
        .on('login_attempts')
        .column('attempted_at')
        .execute();
      // Its rows only counted the last 15 minutes' failures; nothing else reads them.
      await db.schema.dropTable('login_failures').execute();
    },
  };
}
