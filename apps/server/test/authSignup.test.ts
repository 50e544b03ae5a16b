import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '../src/auth/repository.ts';
import { hashToken } from '../src/auth/tokens.ts';
import { createTestApp, DIALECTS, secondServer, signedIn, type TestContext } from './helpers.ts';

const PASSWORD = 'a long password';

describe.each(DIALECTS)('sign-up on %s', (dialect) => {
  let t: TestContext;
  let addresses = 0;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Each request from an address of its own unless told, so the throttle stays out of the way. */
  const signup = (
    app: typeof t.app,
    body: object,
    ip = `10.50.${Math.floor(++addresses / 250)}.${addresses % 250}`,
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { password: PASSWORD, ...body },
      remoteAddress: ip,
    });
  const operatorsNamed = async (emails: string[]) =>
    (
      await t.db.kysely
        .selectFrom('operators')
        .select(['email', 'role'])
        .where('email', 'in', emails)
        .execute()
    ).sort((a, b) => a.email.localeCompare(b.email));
  const forgetEveryone = async () => {
    await t.db.kysely.deleteFrom('sessions').execute();
    await t.db.kysely.deleteFrom('invitations').execute();
    await t.db.kysely.deleteFrom('operators').execute();
  };

  it('makes exactly one admin of simultaneous first sign-ups over two processes', async () => {
    const other = await secondServer(t);
    try {
      for (let round = 0; round < 5; round += 1) {
        await forgetEveryone();
        const emails = Array.from({ length: 6 }, (_, i) => `first${round}-${i}@example.com`);
        const answers = await Promise.all(emails.map((email, i) => signup(i % 2 ? other : t.app, { email })));
        const codes = answers.map((a) => a.statusCode).sort();
        expect(codes, `round ${round}: ${answers.map((a) => a.body).join(' | ')}`).toEqual([
          201, 403, 403, 403, 403, 403,
        ]);
        const refused = answers.find((a) => a.statusCode === 403);
        expect(refused?.json().error).toMatch(/needs an invitation code/);
        const created = await operatorsNamed(emails);
        expect(created.length, `round ${round}`).toBe(1);
        expect(created[0]?.role).toBe('admin');
      }
    } finally {
      await other.close();
    }
  });

  it('creates exactly one account from one invitation used by simultaneous sign-ups over two processes', async () => {
    await forgetEveryone();
    const admin = await signedIn(t.db, 'admin');
    const other = await secondServer(t);
    try {
      for (let round = 0; round < 10; round += 1) {
        const { code } = await createInvitation(t.db.kysely, 'editor', admin.operator.id);
        const emails = Array.from({ length: 6 }, (_, i) => `invited${round}-${i}@example.com`);
        const answers = await Promise.all(
          emails.map((email, i) => signup(i % 2 ? other : t.app, { email, invitationCode: code })),
        );
        expect(
          answers.map((a) => a.statusCode).sort(),
          `round ${round}: ${answers.map((a) => a.body).join(' | ')}`,
        ).toEqual([201, 403, 403, 403, 403, 403]);
        const created = await operatorsNamed(emails);
        expect(created, `round ${round}`).toEqual([{ email: expect.any(String), role: 'editor' }]);
        const invitation = await t.db.kysely
          .selectFrom('invitations')
          .innerJoin('operators', 'operators.id', 'invitations.used_by')
          .select('operators.email')
          .where('code_hash', '=', hashToken(code))
          .executeTakeFirst();
        expect(invitation?.email).toBe(created[0]?.email);
      }
    } finally {
      await other.close();
    }
  });

  it('answers a known and an unknown email alike without a valid invitation', async () => {
    await forgetEveryone();
    const admin = await signedIn(t.db, 'admin');
    const used = await createInvitation(t.db.kysely, 'viewer', admin.operator.id);
    expect((await signup(t.app, { email: 'taker@example.com', invitationCode: used.code })).statusCode).toBe(
      201,
    );
    const expired = await createInvitation(t.db.kysely, 'viewer', admin.operator.id);
    await t.db.kysely
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('code_hash', '=', hashToken(expired.code))
      .execute();
    for (const invitationCode of [undefined, 'NOT-A-CODE', used.code, expired.code]) {
      const known = await signup(t.app, { email: admin.operator.email, invitationCode });
      const unknown = await signup(t.app, { email: 'stranger@example.com', invitationCode });
      expect(known.statusCode, String(invitationCode)).toBe(403);
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.json()).toEqual(known.json());
      expect(known.json().error).toMatch(/invitation code.*Ask an admin/);
    }
    expect(await operatorsNamed(['stranger@example.com'])).toEqual([]);
  });

  it('throttles sign-up like sign-in', async () => {
    const answers = [];
    for (let i = 0; i < 6; i += 1)
      answers.push(
        await signup(t.app, { email: 'guesser@example.com', invitationCode: `GUESS-${i}` }, '10.60.0.1'),
      );
    expect(answers.map((a) => a.statusCode)).toEqual([403, 403, 403, 403, 403, 429]);
    expect(answers[5]?.json().error).toMatch(
      /^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/,
    );
  });
});
