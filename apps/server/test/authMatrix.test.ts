import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { newToken } from '../src/auth/tokens.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

/**
 * Every private route, asked for without a valid session under every spelling of its path that a
 * router, proxy or browser might read as the same route: 401 or 404 with an error sentence, never
 * data and never the web app's page. The routes are read from the app, so a route added later is
 * covered without editing this test.
 */

/** Spellings of an `/api/...` path that name the same route, or none, but must never leak. */
function spellings(url: string): string[] {
  const rest = url.slice('/api/'.length);
  const firstLetter = rest.charCodeAt(0).toString(16);
  return [
    url,
    `/%61pi/${rest}`, // percent-encoded letters
    `/%61%70%69/${rest}`,
    `/api/%${firstLetter}${rest.slice(1)}`,
    `/${url}`, // double slash
    `/api//${rest}`,
    url.toUpperCase(), // upper case
    `/Api/${rest}`,
    `${url}/`, // trailing slash
    `/api/./${rest}`, // dot segments
    `/x/..${url}`,
    `/api/%2e/${rest}`,
    `/%2e%2e${url}`,
    `${url}%00`, // NUL
    `/api%00/${rest}`,
    `/api%2f${rest}`,
    `${url}?x=1#y`,
  ];
}

/** Sends one request line over a plain TCP connection (for the absolute form, which inject() rewrites). */
function rawRequest(port: number, line: string, headers: Record<string, string>) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const head = Object.entries({ host: 'obd-admin.test', connection: 'close', ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`${line}\r\n${head}\r\n`);
    });
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const type = /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1] ?? '';
      resolve({ status, type, body });
    });
  });
}

describe.each(DIALECTS)('access by matched route on %s', (dialect) => {
  let t: TestContext;
  let app: FastifyInstance;
  let port: number;
  let webRoot: string;
  /** The credentials that must not open a private route: none, unknown, expired, revoked. */
  const credentials: [string, Record<string, string>][] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // A built web app, so that the page fallback is in play: a misspelt API path must not get it.
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>OBD Admin</title>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log(1)');
    app = await buildApp({
      config: { corsOrigins: [], webRoot, logLevel: 'silent' },
      db: t.db,
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;

    const expired = await signedIn(t.db, 'admin');
    await t.db.kysely
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('operator_id', '=', expired.operator.id)
      .execute();
    const revoked = await signedIn(t.db, 'admin');
    await t.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('operator_id', '=', revoked.operator.id)
      .execute();
    credentials.push(
      ['no token', {}],
      ['an unknown token', { authorization: `Bearer ${newToken()}` }],
      ['an expired session', expired.headers],
      ['a revoked session', revoked.headers],
    );
  });
  afterAll(async () => {
    await app.close();
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  const privateRoutes = () => {
    const routes = app.registeredRoutes.filter((r) => !r.public);
    expect(routes.length).toBeGreaterThanOrEqual(20);
    return routes.map((r) => ({
      method: r.method,
      url: r.url.replace(/:\w+/g, '1').replace(/\*$/, 'x'),
      route: `${r.method} ${r.url}`,
    }));
  };

  const refused = (what: string, res: { status: number; type: string; body: string }) => {
    expect([401, 404], `${what}: ${res.status} ${res.body.slice(0, 200)}`).toContain(res.status);
    if (res.body === '') return; // HEAD
    expect(res.type, what).toMatch(/^application\/json/);
    const body = JSON.parse(res.body);
    // The error shape (upload routes add `message` and `success: false`), nothing that holds rows.
    expect(
      Object.keys(body).filter((k) => !['code', 'error', 'message', 'success'].includes(k)),
      what,
    ).toEqual([]);
    expect(body.success ?? false, what).toBe(false);
    expect(['UNAUTHORIZED', 'NOT_FOUND'], what).toContain(body.code);
    expect(body.error, what).toMatch(/\.$/);
  };

  it('declares public only sign-in, sign-up, password reset by code, health, download links and the web app', () => {
    const publicRoutes = app.registeredRoutes.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    expect(publicRoutes.sort()).toEqual([
      'GET /',
      'GET /api/downloads/:ticket',
      'GET /api/health',
      'GET /api/imports/:id/problems',
      'GET /api/signup',
      'GET /assets/app.js',
      'GET /index.html',
      'OPTIONS *',
      'POST /api/login',
      'POST /api/password-reset',
      'POST /api/signup',
    ]);
  });

  it('answers every private route 401 or 404 under every spelling, without a valid session', async () => {
    const routes = privateRoutes();
    let asked = 0;
    for (const { method, url, route } of routes) {
      for (const [who, headers] of credentials) {
        const methods = method === 'GET' ? ['GET', 'HEAD'] : [method];
        await Promise.all(
          methods.flatMap((m) =>
            spellings(url).map(async (spelling) => {
              const res = await app.inject({ method: m as 'GET', url: spelling, headers });
              asked += 1;
              refused(`${m} ${spelling} (${route}) with ${who}`, {
                status: res.statusCode,
                type: String(res.headers['content-type'] ?? ''),
                body: res.body,
              });
            }),
          ),
        );
      }
    }
    expect(asked).toBeGreaterThan(routes.length * 4 * 17);
  });

  it('answers a request line in absolute form like any other spelling', async () => {
    for (const { method, url, route } of privateRoutes()) {
      await Promise.all(
        credentials.flatMap(([who, headers]) =>
          [
            `http://obd-admin.test${url}`,
            `http://obd-admin.test/%61pi${url.slice(4)}`,
            `HTTP://x:1${url}`,
          ].map(async (target) => {
            const res = await rawRequest(port, `${method} ${target} HTTP/1.1`, {
              ...headers,
              ...(method === 'GET' ? {} : { 'content-length': '0' }),
            });
            refused(`${method} ${target} (${route}) with ${who}`, res);
          }),
        ),
      );
    }
  });

  it('serves the web app and its pages to anyone, and a misspelt API path never as a page', async () => {
    const page = await app.inject({ url: '/users?page=2' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>OBD Admin</title>');
    expect((await app.inject({ url: '/assets/app.js' })).statusCode).toBe(200);
    for (const url of ['/api/nothing-here', '/%61pi/nothing', '/API/USERS', '//api/x']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe('NOT_FOUND');
    }
  });

  it('still lets a valid session through the same routes', async () => {
    const { headers } = await signedIn(t.db, 'admin');
    const me = await app.inject({ url: '/%61pi/me', headers });
    expect(me.statusCode).toBe(200);
    expect(me.json().role).toBe('admin');
  });
});
