import { OPENAPI_PATH } from '@obd/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestContext } from './helpers.ts';

// The document is made from the routes' own schemas: it does not depend on the dialect.
describe('OpenAPI document', () => {
  let t: TestContext;
  let headers: Record<string, string>;
  let document: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  };
  interface Operation {
    parameters?: { name: string; in: string }[];
    requestBody?: unknown;
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    security?: unknown[];
    tags?: string[];
  }

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    headers = (await signedIn(t.db, 'viewer')).headers;
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH, headers });
    expect(res.statusCode).toBe(200);
    document = res.json();
  });
  afterAll(() => t.close());

  it('is served to signed-in operators only', async () => {
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(401);
  });

  it('is OpenAPI 3.1 with bearer authentication declared', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('describes every registered API route', () => {
    const api = t.app.registeredRoutes.filter((r) => r.url.startsWith('/api') && r.url !== OPENAPI_PATH);
    expect(api.length).toBeGreaterThan(25);
    const missing = api.filter((r) => {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      return !document.paths[path]?.[r.method.toLowerCase()];
    });
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('gives each operation its parameters, the error body and a tag; public ones need no token', () => {
    const scans = document.paths['/api/ScanDetail']?.get;
    expect(scans?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'email', 'make', 'scan_start_time']),
    );
    expect(scans?.responses['200']?.content?.['application/json']?.schema).toBeTruthy();
    expect(scans?.responses['401']?.content?.['application/json']?.schema).toMatchObject({
      properties: { error: { type: 'string' }, code: { type: 'string' } },
    });
    expect(scans?.tags).toEqual(['Operations']);
    expect(document.paths['/api/login']?.post?.requestBody).toBeTruthy();
    expect(document.paths['/api/login']?.post?.security).toEqual([]);
    expect(scans?.security).toBeUndefined();
  });

  it('leaves the web app out', () => {
    expect(Object.keys(document.paths).filter((p) => !p.startsWith('/api'))).toEqual([]);
  });
});
