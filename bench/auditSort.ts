/**
 * The audit log sorted by a column at 1,000,000 events (issue 12 item 2, migration 019): pages 1
 * and 100 of sort=action and sort=target, both ways, with and without a filter, through the list's
 * own repository function (no HTTP: the cost of the query and its exact total), on SQLite; and what
 * 019's two indexes cost: their build time, their size, and inserts with and without them.
 *
 *   node --import tsx bench/auditSort.ts
 * Database: BENCH_AUDIT_SORT_SQLITE (default $TMP/obd-bench-audit-sort.sqlite), topped up to
 * BENCH_AUDIT_EVENTS (default 1,000,000) with the seed's audit events first.
 */
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { appendAuditEvents } from '../apps/server/seed/audit.ts';
import { migrate, openDatabase } from '../apps/server/src/db/database.ts';
import { listAuditEvents } from '../apps/server/src/modules/audit/repository.ts';

const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_AUDIT_SORT_RUNS ?? 30);
const file = process.env.BENCH_AUDIT_SORT_SQLITE ?? path.join(os.tmpdir(), 'obd-bench-audit-sort.sqlite');

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const db = openDatabase({ dialect: 'sqlite', file } as Parameters<typeof openDatabase>[0]);
await migrate(db);
const count = async () =>
  Number((await sql<{ n: number }>`SELECT count(*) AS n FROM audit_events`.execute(db.kysely)).rows[0]?.n);
const have = await count();
if (have < EVENTS) {
  console.log(`topping up ${have} → ${EVENTS} events…`);
  await appendAuditEvents(db, EVENTS - have);
}
console.log(
  `${await count()} events; load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

const indexSize = async (name: string) => {
  const rows = (
    await sql<{ b: number }>`SELECT sum(pgsize) AS b FROM dbstat WHERE name = ${name}`.execute(db.kysely)
  ).rows;
  return Number(rows[0]?.b ?? 0);
};
for (const column of ['action', 'target']) {
  const name = `audit_events_sort_${column}`;
  await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db.kysely);
  const t = process.hrtime.bigint();
  await sql`CREATE INDEX ${sql.id(name)} ON audit_events (${sql.ref(column)})`.execute(db.kysely);
  console.log(`${name}: built in ${ms(t).toFixed(0)} ms, ${((await indexSize(name)) / 1e6).toFixed(1)} MB`);
}
const table = await indexSize('audit_events');
console.log(`audit_events table itself: ${(table / 1e6).toFixed(1)} MB`);

const cases = [
  'sort=action&order=asc',
  'sort=action&order=desc',
  'sort=target&order=asc',
  'sort=target&order=desc',
  'sort=action&order=desc&action=export',
  'sort=target&order=asc&action=role-changed',
  'sort=action&order=asc&target=scans',
  'sort=target&order=desc&operator=bench%40example.com',
];
console.log('case | page | p50 ms | p95 ms');
for (const c of cases) {
  for (const page of [1, 100]) {
    const q = Object.fromEntries(new URLSearchParams(c));
    const query = { page, limit: 50, ...q } as Parameters<typeof listAuditEvents>[2];
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const t = process.hrtime.bigint();
      await listAuditEvents(db.kysely, 'sqlite', query);
      times.push(ms(t));
    }
    console.log(`${c} | ${page} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)}`);
  }
}

// Writes: 20,000 events appended with 019's indexes, then without them (dropped and rebuilt after).
const appendTime = async () => {
  const t = process.hrtime.bigint();
  await appendAuditEvents(db, 20_000);
  return ms(t);
};
const withIndexes = await appendTime();
for (const column of ['action', 'target'])
  await sql`DROP INDEX ${sql.id(`audit_events_sort_${column}`)}`.execute(db.kysely);
const without = await appendTime();
for (const column of ['action', 'target'])
  await sql`CREATE INDEX ${sql.id(`audit_events_sort_${column}`)} ON audit_events (${sql.ref(column)})`.execute(
    db.kysely,
  );
console.log(
  `20,000 inserts: ${withIndexes.toFixed(0)} ms with 019's indexes, ${without.toFixed(0)} ms without; load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await db.close();
