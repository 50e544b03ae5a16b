import fs from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { registerAuthentication } from './auth/plugin.ts';
import { authRoutes } from './auth/routes.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { ExportRegistry } from './export/registry.ts';
import { exportRoutes } from './export/routes.ts';
import { registerCompression } from './lib/compression.ts';
import { registerErrorHandler } from './lib/errorHandler.ts';
import { registerHousekeeping } from './lib/housekeeping.ts';
import { registerNulGuard } from './lib/nulGuard.ts';
import { registerOpenApi } from './lib/openapi.ts';
import { cachedRoutes, registerResponseCache } from './lib/responseCache.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { faultCodeRoutes } from './modules/faultCodes/routes.ts';
import { operationsRoutes } from './modules/operations/routes.ts';
import { operatorRoutes } from './modules/operators/routes.ts';
import { overviewRoutes } from './modules/overview/routes.ts';
import { preferencesRoutes } from './modules/preferences/routes.ts';
import { searchRoutes } from './modules/search/routes.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { undoRoutes } from './modules/uploads/undo.ts';
import { savedViewRoutes } from './modules/views/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, as `METHOD /path`: the auth and query-fuzzing tests walk this list. */
    registeredRoutes: { method: string; url: string; public: boolean; querystring?: unknown }[];
  }
}

export interface AppOptions {
  config: Pick<Config, 'corsOrigins' | 'webRoot' | 'logLevel'> &
    Partial<Pick<Config, 'responseCache' | 'trustProxy' | 'publicUrl' | 'auditRetentionDays'>>;
  db: Db;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole application without listening: `main.ts` listens, tests `inject()`. */
export async function buildApp({ config, db, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For / -Proto are believed only from the proxies named by TRUST_PROXY.
    trustProxy: config.trustProxy?.length ? config.trustProxy : false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('registeredRoutes', []);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.registeredRoutes.push({
        method,
        url: route.url,
        // Read when asked: a plugin's own onRoute hook (the web app's files) runs after this one.
        get public() {
          return Boolean(route.config?.public);
        },
        querystring: route.schema?.querystring,
      });
    }
  });

  registerErrorHandler(app);
  registerNulGuard(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        // Added per request below, only over HTTPS.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: false,
  });
  registerHttpsOnlyHeaders(app, config.publicUrl);
  // Other origins only when listed (decisions §1); the app itself is served from the same origin.
  // The preflight route it adds is public: a browser sends it without credentials, and it
  // answers headers only.
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') route.config = { ...route.config, public: true };
  });
  await app.register(cors, { origin: config.corsOrigins.length > 0 ? config.corsOrigins : false });

  registerAuthentication(app, db);
  // Before every route: the document learns the routes as they are registered.
  await registerOpenApi(app);
  if (config.responseCache !== false) registerResponseCache(app);
  await registerCompression(app);
  app.get('/api/health', { config: { public: true } }, async () => ({ ok: true }));
  authRoutes(app, db);
  const exports = new ExportRegistry();
  operatorRoutes(app, db, exports);
  auditRoutes(app, db, exports);
  // Reference data, which changes only by import: its answers are kept (lib/responseCache.ts).
  cachedRoutes(app, () => {
    faultCodeRoutes(app, db, exports);
    catalogueRoutes(app, db, exports);
  });
  uploadRoutes(app, db);
  undoRoutes(app, db);
  // Stale upload folders and abandoned imports at start; expired rows hourly (timers stop on close).
  registerHousekeeping(app, db, { auditRetentionDays: config.auditRetentionDays });
  operationsRoutes(app, db, exports);
  overviewRoutes(app, db);
  searchRoutes(app, db);
  exportRoutes(app, db, exports);
  preferencesRoutes(app, db);
  savedViewRoutes(app, db);

  await serveWebApp(app, config.webRoot);
  return app;
}

/**
 * HSTS and the CSP's `upgrade-insecure-requests` only when the server knows the browser came over
 * HTTPS: `PUBLIC_URL` says so for every request, or a proxy named by TRUST_PROXY says so in
 * `X-Forwarded-Proto` (Fastify believes it from those only). Over plain HTTP — the app opened by
 * host name or LAN address — they would make the browser fetch the app's own scripts over https,
 * which fails, and leave a blank page. Cross-Origin-Opener-Policy too: a browser ignores it on
 * such an origin and logs an error on every page.
 */
function registerHttpsOnlyHeaders(app: FastifyInstance, publicUrl: string | undefined) {
  const alwaysHttps = publicUrl?.startsWith('https:') ?? false;
  app.addHook('onRequest', async (request, reply) => {
    if (!alwaysHttps && request.protocol !== 'https') return;
    reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    reply.header('cross-origin-opener-policy', 'same-origin');
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
  });
}

/**
 * Serves the built web app with a fallback to index.html for client-side routes. The app's files
 * and the fallback are public (they hold no data); everything else is private by default.
 */
async function serveWebApp(app: FastifyInstance, webRoot: string) {
  const indexFile = path.join(webRoot, 'index.html');
  const indexHtml = fs.existsSync(indexFile) ? fs.readFileSync(indexFile) : undefined;
  if (indexHtml) {
    await app.register(async (web) => {
      // One route per file of the build (`wildcard: false`), each declared public.
      web.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      await web.register(fastifyStatic, {
        root: webRoot,
        wildcard: false,
        // The build writes .br and .gz copies beside its text files (apps/web/scripts/precompress.mjs).
        preCompressed: true,
        cacheControl: false,
        setHeaders: (reply, file) => reply.header('cache-control', cacheControlOf(webRoot, file)),
      });
    });
  }
  // No route matched. A page of the web app gets index.html, which holds no data; a path that is
  // under /api however it is spelled gets a 404, so a misspelt API call never looks like success.
  app.setNotFoundHandler((request, reply) => {
    const target = requestPath(request.raw.url ?? '');
    const isPage = request.method === 'GET' && target !== undefined && !/^\/api(\/|$)/.test(target);
    if (indexHtml && isPage) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    return reply.code(404).send({
      error: `There is no ${request.method} ${(request.raw.url ?? '').split('?')[0]} here. Check the address.`,
      code: 'NOT_FOUND',
    });
  });
}

/**
 * Files under `assets/` carry a hash of their content in their name (Vite): a browser may keep them
 * for a year without asking again. Anything else (index.html) is checked on every visit, so a new
 * build reaches every browser at its next load.
 */
function cacheControlOf(webRoot: string, file: string): string {
  const hashed = path.relative(webRoot, file).split(path.sep)[0] === 'assets';
  return hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The path a request line names, as a router or proxy might read it: without scheme and host
 * (absolute form), query or fragment; percent-decoded; backslashes as slashes; repeated slashes
 * and dot segments resolved; lower case. Undefined when it cannot be decoded or holds a NUL.
 */
export function requestPath(target: string): string | undefined {
  let p = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/s, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    return undefined;
  }
  if (p.includes('\0')) return undefined;
  return path.posix.normalize(`/${p.replaceAll('\\', '/')}`).toLowerCase();
}
