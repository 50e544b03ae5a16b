import path from 'node:path';

export type DatabaseConfig = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  seed: 'demo' | 'none';
  corsOrigins: string[];
  logLevel: string;
  /** Keep signed-in GET answers until the data changes (`lib/responseCache.ts`); off for benchmarks of the queries. */
  responseCache: boolean;
  /** Where the built web app lives; served from `/` when it exists. */
  webRoot: string;
  /**
   * Addresses or CIDR ranges of the reverse proxies in front of the server (`TRUST_PROXY`): only a
   * request arriving from one of them has its `X-Forwarded-For` (the client address the sign-in
   * throttle counts) and `X-Forwarded-Proto` believed. Empty: the connection's own address.
   */
  trustProxy: string[];
  /** The address operators open (`PUBLIC_URL`); an `https:` one makes every answer say HTTPS-only things (HSTS). */
  publicUrl?: string;
  /** Audit events older than this many days are deleted by the hourly purge (`AUDIT_RETENTION_DAYS`). */
  auditRetentionDays: number;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Reads `DATABASE_URL`: `postgres://…` → PostgreSQL; `sqlite:<path>` or unset → an SQLite file. */
export function parseDatabaseUrl(url: string | undefined): DatabaseConfig {
  if (!url) return { dialect: 'sqlite', file: path.join(repoRoot, 'data', 'obd-admin.sqlite') };
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', url };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    // npm runs workspace scripts inside the workspace; a relative path means relative to where
    // the operator typed the command (INIT_CWD), not to apps/server.
    const base = process.env.INIT_CWD ?? process.cwd();
    return { dialect: 'sqlite', file: file === ':memory:' ? file : path.resolve(base, file) };
  }
  throw new Error(`DATABASE_URL must start with postgres:// or sqlite: (got "${url}")`);
}

/** The whole configuration, read once from the environment at start. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number (got "${env.PORT}")`);
  const seed = (env.SEED ?? 'demo').toLowerCase();
  if (seed !== 'demo' && seed !== 'none') throw new Error(`SEED must be demo or none (got "${env.SEED}")`);
  const responseCache = (env.RESPONSE_CACHE ?? 'on').toLowerCase();
  if (responseCache !== 'on' && responseCache !== 'off')
    throw new Error(`RESPONSE_CACHE must be on or off (got "${env.RESPONSE_CACHE}")`);
  const auditRetentionDays = Number(env.AUDIT_RETENTION_DAYS ?? 365);
  if (!Number.isInteger(auditRetentionDays) || auditRetentionDays < 1)
    throw new Error(
      `AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more (got "${env.AUDIT_RETENTION_DAYS}")`,
    );
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    database: parseDatabaseUrl(env.DATABASE_URL),
    seed,
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL ?? 'info',
    responseCache: responseCache === 'on',
    webRoot: path.join(repoRoot, 'apps', 'web', 'dist'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    auditRetentionDays,
    ...(env.PUBLIC_URL ? { publicUrl: parsePublicUrl(env.PUBLIC_URL) } : {}),
  };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/**
 * `TRUST_PROXY`: a comma-separated list of proxy addresses (`10.0.0.5`, `::1`), CIDR ranges
 * (`10.0.0.0/8`, `fd00::/8`) or the names `loopback`, `linklocal`, `uniquelocal`.
 */
export function parseTrustProxy(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) continue;
    const [address = '', bits, ...more] = entry.split('/');
    const v6 = address.includes(':');
    const max = v6 ? 128 : 32;
    const addressOk = v6 ? /^[0-9a-f:.]+$/i.test(address) && address.length <= 45 : IPV4.test(address);
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (!addressOk || !bitsOk || more.length > 0) {
      throw new Error(
        `TRUST_PROXY must list proxy addresses or CIDR ranges separated by commas, e.g. 10.0.0.5,fd00::/8 (got "${entry}")`,
      );
    }
  }
  return entries;
}

/** `PUBLIC_URL`: the http(s) address operators open, e.g. https://obd-admin.example.com. */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an address like https://obd-admin.example.com (got "${value}")`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`PUBLIC_URL must start with https:// or http:// (got "${value}")`);
  return url.origin;
}
