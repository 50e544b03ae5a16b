import type { AuditAction } from '@obd/contract';
import { sql } from 'kysely';
import { hashPassword } from '../src/auth/passwords.ts';
import type { Db } from '../src/db/database.ts';
import { batchRows, type Row, withBulkLoadSettings } from './insert.ts';
import { DAY_MS, rng } from './random.ts';

/**
 * Audit events in bulk, for the audit list's benchmark (`npm run seed -- --audit 1000000
 * --append`): spread evenly over the last 360 days (inside the default retention, so a starting
 * server's purge keeps them), in time order, over 20 operators. The bench operator
 * (bench@example.com, as `bench/lib.ts` signs in) is created as an admin if missing. The mix of
 * actions, actors and targets is that of a busy dashboard: mostly sign-ins and exports, some
 * failures from unknown e-mails, now and then an operator change.
 */

const MIX: [AuditAction, number][] = [
  ['sign-in', 30],
  ['sign-out', 15],
  ['sign-in-failed', 8],
  ['export', 25],
  ['import', 8],
  ['sessions-ended', 3],
  ['invitation-created', 2],
  ['invitation-used', 2],
  ['sign-up', 2],
  ['role-changed', 1],
  ['password-changed', 2],
  ['password-reset-issued', 1],
  ['operator-disabled', 0.5],
  ['operator-enabled', 0.5],
];
const LISTS = [
  'users',
  'scans',
  'specialFunctions',
  'actuations',
  'faultCodes',
  'coverage',
  'liveData',
  'audit',
];
const OPERATORS = 20;
const SPAN_DAYS = 360;

/** The seeded operators' ids by e-mail (bench@example.com first), creating those missing. */
async function benchOperators(db: Db): Promise<{ id: number; email: string }[]> {
  const emails = [
    'bench@example.com',
    ...Array.from(
      { length: OPERATORS - 1 },
      (_, i) => `operator${String(i + 1).padStart(2, '0')}@ops.example.com`,
    ),
  ];
  const existing = await db.kysely
    .selectFrom('operators')
    .select(['id', 'email'])
    .where('email', 'in', emails)
    .execute();
  const missing = emails.filter((e) => !existing.some((o) => o.email === e));
  if (missing.length > 0) {
    const bench = await hashPassword('benchmark password');
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('operators')
      .values(
        missing.map((email, i) => ({
          email,
          // The others never sign in: a hash no password matches.
          password_hash: email === 'bench@example.com' ? bench : `seed-${i}`,
          role: email === 'bench@example.com' ? 'admin' : (['viewer', 'editor', 'admin'][i % 3] ?? 'viewer'),
          created_at: now,
        })),
      )
      .execute();
  }
  const all = await db.kysely
    .selectFrom('operators')
    .select(['id', 'email'])
    .where('email', 'in', emails)
    .execute();
  return emails.map((e) => all.find((o) => o.email === e) as { id: number; email: string });
}

/** Appends `count` audit events; returns how many were written. */
export async function appendAuditEvents(db: Db, count: number, log: (msg: string) => void = () => {}) {
  const operators = await benchOperators(db);
  const r = rng(`audit:${count}`);
  const actions = MIX.map(([a]) => a);
  const weights = MIX.map(([, w]) => w);
  const end = Date.now() - 60_000;
  const start = end - SPAN_DAYS * DAY_MS;
  const step = (end - start) / Math.max(1, count);
  const size = batchRows(db.dialect, 7);
  let written = 0;
  await withBulkLoadSettings(db, async () => {
    while (written < count) {
      const n = Math.min(size * 10, count - written);
      const rows: Row<'audit_events'>[] = [];
      for (let i = 0; i < n; i += 1) {
        const at = new Date(start + (written + i) * step).toISOString();
        const action = r.weighted(actions, weights);
        // A few operators do most of the work.
        const actor = operators[Math.min(OPERATORS - 1, Math.floor(r.next() ** 2 * OPERATORS))] as {
          id: number;
          email: string;
        };
        const other = r.pick(operators);
        let target: string;
        let details: Record<string, unknown> = {};
        let operatorId: number | null = actor.id;
        switch (action) {
          case 'sign-in-failed': {
            operatorId = r.chance(0.5) ? actor.id : null;
            target = operatorId ? actor.email : `someone${r.int(1, 5000)}@example.com`;
            details = { email: target, reason: operatorId ? 'wrong-password' : 'unknown-email' };
            break;
          }
          case 'export': {
            const list = r.pick(LISTS);
            target = list;
            details = {
              list,
              format: r.chance(0.7) ? 'xlsx' : 'csv',
              filters: {},
              rows: r.int(0, 1_000_000),
              outcome: 'complete',
            };
            break;
          }
          case 'import':
            target = `import #${r.int(1, 20_000)}`;
            details = { kind: 'faultCodes', outcome: 'succeeded', counts: { inserted: r.int(0, 5000) } };
            break;
          case 'invitation-created':
          case 'invitation-used':
            target = `invitation #${r.int(1, 2000)}`;
            break;
          case 'role-changed':
            target = other.email;
            details = { from: 'viewer', to: 'editor' };
            break;
          case 'sign-in':
          case 'sign-out':
          case 'sign-up':
          case 'password-changed':
            target = actor.email;
            break;
          default:
            target = other.email;
        }
        rows.push({
          at,
          operator_id: operatorId,
          action,
          target,
          details: JSON.stringify(details),
          address: `10.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`,
          user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
        });
      }
      await db.kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += size)
          await trx
            .insertInto('audit_events')
            .values(rows.slice(i, i + size))
            .execute();
      });
      written += n;
      log(`audit events: ${written.toLocaleString('en-US')} / ${count.toLocaleString('en-US')}`);
    }
  });
  // Fresh statistics, so the planner knows the indexes' shapes before the first query.
  if (db.dialect === 'postgres') await sql`ANALYZE audit_events, audit_counts`.execute(db.kysely);
  return written;
}
