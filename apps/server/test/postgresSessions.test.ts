import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestContext } from './helpers.ts';

/*
 * Every PostgreSQL connection of the server's pool runs without JIT compilation (database.ts):
 * a bounded list query whose estimated cost passes jit_above_cost at millions of rows spent
 * longer compiling than running.
 */
describe.skipIf(!DIALECTS.includes('postgres'))('the server’s PostgreSQL sessions', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('postgres');
  });
  afterAll(() => t.close());

  it('compile no query just in time, on every pooled connection', async () => {
    // Several at once: the pool opens more than one connection.
    const settings = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.db.kysely.transaction().execute(async (trx) => {
          const { rows } = await sql<{ jit: string }>`SHOW jit`.execute(trx);
          await sql`SELECT pg_sleep(0.05)`.execute(trx);
          return rows[0]?.jit;
        }),
      ),
    );
    expect(settings).toEqual(['off', 'off', 'off', 'off']);
  });
});
