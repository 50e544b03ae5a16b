/**
 * Where one list request's time goes, statement by statement (issue 12): runs an operations
 * list's repository in-process — no HTTP, no other request beside it — for every filter pair of
 * `bench/lists.ts pairs`, and prints each request's total, its best time of `runs`, and every SQL
 * statement it ran with that statement's time (and with PLANS=1 its plan: SQLite's EXPLAIN QUERY
 * PLAN, PostgreSQL's EXPLAIN (ANALYZE, BUFFERS) — which runs the statement once more).
 * On a loaded machine, the steadier figure to compare two versions of the planner with.
 *
 *   node --import tsx bench/listPlans.ts <file.sqlite | postgres://…> [part of the URL] [runs, default 3]
 *
 * A second argument holding `?` is one request to run instead of the pairs, of the scans list
 * (`'?email=gmail&sort=model&order=asc&page=100'`) or of the list it names
 * (`'/api/SpecialFunctions?email=kumar&make=hyundai'`): single filters, sorts, triples. The pairs
 * are the scans list's, or those of BENCH_PAIRS_LISTS (`SpecialFunctions,users`); `sorts` runs
 * every case of `bench/sort.ts` (statements shown for those over 100 ms; BENCH_SORTS_ONLY keeps
 * the URLs holding it) and lists those over 100 ms; `singles` every single filter of
 * `bench/operations.ts` on its four lists at pages 1, 100 and 10,000, listing those over 30 ms.
 *
 * SQLite opened read-only (the 1,000,000-row bench database of bench/operations.ts); PostgreSQL
 * through a pool as the server has one (statements of a request may run on two connections).
 */
import {
  actuationRunQuerySchema,
  scanQuerySchema,
  specialFunctionQuerySchema,
  userQuerySchema,
} from '@obd/contract';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { SESSION_SETTINGS } from '../apps/server/src/db/database.ts';
import type { Database } from '../apps/server/src/db/schema.ts';
import {
  listActuationRuns,
  listScans,
  listSpecialFunctions,
  listUsers,
} from '../apps/server/src/modules/operations/repository.ts';
import { filterPairUrls, singleFilterUrls } from './lists.ts';
import { OPERATION_CASES } from './operations.ts';
import { sortCases } from './sort.ts';

const [file, only = '', runsArg = '3'] = process.argv.slice(2);
if (!file)
  throw new Error('Name the database: node --import tsx bench/listPlans.ts <file.sqlite | postgres://…>');
const runs = Number(runsArg);
const postgres = file.startsWith('postgres://') || file.startsWith('postgresql://');
const sqlite = postgres ? undefined : new SQLite(file, { readonly: true, fileMustExist: true });
const pool = postgres ? new pg.Pool({ connectionString: file, max: 10 }) : undefined;
// The server's session settings (no JIT), so that statements are timed as the server runs them.
pool?.on('connect', (client) => void client.query(SESSION_SETTINGS).catch(() => {}));

interface Statement {
  sql: string;
  parameters: readonly unknown[];
  ms: number;
}
let statements: Statement[] = [];
const db = new Kysely<Database>({
  dialect: pool ? new PostgresDialect({ pool }) : new SqliteDialect({ database: sqlite as SQLite.Database }),
  log(event) {
    if (event.level === 'query')
      statements.push({
        sql: event.query.sql,
        parameters: event.query.parameters,
        ms: event.queryDurationMillis,
      });
  },
});

const shorten = (text: string) => (text.length > 900 ? `${text.slice(0, 900)}…(${text.length})` : text);

/** Each operations list's path, its query schema and its repository function. */
type Dialect = 'sqlite' | 'postgres';
const LISTS: Record<string, (dialect: Dialect, query: Record<string, string>) => Promise<{ total: number }>> =
  {
    '/api/ScanDetail': (d, q) => listScans(db, d, scanQuerySchema.parse(q)),
    '/api/SpecialFunctions': (d, q) => listSpecialFunctions(db, d, specialFunctionQuerySchema.parse(q)),
    '/api/ActuationsDetail': (d, q) => listActuationRuns(db, d, actuationRunQuerySchema.parse(q)),
    '/api/users': (d, q) => listUsers(db, d, userQuerySchema.parse(q)),
  };

const sweep = only === 'sorts' || only === 'singles';
// The target a sweep lists the cases over: 30 ms for one filter at any page, 100 ms for a sort.
const target = only === 'singles' ? 30 : 100;
// A list path before the `?` runs that list (`/api/SpecialFunctions?email=kumar`); `?…` alone
// runs the scans list; BENCH_PAIRS_LISTS keeps the pairs of those lists (default: the scans').
const urls = only.includes('?')
  ? [only.startsWith('?') ? `/api/ScanDetail${only}` : only]
  : only === 'singles'
    ? (await Promise.all(OPERATION_CASES.map(({ path }) => singleFilterUrls(path, [1, 100, 10_000])))).flat()
    : sweep
      ? sortCases().filter((url) => url.includes(process.env.BENCH_SORTS_ONLY ?? ''))
      : await filterPairUrls(process.env.BENCH_PAIRS_LISTS?.split(',') ?? ['ScanDetail']);
const slow: string[] = [];
for (const url of urls) {
  const [path = '', search] = url.split('?');
  const list = LISTS[path];
  if (!list || (only && !sweep && !only.includes('?') && !url.includes(only))) continue;
  const query = Object.fromEntries(new URLSearchParams(search));
  let best = Number.POSITIVE_INFINITY;
  let bestStatements: Statement[] = [];
  let total = 0;
  for (let run = 0; run < runs; run += 1) {
    statements = [];
    const started = performance.now();
    const page = await list(postgres ? 'postgres' : 'sqlite', query);
    const ms = performance.now() - started;
    total = page.total;
    if (ms < best) {
      best = ms;
      bestStatements = statements;
    }
  }
  console.log(`${sweep ? '' : '\n'}### ${url} total ${total} best ${best.toFixed(1)} ms`);
  if (best > target) slow.push(`${best.toFixed(1).padStart(8)} ms ${url}`);
  // A sweep shows the statements of the cases over its target only.
  if (sweep && best <= target) continue;
  for (const statement of bestStatements) {
    const sql = statement.sql.replace(/\s+/g, ' ');
    console.log(
      `  ${statement.ms.toFixed(1).padStart(7)} ms  ${shorten(sql)}  ${shorten(JSON.stringify(statement.parameters))}`,
    );
    if (!process.env.PLANS) continue;
    try {
      const plan = pool
        ? (
            await pool.query<{ 'QUERY PLAN': string }>(
              `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`,
              statement.parameters as unknown[],
            )
          ).rows.map((row) => row['QUERY PLAN'])
        : (
            (sqlite as SQLite.Database)
              .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
              .all(...statement.parameters) as {
              detail: string;
            }[]
          ).map((step) => step.detail);
      for (const step of plan) console.log(`            ${step}`);
    } catch (error) {
      console.log(`            (no plan: ${(error as Error).message})`);
    }
  }
}
if (sweep) console.log(`\n${slow.length} cases over ${target} ms:\n${slow.sort().reverse().join('\n')}`);
await db.destroy();
sqlite?.close();
