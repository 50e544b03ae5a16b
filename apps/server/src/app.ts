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
import { registerErrorHandler } from './lib/errorHandler.ts';
import { registerResponseCache } from './lib/responseCache.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { faultCodeRoutes } from './modules/faultCodes/routes.ts';
import { operationsRoutes } from './modules/operations/routes.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, as `METHOD /path`: the auth test walks this list. */
    registeredRoutes: { method: string; url: string; public: boolean }[];
  }
}

export interface AppOptions {
  config: Pick<Config, 'corsOrigins' | 'webRoot' | 'logLevel'> & Partial<Pick<Config, 'responseCache'>>;
  db: Db;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole application without listening: `main.ts` listens, tests `inject()`. */
export async function buildApp({ config, db, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('registeredRoutes', []);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.registeredRoutes.push({ method, url: route.url, public: Boolean(route.config?.public) });
    }
  });

  registerErrorHandler(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
      },
    },
  });
  // Other origins only when listed (decisions §1); the app itself is served from the same origin.
  await app.register(cors, { origin: config.corsOrigins.length > 0 ? config.corsOrigins : false });

  registerAuthentication(app, db);
  if (config.responseCache !== false) registerResponseCache(app);
  app.get('/api/health', { config: { public: true } }, async () => ({ ok: true }));
  authRoutes(app, db.kysely);
  const exports = new ExportRegistry();
  faultCodeRoutes(app, db, exports);
  catalogueRoutes(app, db, exports);
  uploadRoutes(app, db);
  operationsRoutes(app, db, exports);
  exportRoutes(app, db, exports);

  await serveWebApp(app, config.webRoot);
  return app;
}

/** Serves the built web app with a fallback to index.html for client-side routes. */
async function serveWebApp(app: FastifyInstance, webRoot: string) {
  const hasWebApp = fs.existsSync(path.join(webRoot, 'index.html'));
  if (hasWebApp) await app.register(fastifyStatic, { root: webRoot, wildcard: false });
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api');
    if (hasWebApp && isPage) return reply.sendFile('index.html');
    return reply
      .code(404)
      .send({ error: `There is no ${request.method} ${request.url.split('?')[0]} here.`, code: 'NOT_FOUND' });
  });
}
