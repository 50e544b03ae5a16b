import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedRead, withSharedReads } from '../src/lib/sharedReads.ts';
import { foldedFacts } from '../src/modules/operations/emailFolds.ts';
import { createTestApp, DIALECTS, type TestContext } from './helpers.ts';
import { insertSpecialFunctionRuns } from './operationsFactories.ts';

describe('sharedRead', () => {
  it('reads once per key within a request, every time outside one, never across requests', async () => {
    let reads = 0;
    const read = () => sharedRead('k', async () => ++reads);
    await withSharedReads(async () => {
      expect(await Promise.all([read(), read()])).toEqual([1, 1]);
      expect(await sharedRead('other', async () => ++reads)).toBe(2);
      expect(await read()).toBe(1);
    });
    expect(await read()).toBe(3);
    expect(await read()).toBe(4);
    expect(await withSharedReads(read)).toBe(5);
  });
});

/**
 * PostgreSQL's folded facts of a surname (035's counters), read as one statement: each agrees with
 * the rows, and a request after a write sees the write.
 */
describe.each(DIALECTS.filter((d) => d === 'postgres'))('folded facts on %s', (dialect) => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const fromRows = async (fragment: string) => {
    const { rows } = await sql<{ n: string; addresses: string; local: string }>`SELECT count(*) AS n,
        count(DISTINCT user_email) AS addresses,
        count(DISTINCT user_email) FILTER (WHERE split_part(user_email, '@', 1) ILIKE ${`%${fragment}%`}
          AND split_part(user_email, '@', 2) NOT ILIKE ${`%${fragment}%`}) AS local
      FROM special_function_runs WHERE user_email ILIKE ${`%${fragment}%`}`.execute(t.db.kysely);
    const [found] = rows;
    return { rows: Number(found?.n), addresses: Number(found?.addresses), local: Number(found?.local) };
  };
  const folded = (fragment: string) =>
    withSharedReads(async () => {
      const facts = await foldedFacts(t.db.kysely, 'special_function_runs', 'user_email', fragment);
      return { rows: facts.rows, addresses: facts.addresses, local: facts.localOnlyAddresses };
    });

  it('gives the rows, the addresses and the local-only addresses the rows give, through a write', async () => {
    const start = '2026-03-01T10:00:00.000Z';
    await insertSpecialFunctionRuns(t.db, [
      { email: 'anil.kumar12@gmail.com', start },
      { email: 'anil.kumar12@gmail.com', start },
      { email: 'anil.kumar7@gmail.com', start },
      { email: 'r.KUMAR@yahoo.in', start },
      { email: 'ops@kumarmotors.in', start },
      { email: 'priya.sharma@gmail.com', start },
    ]);
    expect(await folded('kumar')).toEqual({ rows: 5, addresses: 4, local: 3 });
    expect(await folded('kumar')).toEqual(await fromRows('kumar'));
    await insertSpecialFunctionRuns(t.db, [{ email: 'kumar.s@kumar.in', start }]);
    expect(await folded('kumar')).toEqual({ rows: 6, addresses: 5, local: 3 });
    expect(await folded('kumar')).toEqual(await fromRows('kumar'));
  });
});
