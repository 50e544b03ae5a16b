import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { throttledAddress } from '../src/auth/loginThrottle.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { insertOperator } from '../src/auth/repository.ts';
import { createTestApp, DIALECTS, secondServer, type TestContext } from './helpers.ts';

const PASSWORD = 'the right password';

describe.each(DIALECTS)('sign-in throttle on %s', (dialect) => {
  let t: TestContext;
  let accounts = 0;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A new operator of its own, so that no test's failures count in another's. */
  const newAccount = async () => {
    accounts += 1;
    const email = `throttled${accounts}@example.com`;
    await insertOperator(t.db.kysely, { email, passwordHash: await hashPassword(PASSWORD), role: 'viewer' });
    return email;
  };
  const login = (app: FastifyInstance, email: string, password: string, ip: string, headers = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password },
      remoteAddress: ip,
      headers,
    });
  const statuses = (responses: { statusCode: number }[]) => {
    const counts: Record<number, number> = {};
    for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
    return counts;
  };

  it('checks at most five of thirty simultaneous wrong passwords from one address', async () => {
    const email = await newAccount();
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(t.app, email, `wrong ${i}`, '10.20.0.1')),
    );
    // 401 = the password was checked; 429 = refused before any check.
    expect(statuses(burst)).toEqual({ 401: 5, 429: 25 });
    const refused = burst.find((r) => r.statusCode === 429);
    expect(refused?.json()).toEqual({
      error: expect.stringMatching(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/),
      code: 'RATE_LIMITED',
    });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(800);
  });

  it('holds the limit for a burst split over two server processes', async () => {
    const email = await newAccount();
    const other = await secondServer(t);
    try {
      const burst = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(i % 2 ? other : t.app, email, `wrong ${i}`, '10.21.0.1')),
      );
      expect(statuses(burst)).toEqual({ 401: 5, 429: 25 });
      // Both processes refuse the address now, even the right password from it.
      expect((await login(other, email, PASSWORD, '10.21.0.1')).statusCode).toBe(429);
      expect((await login(t.app, email, PASSWORD, '10.21.0.1')).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('answers a burst crossing accounts and addresses over two processes without an error', async () => {
    const emails = [await newAccount(), await newAccount(), await newAccount()];
    const other = await secondServer(t);
    try {
      const burst = await Promise.all(
        Array.from({ length: 72 }, (_, i) =>
          login(
            i % 2 ? other : t.app,
            emails[i % 3] as string,
            i % 7 ? 'wrong' : PASSWORD,
            `10.26.0.${i % 4}`,
          ),
        ),
      );
      const counts = statuses(burst);
      expect(Object.keys(counts).filter((status) => !['200', '401', '429'].includes(status))).toEqual([]);
      // Per account and address, at most five wrong passwords were checked.
      expect(counts[401]).toBeLessThanOrEqual(3 * 4 * 5);
    } finally {
      await other.close();
    }
  });

  it('lets the right password from another address in during an attack', async () => {
    const email = await newAccount();
    await Promise.all(Array.from({ length: 30 }, (_, i) => login(t.app, email, `wrong ${i}`, '10.22.0.66')));
    const owner = await login(t.app, email, PASSWORD, '10.22.0.7');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().operator.email).toBe(email);
    // The attacker's address stays refused for this account.
    expect((await login(t.app, email, 'another guess', '10.22.0.66')).statusCode).toBe(429);
  });

  it('slows an account down, without locking it, when many addresses fail on it', async () => {
    const email = await newAccount();
    for (let i = 0; i < 10; i += 1)
      expect((await login(t.app, email, 'wrong', `10.23.0.${i}`)).statusCode).toBe(401);
    // One check every two seconds on this account, whoever asks…
    const slowed = await login(t.app, email, PASSWORD, '10.23.1.1');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().error).toMatch(/Try again in [12] seconds?\./);
    // …so the right password gets in once it has waited.
    await new Promise((resolve) => setTimeout(resolve, Number(slowed.headers['retry-after']) * 1000));
    expect((await login(t.app, email, PASSWORD, '10.23.1.1')).statusCode).toBe(200);
  });

  it('refuses an address that fails on many accounts', async () => {
    const failures = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(t.app, `nobody${i}@example.com`, 'guess', '10.24.0.1')),
    );
    expect(statuses(failures)).toEqual({ 401: 20 });
    const email = await newAccount();
    expect((await login(t.app, email, PASSWORD, '10.24.0.1')).statusCode).toBe(429);
    expect((await login(t.app, email, PASSWORD, '10.24.0.2')).statusCode).toBe(200);
  });

  it('forgives an address its failures once it signs in', async () => {
    const email = await newAccount();
    for (let i = 0; i < 4; i += 1) await login(t.app, email, 'typo', '10.25.0.1');
    expect((await login(t.app, email, PASSWORD, '10.25.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1)
      expect((await login(t.app, email, 'typo', '10.25.0.1')).statusCode).toBe(401);
  });

  describe('behind a reverse proxy', () => {
    let proxied: FastifyInstance;
    beforeAll(async () => {
      proxied = await buildApp({
        config: {
          corsOrigins: [],
          webRoot: path.join(os.tmpdir(), 'no-web-app'),
          logLevel: 'silent',
          trustProxy: ['10.30.0.1', '10.31.0.0/16'],
        },
        db: t.db,
        logger: false,
      });
      await proxied.ready();
    });
    afterAll(() => proxied.close());

    it('counts the client address X-Forwarded-For names when a trusted proxy sends it', async () => {
      const email = await newAccount();
      const viaProxy = (password: string, client: string, proxy = '10.30.0.1') =>
        login(proxied, email, password, proxy, { 'x-forwarded-for': client });
      for (let i = 0; i < 5; i += 1) expect((await viaProxy('wrong', '203.0.113.9')).statusCode).toBe(401);
      expect((await viaProxy(PASSWORD, '203.0.113.9')).statusCode).toBe(429);
      // Another operator behind the same proxy is another address.
      expect((await viaProxy(PASSWORD, '198.51.100.4', '10.31.2.3')).statusCode).toBe(200);
    });

    it('ignores X-Forwarded-For from anyone else', async () => {
      const email = await newAccount();
      for (let i = 0; i < 5; i += 1)
        await login(proxied, email, 'wrong', '10.40.0.1', { 'x-forwarded-for': `203.0.113.${i}` });
      const spoofed = await login(proxied, email, PASSWORD, '10.40.0.1', {
        'x-forwarded-for': '198.51.100.200',
      });
      expect(spoofed.statusCode).toBe(429);
    });
  });
});

describe('the address the throttle counts', () => {
  it('is an IPv4 address as it is and an IPv6 address by its /64', () => {
    expect(throttledAddress('192.0.2.7')).toBe('192.0.2.7');
    expect(throttledAddress('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(throttledAddress('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(throttledAddress('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
    expect(throttledAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttledAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(throttledAddress('::1')).toBe('0:0:0:0::/64');
  });
});
