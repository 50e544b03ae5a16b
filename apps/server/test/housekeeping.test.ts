import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/auth/repository.ts';
import { hashToken } from '../src/auth/tokens.ts';
import {
  failAbandonedImports,
  importHeartbeat,
  markUploadFolder,
  purgeExpired,
  registerHousekeeping,
  sweepUploadFolders,
} from '../src/lib/housekeeping.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

const HOUR = 60 * 60 * 1000;
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('leftover upload folders', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-sweep-test-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const folder = (name: string, owner?: string, ageMs = 0) => {
    const p = path.join(dir, name);
    fs.mkdirSync(p);
    fs.writeFileSync(path.join(p, 'upload-abc'), 'data');
    if (owner !== undefined) fs.writeFileSync(path.join(p, 'owner'), owner);
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(p, when, when);
    return p;
  };

  it('removes those of dead processes only, whoever else shares the machine', async () => {
    // A process that has ended: its pid names nobody now.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    folder('obd-upload-dead01', `${dead}:0123456789abcdef\n`);
    // Our own pid under another instance: a restarted server that got the same pid (containers).
    folder('obd-upload-reuse1', `${process.pid}:0123456789abcdef\n`);
    // Another live process's (the parent of this test process) upload in progress: kept.
    folder('obd-upload-alive1', `${process.ppid}:fedcba9876543210\n`);
    // Unless it is older than any upload can be: then its pid was reused.
    folder('obd-upload-ancien', `${process.ppid}:fedcba9876543210\n`, 25 * HOUR);
    // No owner file: kept while it may be one being made, removed once old.
    folder('obd-upload-fresh1');
    folder('obd-upload-old001', undefined, 2 * HOUR);
    // Ours, marked as the upload route marks it: kept.
    const mine = folder('obd-upload-mine01');
    await markUploadFolder(mine);
    // Not an upload folder at all.
    folder('obd-upload-files-test-abc', undefined, 48 * HOUR);
    folder('other-dir', undefined, 48 * HOUR);

    const removed = await sweepUploadFolders(dir);
    expect(removed.sort()).toEqual([
      'obd-upload-ancien',
      'obd-upload-dead01',
      'obd-upload-old001',
      'obd-upload-reuse1',
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual([
      'obd-upload-alive1',
      'obd-upload-files-test-abc',
      'obd-upload-fresh1',
      'obd-upload-mine01',
      'other-dir',
    ]);
  });
});

describe.each(DIALECTS)('housekeeping of the database on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('purges ended sessions (and their links), expired links, expired unused invitations and old sign-in attempts', async () => {
    const { operator, token } = await signedIn(t.db);
    const k = t.db.kysely;
    const live = (
      await k
        .selectFrom('sessions')
        .select('id')
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirstOrThrow()
    ).id;
    const session = async (values: { expires_at?: string; last_seen_at?: string; revoked_at?: string }) => {
      const tok = await createSession(k, operator.id);
      await k.updateTable('sessions').set(values).where('token_hash', '=', hashToken(tok)).execute();
      return (
        await k
          .selectFrom('sessions')
          .select('id')
          .where('token_hash', '=', hashToken(tok))
          .executeTakeFirstOrThrow()
      ).id;
    };
    const expired = await session({ expires_at: iso(-1000) });
    const idle = await session({ last_seen_at: iso(-9 * HOUR) });
    const revoked = await session({ revoked_at: iso(-1000) });
    const ticket = (name: string, sessionId: number, expiresIn: number) =>
      k
        .insertInto('download_tickets')
        .values({
          token_hash: name,
          operator_id: operator.id,
          session_id: sessionId,
          kind: 'faultCodes',
          params: '{}',
          created_at: iso(-2000),
          expires_at: iso(expiresIn),
        })
        .execute();
    await ticket('live-link', live, 60_000);
    await ticket('expired-link', live, -1000);
    await ticket('link-of-revoked', revoked, 60_000);
    const invitation = (name: string, expiresIn: number, used: boolean) =>
      k
        .insertInto('invitations')
        .values({
          code_hash: name,
          role: 'viewer',
          created_by: operator.id,
          created_at: iso(-8 * 24 * HOUR),
          expires_at: iso(expiresIn),
          used_at: used ? iso(-24 * HOUR) : null,
          used_by: used ? operator.id : null,
        })
        .execute();
    await invitation('open', HOUR, false);
    await invitation('lapsed', -HOUR, false);
    await invitation('redeemed', -HOUR, true);
    await k
      .insertInto('login_attempts')
      .values([
        { email: 'a@example.com', address: '10.0.0.1', attempted_at: iso(-2 * HOUR) },
        { email: 'a@example.com', address: '10.0.0.1', attempted_at: iso(-60_000) },
      ])
      .execute();

    const purged = await purgeExpired(t.db);
    // The link of the revoked session goes with its session (not counted as an expired link).
    expect(purged).toEqual({ sessions: 3, downloadTickets: 1, invitations: 1, loginAttempts: 1 });
    expect((await k.selectFrom('sessions').select('id').execute()).map((r) => r.id)).toEqual([live]);
    expect(
      (await k.selectFrom('download_tickets').select('token_hash').execute()).map((r) => r.token_hash),
    ).toEqual(['live-link']);
    expect(
      (await k.selectFrom('invitations').select('code_hash').orderBy('code_hash').execute()).map(
        (r) => r.code_hash,
      ),
    ).toEqual(['open', 'redeemed']);
    expect(await k.selectFrom('login_attempts').select('attempted_at').execute()).toHaveLength(1);
    expect([expired, idle, revoked]).not.toContain(live);
    // Nothing left to purge: a second run deletes nothing.
    expect(await purgeExpired(t.db)).toEqual({
      sessions: 0,
      downloadTickets: 0,
      invitations: 0,
      loginAttempts: 0,
    });
  });

  it('purges on a schedule that stops when the app closes', async () => {
    const { operator } = await signedIn(t.db);
    const expiredSession = async () => {
      const tok = await createSession(t.db.kysely, operator.id);
      await t.db.kysely
        .updateTable('sessions')
        .set({ expires_at: iso(-1000) })
        .where('token_hash', '=', hashToken(tok))
        .execute();
      return hashToken(tok);
    };
    const exists = async (hash: string) =>
      Boolean(
        await t.db.kysely
          .selectFrom('sessions')
          .select('id')
          .where('token_hash', '=', hash)
          .executeTakeFirst(),
      );
    const app = Fastify({ logger: false });
    registerHousekeeping(app, t.db, { purgeEveryMs: 100, tmpDir: path.join(os.tmpdir(), 'no-such-dir') });
    await app.ready();
    const first = await expiredSession();
    const deadline = Date.now() + 5000;
    while ((await exists(first)) && Date.now() < deadline) await wait(50);
    expect(await exists(first)).toBe(false);
    await app.close();
    const second = await expiredSession();
    await wait(400);
    expect(await exists(second)).toBe(true);
    await purgeExpired(t.db);
  });

  it('marks imports of a stopped server failed: on SQLite all at start, on PostgreSQL when their heartbeat stops', async () => {
    const { operator } = await signedIn(t.db);
    const running = (heartbeat: string | null, startedAt = iso(-60_000)) =>
      t.db.kysely
        .insertInto('imports')
        .values({
          operator_id: operator.id,
          kind: 'activation_codes',
          file_name: 'codes.csv',
          file_size: 10,
          file_hash: 'h',
          status: 'running',
          phase: 'writing',
          rows_processed: 0,
          started_at: startedAt,
          heartbeat_at: heartbeat,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    const silent = await running(iso(-importHeartbeat.staleAfterMs - 5000));
    const beating = await running(iso(-1000));
    const old = await running(null, iso(-2 * HOUR));
    const justStarted = await running(null);
    const status = async (id: number) =>
      await t.db.kysely
        .selectFrom('imports')
        .select(['status', 'message'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    await failAbandonedImports(t.db, false);
    if (dialect === 'postgres') {
      expect((await status(silent)).status).toBe('failed');
      expect((await status(silent)).message).toMatch(/^The server stopped before this import finished/);
      expect((await status(old)).status).toBe('failed');
      expect((await status(beating)).status).toBe('running');
      expect((await status(justStarted)).status).toBe('running');
    } else {
      // The periodic check does nothing on SQLite: one process, which judged at its start.
      for (const id of [silent, beating, old, justStarted]) expect((await status(id)).status).toBe('running');
      await failAbandonedImports(t.db, true);
      for (const id of [silent, beating, old, justStarted]) expect((await status(id)).status).toBe('failed');
    }
  });
});
