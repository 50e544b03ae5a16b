import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';

/**
 * Makes the database refuse audit events of one action — a failure injected after the change an
 * operation makes, since every operation writes its event last — until the returned function is
 * called. A real failure of the database, not a mock: the operation's transaction must roll back.
 */
export async function failAuditOf(db: Db, action: string): Promise<() => Promise<void>> {
  const k = db.kysely;
  const quoted = action.replaceAll("'", "''");
  if (db.dialect === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER audit_fail BEFORE INSERT ON audit_events WHEN NEW.action = '${quoted}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      )
      .execute(k);
    return async () => {
      await sql`DROP TRIGGER audit_fail`.execute(k);
    };
  }
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION audit_fail() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RAISE EXCEPTION 'injected failure'; END $f$`,
    )
    .execute(k);
  await sql
    .raw(
      `CREATE TRIGGER audit_fail BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.action = '${quoted}') EXECUTE FUNCTION audit_fail()`,
    )
    .execute(k);
  return async () => {
    await sql`DROP TRIGGER audit_fail ON audit_events`.execute(k);
  };
}
