import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { COMPRESS_MIN_BYTES } from './compression.ts';
import { VersionedCache } from './versionedCache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers of this signed-in GET are kept (set by `cachedRoutes` on the reference-data routes). */
    cached?: boolean;
  }
  interface FastifyRequest {
    /** Answered from the response cache. */
    cachedAnswer?: boolean;
  }
}

/** Memory the cached answers may take (JavaScript strings: two bytes a character). */
const MAX_BYTES = 32 * 1024 * 1024;

interface Answer {
  type: string;
  body: string;
  /** The body gzipped, made at the first hit that accepts it and kept with the answer. */
  gzip?: Buffer;
}

/** Whether the client takes gzip (and has not refused it with q=0). */
const acceptsGzip = (request: FastifyRequest) =>
  /\bgzip\b(?!\s*;\s*q=0(\.0*)?\s*(,|$))/i.test(request.headers['accept-encoding'] ?? '');

/**
 * Registers the routes `register` adds as routes whose answers are kept (`config.cached`): the
 * reference data (catalogues, fault codes), which changes only by import. Everything else (the
 * operations lists, which grow with every scan, the operator's own data) is answered fresh and
 * waits for no data-version read.
 */
export function cachedRoutes<T>(app: FastifyInstance, register: () => T): T {
  const mark = (route: RouteOptions) => {
    route.config = { ...(route.config ?? {}), cached: true };
  };
  let marking = true;
  app.addHook('onRoute', (route) => {
    if (marking) mark(route);
  });
  try {
    return register();
  } finally {
    marking = false;
  }
}

/**
 * Keeps the JSON answers of the reference-data routes (`cachedRoutes`) until their data changes.
 * A catalogue's or the fault codes' first page is asked for by every operator who opens the
 * screen and by every sidebar click back to it; while nobody imports, the answer is the same
 * text, so it is sent again instead of being re-queried and re-serialised. Entries are keyed by
 * operator and address and by the data version read before the request's queries ran
 * (`request.cacheVersion`, set by the sign-in check, which sees session touches through), so an
 * answer is never older than the data. Must be registered after the sign-in check: a cached
 * answer is still refused without a session.
 */
export function registerResponseCache(app: FastifyInstance) {
  // Room for the gzipped copy too: JSON compresses to well under half its characters.
  const answers = new VersionedCache<Answer>(MAX_BYTES, (a) => 2.5 * a.body.length + 2 * a.type.length + 100);
  /** The cache key of a request whose answer may be kept, else undefined. */
  const keyOf = (request: FastifyRequest): string | undefined => {
    const { operator, cacheVersion } = request;
    if (request.method !== 'GET' || !operator || cacheVersion === undefined) return undefined;
    return request.routeOptions.config.cached ? `${operator.id} ${request.url}` : undefined;
  };

  app.addHook('onRequest', async (request, reply) => {
    const key = keyOf(request);
    const hit = key === undefined ? undefined : answers.get(key, request.cacheVersion as string);
    if (!hit) return;
    request.cachedAnswer = true;
    reply.type(hit.type).header('x-cache', 'hit');
    // Compressed once per answer, not at every hit (lib/compression.ts compresses fresh answers;
    // it leaves an answer that already says its encoding alone).
    if (hit.body.length >= COMPRESS_MIN_BYTES && acceptsGzip(request)) {
      hit.gzip ??= zlib.gzipSync(hit.body);
      return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(hit.gzip);
    }
    return reply.send(hit.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = keyOf(request);
    if (key === undefined || request.cachedAnswer) return payload;
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json'))
      answers.set(key, request.cacheVersion as string, { type, body: payload });
    return payload;
  });
}
