import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/** Strings deeper than this in a JSON body are not walked: no request of the API nests so far. */
const MAX_DEPTH = 32;

/**
 * Refuses a NUL character (U+0000) anywhere in the query string or a JSON body. No field of the
 * product can hold one — PostgreSQL's text type cannot store it and refuses the whole statement
 * (a 500 before this guard, found by the query fuzzer), SQLite would store a value no screen can
 * show — so the request is answered with a 400 naming the field instead of reaching a query.
 * Uploads (multipart) are bytes and are judged by their readers, not here.
 */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const place = nulPath(request.query, 'query parameter', 0) ?? nulPath(request.body, 'field', 0);
    if (place)
      throw badRequest(`The ${place} holds a NUL character (\\u0000), which no field accepts; remove it.`);
  });
}

function nulPath(value: unknown, what: string, depth: number, name = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? `${what} "${name || 'value'}"` : undefined;
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${what} name "${key.replaceAll('\u0000', '\\u0000')}"`;
    const found = nulPath(inner, what, depth + 1, name ? `${name}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}
