import {
  INVITATIONS_PATH,
  idParamsSchema,
  invitationBodySchema,
  invitationResponseSchema,
  MY_PASSWORD_PATH,
  MY_SESSIONS_PATH,
  mySessionsSchema,
  OPERATORS_PATH,
  operatorListSchema,
  operatorPatchSchema,
  operatorQuerySchema,
  operatorRowSchema,
  PASSWORD_RESET_PATH,
  passwordChangeBodySchema,
  passwordResetBodySchema,
  passwordResetIssuedSchema,
  pendingInvitationsSchema,
  sessionsEndedSchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginThrottle } from '../../auth/loginThrottle.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { currentOperator } from '../../auth/plugin.ts';
import {
  createInvitation,
  findOperatorByEmail,
  normaliseEmail,
  revokeOperatorSessions,
} from '../../auth/repository.ts';
import { serialised } from '../../auth/serialised.ts';
import type { Db } from '../../db/database.ts';
import type { ExportRegistry } from '../../export/registry.ts';
import { forbidden, HttpError, notFound } from '../../lib/errors.ts';
import { isoNow } from '../../lib/time.ts';
import { actorOf, recordAudit } from '../audit/record.ts';
import { registerOperatorExports } from './exports.ts';
import { toOperatorRow } from './mapper.ts';
import {
  countActiveAdmins,
  endOwnSession,
  findOperatorRecord,
  issuePasswordReset,
  listOperators,
  openSessionsOf,
  pendingInvitations,
  redeemPasswordReset,
  revokeInvitation,
  setOperator,
  setPasswordHash,
} from './repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const BAD_RESET =
  'This reset code does not work for this email: it is unknown, used or expired. Ask an admin for a new one.';
const WRONG_PASSWORD =
  'Your current password is not right. Type it again, or sign out and ask an admin for a reset code.';
const NO_LONGER_ADMIN =
  'Your account is no longer an active admin, so it cannot change operators. Ask an admin.';

const lastAdmin = (email: string, self: boolean) =>
  `${self ? 'You are' : `${email} is`} the last active admin: make another operator an admin first, or nobody could manage operators.`;

/**
 * Operators, invitations, password resets and own sessions (issue 11). The admin routes declare
 * `role: 'admin'` (a viewer or editor gets 403 with a sentence from the auth hook). Every change
 * and its audit event are written in one transaction, the event last.
 */
