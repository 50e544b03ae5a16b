import fastifySwagger from '@fastify/swagger';
import {
  ACTUATIONS_PATH,
  DOWNLOADS_PATH,
  EXPORTS_PATH,
  errorBodySchema,
  FAULT_CODE_PATHS,
  IMPORTS_PATH,
  OPENAPI_PATH,
  SCANS_PATH,
  SPECIAL_FUNCTIONS_PATH,
  UPLOAD_PATHS,
  USERS_PATH,
} from '@obd/contract';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Statuses every API route may answer with the error body, besides its own success answers. */
const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '429', '500'] as const;

const errorJsonSchema = z.toJSONSchema(errorBodySchema, { target: 'draft-2020-12' });

/**
 * The OpenAPI 3.1 document of the API, made from the zod schemas already on every route (the
 * same ones that validate requests and serialise answers), so it cannot drift from what the
 * server does. Must be registered before the routes: it learns them through `onRoute`.
 *
 * Each route gets the error body for the error statuses, its tag (the screen area, `TAGS`) and, when public, an empty security requirement; the web
 * app's files are left out. Served to signed-in operators at `GET /api/openapi.json`.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OBD Admin API',
        version: '1',
        description:
          'The API behind the OBD Admin dashboard. Sign in with POST /api/login and send the token it answers in the header "Authorization: Bearer <token>". ' +
          'Every error answers { error, code }: error is a sentence to show a person, code one of a closed set.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: (input) => {
      if (!input.url.startsWith('/api')) return { schema: { hide: true } as FastifySchema, url: input.url };
      // A route without any schema comes back without one.
      const transformed = jsonSchemaTransform({ ...input, schema: input.schema ?? {} });
      const schema: FastifySchema = transformed.schema ?? {};
      const url = transformed.url;
      const responses = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
      for (const status of ERROR_STATUSES) {
        responses[status] ??= {
          description: 'An error: a sentence for a person and a machine-readable code.',
          content: { 'application/json': { schema: errorJsonSchema } },
        };
      }
      const documented: Record<string, unknown> = { ...schema, response: responses, tags: [tagOf(url)] };
      if (input.route.config?.public) documented.security = [];
      return { schema: documented as FastifySchema, url };
    },
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } as FastifySchema }, async () => app.swagger());
}

/** The screen area of each path (or path prefix), as the document's tags; the rest is the catalogue. */
const TAGS: [string, readonly string[]][] = [
  ['Operations', [USERS_PATH, SCANS_PATH, SPECIAL_FUNCTIONS_PATH, ACTUATIONS_PATH]],
  ['Fault codes', Object.values(FAULT_CODE_PATHS)],
  ['Uploads', [...Object.values(UPLOAD_PATHS), IMPORTS_PATH]],
  ['Exports', [EXPORTS_PATH, DOWNLOADS_PATH]],
  [
    'Sign-in and operators',
    [
      '/api/login',
      '/api/logout',
      '/api/signup',
      '/api/me',
      '/api/invitations',
      '/api/operators',
      '/api/password-reset',
    ],
  ],
  ['Audit', ['/api/audit']],
  ['Service', ['/api/health', OPENAPI_PATH]],
];

function tagOf(url: string): string {
  const owns = (path: string) => url === path || url.startsWith(`${path}/`);
  return TAGS.find(([, paths]) => paths.some(owns))?.[0] ?? 'Catalogue';
}
