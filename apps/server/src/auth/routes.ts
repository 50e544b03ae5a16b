import {
  loginBodySchema,
  operatorSchema,
  sessionResponseSchema,
  signupBodySchema,
  signupStatusSchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { forbidden, HttpError, unauthorized } from '../lib/errors.ts';
import { actorOf, recordAudit } from '../modules/audit/record.ts';
import { LoginThrottle } from './loginThrottle.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { currentOperator } from './plugin.ts';
import {
  countOperators,
  createSession,
  findOperatorByEmail,
  findValidInvitation,
  insertOperator,
  markInvitationUsedBy,
  normaliseEmail,
  redeemInvitation,
  revokeSession,
} from './repository.ts';
import { serialised } from './serialised.ts';

const LOGIN_FAILED = 'Invalid email or password';
const NEEDS_INVITATION = 'Sign-up needs an invitation code. Ask an admin of OBD Admin for one.';
const BAD_INVITATION = 'This invitation code is unknown, used or expired. Ask an admin for a new one.';
const EMAIL_TAKEN =
  'This invitation cannot create an account for this email. If you already have an account, sign in; otherwise ask the admin who invited you.';

export function authRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottle(db);

  r.post(
    '/api/login',
    { config: { public: true }, schema: { body: loginBodySchema, response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      // Counted before the password is checked: a burst cannot all pass a count read before any
      // of its failures is written.
      const attempt = await throttle.admit(email, request.ip, reply);
      const operator = await findOperatorByEmail(db.kysely, email);
      const ok = await verifyPassword(operator?.password_hash ?? (await decoyHash()), request.body.password);
      // A disabled operator gets the generic answer too: the message tells nobody which it was.
      if (!operator || !ok || operator.disabled_at) {
        const reason = !operator ? 'unknown-email' : !ok ? 'wrong-password' : 'disabled';
        // Nobody proved who they are: the event names no operator, only the e-mail typed.
        await recordAudit(db.kysely, actorOf(request, null), {
          action: 'sign-in-failed',
          target: request.body.email.trim().slice(0, 254),
          details: { email: request.body.email.slice(0, 254), reason },
        });
        throw unauthorized(LOGIN_FAILED);
      }
      await throttle.succeeded(email, request.ip, attempt);
      const actor = actorOf(request, operator.id);
      const token = await db.kysely.transaction().execute(async (trx) => {
        const created = await createSession(trx, operator.id, actor);
        await recordAudit(trx, actor, { action: 'sign-in', target: operator.email });
        return created;
      });
      request.log.info({ operatorId: operator.id }, 'signed in');
      return { token, operator: { id: operator.id, email: operator.email, role: operator.role as 'viewer' } };
    },
  );

  r.get(
    '/api/signup',
    { config: { public: true }, schema: { response: { 200: signupStatusSchema } } },
    async () => ({ invitationRequired: (await countOperators(db.kysely)) > 0 }),
  );

  r.post(
    '/api/signup',
    {
      config: { public: true },
      schema: { body: signupBodySchema, response: { 201: sessionResponseSchema } },
    },
    async (request, reply) => {
      const { password, invitationCode } = request.body;
      const email = normaliseEmail(request.body.email);
      // Throttled like sign-in (an invitation code is a secret too), and the invitation is
      // checked before anything that depends on the email: without a valid code, every email —
      // an operator's or not — gets the same answer.
      const attempt = await throttle.admit(email, request.ip, reply);
      if ((await countOperators(db.kysely)) > 0) {
        if (!invitationCode) throw forbidden(NEEDS_INVITATION);
        if (!(await findValidInvitation(db.kysely, invitationCode))) throw forbidden(BAD_INVITATION);
        if (await findOperatorByEmail(db.kysely, email)) throw new HttpError('CONFLICT', EMAIL_TAKEN);
      }
      // The costly hash only for a request that passed the checks.
      const passwordHash = await hashPassword(password);
      // The checks again, where no other sign-up (in any process) runs at the same time: two
      // first sign-ups cannot both see no operator, and the invitation is used by one UPDATE that
      // must change its row before the account exists (rolled back with it on any refusal).
      const operator = await serialised(db, ['signup'], async (trx) => {
        if ((await countOperators(trx)) === 0) {
          const first = await insertOperator(trx, { email, passwordHash, role: 'admin' });
          await recordAudit(trx, actorOf(request, first.id), {
            action: 'sign-up',
            target: first.email,
            details: { role: first.role, first: true },
          });
          return first;
        }
        if (!invitationCode) throw forbidden(NEEDS_INVITATION);
        const invitation = await redeemInvitation(trx, invitationCode);
        if (!invitation) throw forbidden(BAD_INVITATION);
        if (await findOperatorByEmail(trx, email)) throw new HttpError('CONFLICT', EMAIL_TAKEN);
        const created = await insertOperator(trx, { email, passwordHash, role: invitation.role });
        await markInvitationUsedBy(trx, invitation.id, created.id);
        const actor = actorOf(request, created.id);
        await recordAudit(trx, actor, {
          action: 'invitation-used',
          target: `invitation #${invitation.id}`,
          details: { role: invitation.role, email: created.email },
        });
        await recordAudit(trx, actor, {
          action: 'sign-up',
          target: created.email,
          details: { role: created.role, invitationId: invitation.id },
        });
        return created;
      });
      await throttle.succeeded(email, request.ip, attempt);
      const token = await createSession(db.kysely, operator.id, actorOf(request, operator.id));
      request.log.info({ operatorId: operator.id, role: operator.role }, 'signed up');
      reply.code(201);
      return { token, operator: { id: operator.id, email: operator.email, role: operator.role as 'viewer' } };
    },
  );

  r.post('/api/logout', async (request, reply) => {
    const operator = currentOperator(request);
    await db.kysely.transaction().execute(async (trx) => {
      await revokeSession(trx, operator.sessionId);
      await recordAudit(trx, actorOf(request), { action: 'sign-out', target: operator.email });
    });
    reply.code(204).send();
  });

  r.get('/api/me', { schema: { response: { 200: operatorSchema } } }, async (request) => {
    const { id, email, role } = currentOperator(request);
    return { id, email, role };
  });
}

export { LOGIN_FAILED };
