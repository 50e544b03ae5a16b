import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaultCodes } from './factories.ts';
import { createTestApp, signedIn, type TestContext } from './helpers.ts';

// How answers travel (lib/compression.ts); it does not depend on the dialect.
describe('compressed answers', () => {
  let t: TestContext;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    headers = (await signedIn(t.db)).headers;
    await insertFaultCodes(
      t.db,
      Array.from({ length: 60 }, (_, i) => ({ dtc: `P0${String(300 + i)}`, title: `Misfire number ${i}` })),
    );
  });
  afterAll(() => t.close());

  const list = (encoding?: string, limit = 50) =>
    t.app.inject({
      url: `/api/faultCodesList?limit=${limit}`,
      headers: { ...headers, ...(encoding ? { 'accept-encoding': encoding } : {}) },
    });

  it('compresses a fresh JSON answer over 1 KB: gzip first, brotli for a client that takes only that', async () => {
    const plain = await list(undefined, 40);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = plain.body;
    expect(json.length).toBeGreaterThan(1024);

    const gzip = await list('gzip, deflate, br', 41);
    expect(gzip.headers['x-cache']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString()).data).toHaveLength(41);
    expect(gzip.rawPayload.length).toBeLessThan(json.length / 3);

    const br = await list('br', 42);
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString()).data).toHaveLength(42);
  });

  it('sends a kept answer gzipped from the cache, compressed once', async () => {
    const json = (await list()).body;
    const first = await list('gzip, deflate, br');
    expect(first.headers['x-cache']).toBe('hit');
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(first.rawPayload).toString()).toBe(json);
    const again = await list('gzip');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    // A client that refuses gzip gets the kept text, compressed as it leaves if it takes brotli.
    const brOnly = await list('br, gzip;q=0');
    expect(brOnly.headers['x-cache']).toBe('hit');
    expect(brOnly.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brOnly.rawPayload).toString()).toBe(json);
  });

  it('leaves small answers as they are', async () => {
    const me = await t.app.inject({ url: '/api/me', headers: { ...headers, 'accept-encoding': 'br' } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses a download (its send timeout watches the client read)', async () => {
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list: 'faultCodes', format: 'csv', query: {} },
    });
    const res = await t.app.inject({ url: ticket.json().url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toContain('P0300');
  });

  it('refuses a compressed request body with 415 and a sentence', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ email: 'a@example.com', password: 'x' })),
    });
    expect(res.statusCode).toBe(415);
    expect(typeof res.json().error).toBe('string');
    expect(res.json().code).toBeTruthy();
  });
});
