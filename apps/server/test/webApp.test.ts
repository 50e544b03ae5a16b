import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Db, migrate, openDatabase } from '../src/db/database.ts';

/**
 * How the built web app is served: hashed assets precompressed (the build writes .br and .gz) and
 * kept by browsers for a year; index.html — directly or as the page fallback — checked every visit.
 */
describe('the web app’s files', () => {
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  let webRoot: string;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-web-files-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>OBD Admin</title>');
    const asset = path.join(webRoot, 'assets', 'index-AbC123.js');
    fs.writeFileSync(asset, script);
    fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
    fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
    db = openDatabase({ dialect: 'sqlite', file: ':memory:' });
    await migrate(db);
    app = await buildApp({ config: { corsOrigins: [], webRoot, logLevel: 'silent' }, db, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends a hashed asset precompressed, as the browser accepts, and lets it be kept for a year', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);

    const gzip = await get('/assets/index-AbC123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('has the browser check index.html on every visit, as a file and as the page fallback', async () => {
    for (const url of ['/index.html', '/', '/UsersTable', '/ObdScanReport?make=Honda']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      const body =
        res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : res.rawPayload;
      expect(body.toString(), url).toContain('<title>OBD Admin</title>');
    }
  });
});
