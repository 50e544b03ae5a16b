import type { ErrorCode } from '@obd/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './errors.ts';

const PLACE: Record<string, string> = {
  querystring: 'query parameter',
  body: 'field',
  params: 'path parameter',
  headers: 'header',
};

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

/**
 * One error handler for the whole API (DESIGN principle 9): known errors keep their sentence,
 * validation errors name the parameter, anything else is logged with its context and answered
 * with a 500 that reveals nothing of the internals.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.status).send({ error: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const name = issue?.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'request';
      const where = PLACE[error.validationContext ?? ''] ?? 'value';
      const message = sentence(`Invalid ${where} "${name}": ${issue?.message ?? 'not valid'}`);
      return reply.code(400).send({ error: message, code: 'BAD_REQUEST' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = CODE_BY_STATUS[status] ?? 'BAD_REQUEST';
      return reply.code(status).send({ error: sentence(error.message), code });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({
      error: 'Something went wrong on the server. Try again; if it persists, tell the team.',
      code: 'INTERNAL',
    });
  });
}
