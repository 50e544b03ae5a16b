import {
  invitationBodySchema,
  invitationResponseSchema,
  loginBodySchema,
  operatorSchema,
  sessionResponseSchema,
  signupBodySchema,
  signupStatusSchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { forbidden, HttpError, unauthorized } from '../lib/errors.ts';
import { LoginThrottle } from './loginThrottle.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { currentOperator } from './plugin.ts';
import {
  countOperators,
  createInvitation,
  createSession,
  findOperatorByEmail,
  findValidInvitation,
  insertOperator,
  normaliseEmail,
  redeemInvitation,
  revokeSession,
} from './repository.ts';

const LOGIN_FAILED = 'Invalid email or password';

export function authRoutes(app: FastifyInstance, db: Kysely<Database>) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottle(db);

  r.post(
    '/api/login',
    { config: { public: true }, schema: { body: loginBodySchema, response: { 200: sessionResponseSchema } } },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      const wait = await throttle.retryAfter(email, request.ip);
      if (wait > 0) {
        throw new HttpError(
          'RATE_LIMITED',
          `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
        );
      }
      const operator = await findOperatorByEmail(db, email);
      const ok = await verifyPassword(operator?.password_hash ?? (await decoyHash()), request.body.password);
      if (!operator || !ok) {
        await throttle.fail(email, request.ip);
        throw unauthorized(LOGIN_FAILED);
      }
      await throttle.succeed(email);
      const token = await createSession(db, operator.id);
      request.log.info({ operatorId: operator.id }, 'signed in');
      return { token, operator: { id: operator.id, email: operator.email, role: operator.role as 'viewer' } };
    },
  );

  r.get(
    '/api/signup',
    { config: { public: true }, schema: { response: { 200: signupStatusSchema } } },
    async () => ({ invitationRequired: (await countOperators(db)) > 0 }),
  );

  r.post(
    '/api/signup',
    {
      config: { public: true },
      schema: { body: signupBodySchema, response: { 201: sessionResponseSchema } },
    },
    async (request, reply) => {
      const { email, password, invitationCode } = request.body;
      const passwordHash = await hashPassword(password);
      // One transaction: two people signing up at once cannot both become the first admin, and an
      // invitation is used exactly once.
      const operator = await db.transaction().execute(async (trx) => {
        if (await findOperatorByEmail(trx, email)) {
          throw new HttpError('CONFLICT', 'An operator with this email already exists. Sign in instead.');
        }
        const first = (await countOperators(trx)) === 0;
        if (first) return insertOperator(trx, { email, passwordHash, role: 'admin' });
        if (!invitationCode) {
          throw forbidden('Sign-up needs an invitation code. Ask an admin of OBD Admin for one.');
        }
        const invitation = await findValidInvitation(trx, invitationCode);
        if (!invitation) {
          throw forbidden('This invitation code is unknown, used or expired. Ask an admin for a new one.');
        }
        const created = await insertOperator(trx, { email, passwordHash, role: invitation.role as 'viewer' });
        await redeemInvitation(trx, invitationCode, created.id);
        return created;
      });
      const token = await createSession(db, operator.id);
      reply.code(201);
      return { token, operator: { id: operator.id, email: operator.email, role: operator.role as 'viewer' } };
    },
  );

  r.post('/api/logout', async (request, reply) => {
    await revokeSession(db, currentOperator(request).sessionId);
    reply.code(204).send();
  });

  r.get('/api/me', { schema: { response: { 200: operatorSchema } } }, async (request) => {
    const { id, email, role } = currentOperator(request);
    return { id, email, role };
  });

  r.post(
    '/api/invitations',
    {
      config: { role: 'admin' },
      schema: { body: invitationBodySchema, response: { 201: invitationResponseSchema } },
    },
    async (request, reply) => {
      const invitation = await createInvitation(db, request.body.role, currentOperator(request).id);
      reply.code(201);
      return invitation;
    },
  );
}

export { LOGIN_FAILED };
