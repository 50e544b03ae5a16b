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
  };
}