export function operatorRoutes(app: FastifyInstance, db: Db, exports: ExportRegistry) {
  registerOperatorExports(exports);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottle(db);
  const admin = { role: 'admin' } as const;

  const operatorOr404 = async (id: number) => {
    const row = await findOperatorRecord(db.kysely, id);
    if (!row) throw notFound(`There is no operator with id ${id}.`);
    return row;
  };

  r.get(
    OPERATORS_PATH,
    { config: admin, schema: { querystring: operatorQuerySchema, response: { 200: operatorListSchema } } },
    async (request) => {
      const { rows, total } = await listOperators(db.kysely, db.dialect, request.query);
      return { operators: rows.map(toOperatorRow), total };
    },
  );

  r.patch(
    `${OPERATORS_PATH}/:id`,
    {
      config: admin,
      schema: { params: idParamsSchema, body: operatorPatchSchema, response: { 200: operatorRowSchema } },
    },
    async (request) => {
      const actor = currentOperator(request);
      const { id } = request.params;
      const { role, disabled } = request.body;
      // One change of operators at a time, in any process: two admins demoting each other at
      // once cannot both see the other still an admin.
      await serialised(db, ['operators'], async (trx) => {
        const me = await findOperatorRecord(trx, actor.id);
        if (me?.role !== 'admin' || me.disabled_at) throw forbidden(NO_LONGER_ADMIN);
        const target = await findOperatorRecord(trx, id);
        if (!target) throw notFound(`There is no operator with id ${id}.`);
        const wasActiveAdmin = target.role === 'admin' && !target.disabled_at;
        const willBeActiveAdmin =
          (role ?? target.role) === 'admin' && !(disabled ?? Boolean(target.disabled_at));
        if (wasActiveAdmin && !willBeActiveAdmin && (await countActiveAdmins(trx, id)) === 0) {
          throw new HttpError('CONFLICT', lastAdmin(target.email, id === actor.id));
        }
        const who = actorOf(request);
        const events: Parameters<typeof recordAudit>[2][] = [];
        if (role !== undefined && role !== target.role) {
          await setOperator(trx, id, { role });
          events.push({
            action: 'role-changed',
            target: target.email,
            details: { from: target.role, to: role },
          });
        }
        if (disabled === true && !target.disabled_at) {
          await setOperator(trx, id, { disabledAt: isoNow() });
          const ended = await revokeOperatorSessions(trx, id);
          events.push({
            action: 'operator-disabled',
            target: target.email,
            details: { sessionsEnded: ended },
          });
        } else if (disabled === false && target.disabled_at) {
          await setOperator(trx, id, { disabledAt: null });
          events.push({ action: 'operator-enabled', target: target.email, details: {} });
        }
        for (const event of events) await recordAudit(trx, who, event);
      });
      return toOperatorRow(await operatorOr404(id));
    },
  );

  r.delete(
    `${OPERATORS_PATH}/:id/sessions`,
    { config: admin, schema: { params: idParamsSchema, response: { 200: sessionsEndedSchema } } },
    async (request) => {
      const target = await operatorOr404(request.params.id);
      const ended = await db.kysely.transaction().execute(async (trx) => {
        const n = await revokeOperatorSessions(trx, target.id);
        await recordAudit(trx, actorOf(request), {
          action: 'sessions-ended',
          target: target.email,
          details: { ended: n },
        });
        return n;
      });
      return { ended };
    },
  );

  r.post(
    `${OPERATORS_PATH}/:id/password-reset`,
    { config: admin, schema: { params: idParamsSchema, response: { 201: passwordResetIssuedSchema } } },
    async (request, reply) => {
      const target = await operatorOr404(request.params.id);
      const issued = await db.kysely.transaction().execute(async (trx) => {
        const made = await issuePasswordReset(trx, target.id, currentOperator(request).id);
        await recordAudit(trx, actorOf(request), {
          action: 'password-reset-issued',
          target: target.email,
          details: { expiresAt: made.expiresAt },
        });
        return made;
      });
      reply.code(201);
      return issued;
    },
  );

  // ------------------------------------------------------------ invitations

  r.get(
    INVITATIONS_PATH,
    { config: admin, schema: { response: { 200: pendingInvitationsSchema } } },
    async () => ({
      invitations: (await pendingInvitations(db.kysely)).map((i) => ({ ...i, role: i.role as 'viewer' })),
    }),
  );

  r.post(
    INVITATIONS_PATH,
    { config: admin, schema: { body: invitationBodySchema, response: { 201: invitationResponseSchema } } },
    async (request, reply) => {
      const { role, expiresInDays } = request.body;
      const invitation = await db.kysely.transaction().execute(async (trx) => {
        const made = await createInvitation(trx, role, currentOperator(request).id, expiresInDays * DAY_MS);
        await recordAudit(trx, actorOf(request), {
          action: 'invitation-created',
          target: `invitation #${made.id}`,
          details: { role, expiresAt: made.expiresAt },
        });
        return made;
      });
      reply.code(201);
      return invitation;
    },
  );

  r.delete(
    `${INVITATIONS_PATH}/:id`,
    { config: admin, schema: { params: idParamsSchema } },
    async (request, reply) => {
      const { id } = request.params;
      await db.kysely.transaction().execute(async (trx) => {
        const revoked = await revokeInvitation(trx, id);
        if (!revoked)
          throw notFound(
            `There is no pending invitation with id ${id}: it was used, revoked or has expired.`,
          );
        await recordAudit(trx, actorOf(request), {
          action: 'invitation-revoked',
          target: `invitation #${id}`,
          details: { role: revoked.role },
        });
      });
      reply.code(204).send();
    },
  );

  // ------------------------------------------------------------ password reset (public)

  r.post(
    PASSWORD_RESET_PATH,
    { config: { public: true }, schema: { body: passwordResetBodySchema } },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      // Throttled like sign-in: a reset code is a secret too.
      const attempt = await throttle.admit(email, request.ip, reply);
      // Hashed whether or not the e-mail and code are right: the answer's timing says nothing.
      const passwordHash = await hashPassword(request.body.password);
      await db.kysely.transaction().execute(async (trx) => {
        const operator = await findOperatorByEmail(trx, email);
        if (!operator) throw forbidden(BAD_RESET);
        if (!(await redeemPasswordReset(trx, operator.id, request.body.code))) throw forbidden(BAD_RESET);
        await setPasswordHash(trx, operator.id, passwordHash);
        const ended = await revokeOperatorSessions(trx, operator.id);
        await recordAudit(trx, actorOf(request, operator.id), {
          action: 'password-reset',
          target: operator.email,
          details: { sessionsEnded: ended },
        });
      });
      await throttle.succeeded(email, request.ip, attempt);
      reply.code(204).send();
    },
  );

  // ------------------------------------------------------------ my account

  r.get(MY_SESSIONS_PATH, { schema: { response: { 200: mySessionsSchema } } }, async (request) => {
    const me = currentOperator(request);
    const sessions = await openSessionsOf(db.kysely, me.id);
    return { sessions: sessions.map((s) => ({ ...s, current: s.id === me.sessionId })) };
  });

  r.delete(
    `${MY_SESSIONS_PATH}/:id`,
    { schema: { params: idParamsSchema, response: { 200: sessionsEndedSchema } } },
    async (request) => {
      const me = currentOperator(request);
      const { id } = request.params;
      await db.kysely.transaction().execute(async (trx) => {
        if (!(await endOwnSession(trx, me.id, id))) throw notFound(`You have no open session with id ${id}.`);
        await recordAudit(trx, actorOf(request), {
          action: 'sessions-ended',
          target: me.email,
          details: { ended: 1, sessionIds: [id], own: true },
        });
      });
      return { ended: 1 };
    },
  );

  r.post(MY_PASSWORD_PATH, { schema: { body: passwordChangeBodySchema } }, async (request, reply) => {
    const me = currentOperator(request);
    const attempt = await throttle.admit(me.email, request.ip, reply);
    const operator = await findOperatorByEmail(db.kysely, me.email);
    if (!operator || !(await verifyPassword(operator.password_hash, request.body.currentPassword))) {
      throw forbidden(WRONG_PASSWORD);
    }
    const passwordHash = await hashPassword(request.body.password);
    await db.kysely.transaction().execute(async (trx) => {
      await setPasswordHash(trx, me.id, passwordHash);
      const ended = await revokeOperatorSessions(trx, me.id, me.sessionId);
      await recordAudit(trx, actorOf(request), {
        action: 'password-changed',
        target: me.email,
        details: { otherSessionsEnded: ended },
      });
    });
    await throttle.succeeded(me.email, request.ip, attempt);
    reply.code(204).send();
  });
}
