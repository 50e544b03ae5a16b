import { buildApp } from './app.ts';
import { countOperators } from './auth/repository.ts';
import { loadConfig } from './config.ts';
import { migrate, openDatabase } from './db/database.ts';

const config = loadConfig();
const db = openDatabase(config.database);
await migrate(db);
if (config.seed === 'demo') {
  // The seed module and its reference data load only when seeding is asked for.
  const seed = await import('../seed/index.ts');
  if (await seed.isEmpty(db)) {
    const started = Date.now();
    console.log('Seeding the demo database (first start only)…');
    await seed.seedDemo(db, { log: (message: string) => console.log(`  ${message}`) });
    console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
}

const app = await buildApp({ config, db });
const close = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.once('SIGINT', close);
process.once('SIGTERM', close);

await app.listen({ port: config.port, host: config.host });
const address = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.port}`;
const where = config.database.dialect === 'sqlite' ? `SQLite ${config.database.file}` : 'PostgreSQL';
console.log(`\nOBD Admin is running at ${address} (database: ${where})`);
if ((await countOperators(db.kysely)) === 0) {
  console.log(`No operator exists yet: open ${address}/signup — the first account becomes the admin.`);
} else {
  console.log(
    `Sign in at ${address}/login. Add an operator with: npm run operator -- create --email you@example.com --role viewer`,
  );
}
