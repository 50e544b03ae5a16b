/**
 * Operator accounts from the command line:
 *   npm run operator -- create --email ops@example.com --role editor
 *   npm run operator -- invite --role viewer
 * `create` prints a generated password; `invite` prints a one-time sign-up code.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { type Role, roleSchema } from '@obd/contract';
import { hashPassword } from '../auth/passwords.ts';
import { createInvitation, findOperatorByEmail, insertOperator } from '../auth/repository.ts';
import { loadConfig } from '../config.ts';
import { migrate, openDatabase } from '../db/database.ts';

const USAGE = `Usage:
  npm run operator -- create --email <address> [--role viewer|editor|admin]
  npm run operator -- invite [--role viewer|editor|admin]`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(1);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { email: { type: 'string' }, role: { type: 'string', default: 'viewer' } },
});
const command = positionals[0];
const role = roleSchema.safeParse(values.role);
if (!role.success) fail(`--role must be viewer, editor or admin (got "${values.role}").`);
if (command !== 'create' && command !== 'invite') fail('Say what to do: create or invite.');

const db = openDatabase(loadConfig().database);
try {
  await migrate(db);
  if (command === 'create') await create(values.email, role.data);
  else {
    const invitation = await createInvitation(db.kysely, role.data, null);
    console.log(
      `Invitation code for a ${invitation.role}: ${invitation.code} (valid until ${invitation.expiresAt})`,
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
  const operator = await insertOperator(db.kysely, {
    email,
    passwordHash: await hashPassword(password),
    role,
  });
  console.log(`Created ${operator.role} ${operator.email}\nPassword: ${password}`);
}
