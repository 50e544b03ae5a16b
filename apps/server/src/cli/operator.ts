/**
 * Operator accounts from the command line:
 *   npm run operator -- create --email ops@example.com --role editor
 *   npm run operator -- invite --role viewer [--days 7]
 *   npm run operator -- reset --email ops@example.com
 * `create` prints a generated password; `invite` prints a one-time sign-up code (valid 1–30 days);
 * `reset` prints a one-time password-reset code (24 hours) for /reset-password — the way back in
 * for an admin who forgot their password. Each is recorded in the audit log, by nobody (the
 * command line).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { INVITATION_DAYS, type Role, roleSchema } from '@obd/contract';
import { hashPassword } from '../auth/passwords.ts';
import { createInvitation, findOperatorByEmail, insertOperator } from '../auth/repository.ts';
import { loadConfig } from '../config.ts';
import { migrate, openDatabase } from '../db/database.ts';
import { type AuditActor, recordAudit } from '../modules/audit/record.ts';
import { issuePasswordReset } from '../modules/operators/repository.ts';

const USAGE = `Usage:
  npm run operator -- create --email <address> [--role viewer|editor|admin]
  npm run operator -- invite [--role viewer|editor|admin] [--days ${INVITATION_DAYS.min}-${INVITATION_DAYS.max}, default ${INVITATION_DAYS.default}]
  npm run operator -- reset --email <address>`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(1);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: 'string' },
    role: { type: 'string', default: 'viewer' },
    days: { type: 'string', default: String(INVITATION_DAYS.default) },
  },
});
const command = positionals[0];
const role = roleSchema.safeParse(values.role);
if (!role.success) fail(`--role must be viewer, editor or admin (got "${values.role}").`);
if (command !== 'create' && command !== 'invite' && command !== 'reset')
  fail('Say what to do: create, invite or reset.');
const days = Number(values.days);
if (!Number.isInteger(days) || days < INVITATION_DAYS.min || days > INVITATION_DAYS.max)
  fail(
    `--days must be a whole number from ${INVITATION_DAYS.min} to ${INVITATION_DAYS.max} (got "${values.days}").`,
  );

/** The command line acts as nobody, from no address. */
const cli: AuditActor = { operatorId: null, address: null, userAgent: 'command line' };

const db = openDatabase(loadConfig().database);
try {
  await migrate(db);
  if (command === 'create') await create(values.email, role.data);
  else if (command === 'reset') await reset(values.email);
  else {
    const invitation = await db.kysely.transaction().execute(async (trx) => {
      const made = await createInvitation(trx, role.data, null, days * 24 * 60 * 60 * 1000);
      await recordAudit(trx, cli, {
        action: 'invitation-created',
        target: `invitation #${made.id}`,
        details: { role: made.role, expiresAt: made.expiresAt },
      });
      return made;
    });
    console.log(
      `Invitation code for a ${invitation.role}: ${invitation.code} (valid until ${invitation.expiresAt})\nSign-up link: /signup?code=${encodeURIComponent(invitation.code)}`,
    );
  }
} finally {
  await db.close();
}

async function create(email: string | undefined, role: Role) {
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) fail('--email must be an email address.');
  if (await findOperatorByEmail(db.kysely, email))
    fail(`An operator with the email ${email} already exists.`);
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const operator = await db.kysely.transaction().execute(async (trx) => {
    const made = await insertOperator(trx, { email, passwordHash, role });
    await recordAudit(trx, cli, {
      action: 'sign-up',
      target: made.email,
      details: { role: made.role, via: 'command line' },
    });
    return made;
  });
  console.log(`Created ${operator.role} ${operator.email}\nPassword: ${password}`);
}

async function reset(email: string | undefined) {
  if (!email) fail('--email must name the operator whose password to reset.');
  const operator = await findOperatorByEmail(db.kysely, email);
  if (!operator) fail(`There is no operator with the email ${email}.`);
  const issued = await db.kysely.transaction().execute(async (trx) => {
    const made = await issuePasswordReset(trx, operator.id, null);
    await recordAudit(trx, cli, {
      action: 'password-reset-issued',
      target: operator.email,
      details: { expiresAt: made.expiresAt },
    });
    return made;
  });
  console.log(
    `Password-reset code for ${operator.email}: ${issued.code} (valid until ${issued.expiresAt}). Enter it at /reset-password.`,
  );
}
