import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/db/database.ts';

/**
 * HTTPS-only headers only when the server knows the browser came over HTTPS: over plain HTTP
 * (the app opened by host name or LAN address) `upgrade-insecure-requests` makes the browser
 * fetch the app's own scripts over https — a blank page — and HSTS has no business there.
 */
describe('security headers over HTTP and HTTPS', () => {
  const db = openDatabase({ dialect: 'sqlite', file: ':memory:' });
  const apps: FastifyInstance[] = [];
  const appWith = async (extra: { trustProxy?: string[]; publicUrl?: string }) => {
    const app = await buildApp({
      config: {
        corsOrigins: [],
        webRoot: path.join(os.tmpdir(), 'no-web-app'),
        logLevel: 'silent',
        ...extra,
      },
      db,
      logger: false,
    });
    apps.push(app);
    return app;
  };
  let plain: FastifyInstance;
  let proxied: FastifyInstance;
  let published: FastifyInstance;
  beforeAll(async () => {
    await migrate(db);
    plain = await appWith({});
    proxied = await appWith({ trustProxy: ['10.0.0.1'] });
    published = await appWith({ publicUrl: 'https://obd-admin.example.com' });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db.close();
  });

  const headersOf = async (app: FastifyInstance, remoteAddress: string, proto?: string) => {
    const res = await app.inject({
      url: '/api/health',
      remoteAddress,
      headers: proto ? { 'x-forwarded-proto': proto } : {},
    });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    const upgrades = csp.includes('upgrade-insecure-requests');
    const hsts = res.headers['strict-transport-security'];
    // Ignored by a browser on an origin reached over plain HTTP, with an error in its console.
    expect(res.headers['cross-origin-opener-policy']).toBe(hsts ? 'same-origin' : undefined);
    return { upgrades, hsts };
  };

  it('sends neither over plain HTTP', async () => {
    expect(await headersOf(plain, '192.168.1.20')).toEqual({ upgrades: false, hsts: undefined });
  });

  it('believes X-Forwarded-Proto only from a proxy named by TRUST_PROXY', async () => {
    expect(await headersOf(plain, '10.0.0.1', 'https')).toEqual({ upgrades: false, hsts: undefined });
    expect(await headersOf(proxied, '10.0.0.2', 'https')).toEqual({ upgrades: false, hsts: undefined });
    expect(await headersOf(proxied, '10.0.0.1', 'http')).toEqual({ upgrades: false, hsts: undefined });
    expect(await headersOf(proxied, '10.0.0.1', 'https')).toEqual({
      upgrades: true,
      hsts: 'max-age=31536000; includeSubDomains',
    });
  });

  it('sends both on every answer when PUBLIC_URL is https', async () => {
    expect(await headersOf(published, '192.168.1.20')).toEqual({
      upgrades: true,
      hsts: 'max-age=31536000; includeSubDomains',
    });
  });

  it('reads TRUST_PROXY and PUBLIC_URL, refusing what it cannot use with a sentence', () => {
    const config = loadConfig({
      TRUST_PROXY: ' 10.0.0.1, fd00::/8 ,loopback',
      PUBLIC_URL: 'https://a.example/x',
    });
    expect(config.trustProxy).toEqual(['10.0.0.1', 'fd00::/8', 'loopback']);
    expect(config.publicUrl).toBe('https://a.example');
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(
      /TRUST_PROXY must list proxy addresses/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ PUBLIC_URL: 'obd-admin.example.com' })).toThrow(
      /PUBLIC_URL must be an address/,
    );
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/PUBLIC_URL must start with https/);
  });
});
