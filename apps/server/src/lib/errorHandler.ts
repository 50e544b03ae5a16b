import type { ErrorCode } from '@obd/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
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
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

/** The sentence of every unexpected failure: it reveals nothing of the internals. */
export const SERVER_ERROR = 'Something went wrong on the server. Try again; if it persists, tell the team.';

/**
 * What an error is answered with (DESIGN principle 9): known errors keep their sentence,
 * validation errors name the parameter, other 4xx get their status's code, and anything else is
 * logged with its context and becomes a 500 with `SERVER_ERROR`. The one place that decides it:
 * the API's handler below and the upload routes' (which add fields of their own) both ask here.
 */
export function errorAnswer(
  error: FastifyError,
  request: FastifyRequest,
): { status: number; body: { error: string; code: ErrorCode } } {
  if (error instanceof HttpError)
    return { status: error.status, body: { error: error.message, code: error.code } };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0];
    const name = issue?.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'request';
    const where = PLACE[error.validationContext ?? ''] ?? 'value';
    const message = sentence(`Invalid ${where} "${name}": ${issue?.message ?? 'not valid'}`);
    return { status: 400, body: { error: message, code: 'BAD_REQUEST' } };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return {
      status,
      body: { error: sentence(error.message), code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST' },
    };
  }
  request.log.error({ err: error }, 'request failed');
  return { status: 500, body: { error: SERVER_ERROR, code: 'INTERNAL' } };
}

/** One error handler for the whole API: every error body is `{ error, code }`. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = errorAnswer(error, request);
    return reply.code(status).send(body);
  });
}
