/**
 * Demo data from the command line (the database named by DATABASE_URL):
 *   npm run seed -w apps/server                          empty database → the full demo set
 *   npm run seed -w apps/server -- --scans 1000000       seeded database → adds 1,000,000 scans
 *   npm run seed -w apps/server -- --audit 1000000 --append   adds 1,000,000 audit events (any database)
 * Options: --scans N, --special-functions N, --actuations N, --users N, --audit N, --append,
 * --row-by-row (from 200,000 activity rows on, the seed loads in bulk: seed/bulk.ts).
 * On an empty database the volumes replace the demo defaults; with --append, or when the
 * database already has data, only the activity volumes given are added (benchmarks).
 */
import { parseArgs } from 'node:util';
import { appendAuditEvents } from '../../seed/audit.ts';
import {
  appendActivity,
  BULK_FROM,
  countRows,
  DEFAULT_VOLUMES,
  isEmpty,
  seedDemo,
} from '../../seed/index.ts';
import type { TableName } from '../../seed/insert.ts';
import { loadConfig } from '../config.ts';
import { migrate, openDatabase } from '../db/database.ts';

const USAGE = `Usage:
  npm run seed -w apps/server -- [--scans N] [--special-functions N] [--actuations N] [--users N] [--audit N] [--append]

  Empty database: seeds the demo dataset (defaults: ${DEFAULT_VOLUMES.users} users, ${DEFAULT_VOLUMES.scans} scans,
  ${DEFAULT_VOLUMES.specialFunctions} special-function runs, ${DEFAULT_VOLUMES.actuations} actuation runs).
  Seeded database or --append: adds N scans / special-function runs / actuation runs.
  --audit N adds N audit events over the last 360 days (and the operators who made them).
  From ${BULK_FROM.toLocaleString('en-US')} activity rows on, the activity is loaded with the counting triggers and
  indexes set aside and what they keep rebuilt after (the same database, far faster);
  --row-by-row keeps the triggers on instead.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    scans: { type: 'string' },
    'special-functions': { type: 'string' },
    actuations: { type: 'string' },
    users: { type: 'string' },
    audit: { type: 'string' },
    append: { type: 'boolean', default: false },
    'row-by-row': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

/** '1000000', '1_000_000' and '1,000,000' all mean a million. */
function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a whole number ≥ 0 (got "${value}").`);
  return n;
}

const volumes = {
  scans: count('scans', values.scans),
  specialFunctions: count('special-functions', values['special-functions']),
  actuations: count('actuations', values.actuations),
  users: count('users', values.users),
  ...(values['row-by-row'] ? { bulk: false } : {}),
};
const auditEvents = count('audit', values.audit);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const log = (msg: string) => console.log(`  [${elapsed().padStart(7)}] ${msg}`);

const config = loadConfig();
const db = openDatabase(config.database);
const where = config.database.dialect === 'sqlite' ? `SQLite ${config.database.file}` : 'PostgreSQL';
try {
  await migrate(db);
  if (!values.append && (await isEmpty(db))) {
    console.log(`Seeding the demo dataset into ${where}…`);
    await seedDemo(db, { ...volumes, log });
    if (auditEvents !== undefined) await appendAuditEvents(db, auditEvents, log);
  } else {
    if (
      volumes.scans === undefined &&
      volumes.specialFunctions === undefined &&
      volumes.actuations === undefined
    ) {
      if (auditEvents !== undefined) {
        console.log(`Appending audit events to ${where}…`);
        await appendAuditEvents(db, auditEvents, log);
      } else {
        console.log(
          `${where} already holds data; nothing to add. Say how much with --scans N (and/or the other volumes).`,
        );
      }
    } else {
      console.log(`Appending activity to ${where}…`);
      await appendActivity(db, { ...volumes, log });
      if (auditEvents !== undefined) await appendAuditEvents(db, auditEvents, log);
    }
  }
  console.log(`Done in ${elapsed()}. Rows per table:`);
  const tables: TableName[] = [
    'makes',
    'model_groups',
    'models',
    'coverage',
    'mechanic_commands',
    'custom_commands',
    'actuation_commands',
    'spf_commands',
    'odometer_commands',
    'live_data_commands',
    'fault_codes',
    'fault_code_causes',
    'fault_code_symptoms',
    'fault_code_solutions',
    'app_users',
    'subscriptions',
    'scans',
    'special_function_runs',
    'actuation_runs',
    'operators',
    'audit_events',
  ];
  for (const table of tables) {
    console.log(`  ${table.padEnd(24)} ${(await countRows(db, table)).toLocaleString('en-US').padStart(12)}`);
  }
} catch (error) {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
