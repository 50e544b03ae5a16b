import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAIR_VALUES } from '../src/modules/operations/countPlan.ts';
import { foldedMonthRows } from '../src/modules/operations/emailFolds.ts';
import { createTestApp, signedIn, type TestContext } from './helpers.ts';
import { insertSpecialFunctionRuns } from './operationsFactories.ts';
import { expectListPages } from './scanPages.ts';

/*
 * PostgreSQL keeps a surname's rows per month (035's folded counters). A page that many rows deep
 * needs only the newest months holding them (`foldedMonthRows`' `newest`), guessed from where the
 * table's own rows lie: a surname whose rows all lie in the older months ('reddy' below, none in
 * the newest ten) must still get every month down to its rows, and one spread evenly ('kumar')
 * only the newest; each month whole, none skipped. (`pairFragmentFirst` pages a surname read so.)
 */
describe('a surname’s newest months, on postgres', () => {
  let t: TestContext;
  const RUNS = 2_400;
  // A run every six hours: 2,400 runs over about 20 months.
  const start = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 6 * 3_600_000).toISOString();
  const email = (i: number) =>
    i % 3 === 0
      ? `kumar.${i}@mail.example`
      : i % 3 === 1 && i < RUNS / 2
        ? `reddy${i}@mail.example`
        : `d.${i}@x.example`;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    await insertSpecialFunctionRuns(
      t.db,
      Array.from({ length: RUNS }, (_, i) => ({ email: email(i), start: start(i) })),
    );
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  for (const fragment of ['kumar', 'reddy'])
    it(`reads ${fragment}'s newest months whole, as many as a page needs`, async () => {
      const all = await foldedMonthRows(t.db.kysely, 'special_function_runs', 'user_email', fragment);
      expect(all).toBeDefined();
      const months = [...(all as Map<string, number>).entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1));
      const rows = months.reduce((s, [, n]) => s + n, 0);
      expect(rows).toBe(fragment === 'kumar' ? RUNS / 3 : RUNS / 6);
      let fewer = false;
      for (const newest of [1, 50, 200, 399, 600, 799, 800]) {
        const some = await foldedMonthRows(
          t.db.kysely,
          'special_function_runs',
          'user_email',
          fragment,
          newest,
        );
        const read = [...(some as Map<string, number>).entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1));
        // The newest months, each whole, holding at least `newest` rows.
        expect(read).toEqual(months.slice(0, read.length));
        expect(read.reduce((s, [, n]) => s + n, 0)).toBeGreaterThanOrEqual(Math.min(newest, rows));
        if (read.length < months.length) fewer = true;
      }
      // A surname spread evenly needs fewer months than it has for a shallow page.
      expect(fewer).toBe(fragment === 'kumar');
    });
});

/*
 * A surname's page deep into its month is read from that month's matches alone, by folded
 * address (045's index of folded address, time and id; `foldedBucketIds`), where walking the
 * time index would step over many more rows than the month holds matches — from either end of
 * the month, the page sometimes spanning two. It applies to a fragment in more addresses than
 * are listed (MAX_PAIR_VALUES) and a small share of the rows: here 5,400 addresses of 'kumar'
 * in three cases of letters and one more form, among 17,000 runs. Every page must be exactly its
 * runs newest first, ties of time broken by id, before and after runs are deleted and
 * re-addressed.
 */
describe('a surname of many addresses paged from its months’ matches, on postgres', () => {
  let t: TestContext;
  let headers: Record<string, string>;
  const RUNS = 17_000;
  // Enough that ~5,150 addresses still hold it after the writes below (which take ~250 and add
  // one): under MAX_PAIR_VALUES its counters would be listed instead, a path this does not test.
  const SURNAMES = MAX_PAIR_VALUES + 400;
  // Two runs at each time, a time every hour: ~12 months.
  const start = (i: number) => new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 2) * 3_600_000).toISOString();
  // Every third run or so is a 'kumar' (its own address each); the rest are not.
  const email = (i: number) => {
    const k = Math.floor((i * SURNAMES) / RUNS);
    const holds = Math.floor(((i + 1) * SURNAMES) / RUNS) > k;
    if (!holds) return `d.${i}@x.example`;
    return k % 10 === 9 ? `p.kumar${k}@x.example` : `${['kumar', 'Kumar', 'KUMAR'][k % 3]}${k}@mail.example`;
  };
  let ids: number[] = [];
  let addresses: string[] = [];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    headers = (await signedIn(t.db)).headers;
    addresses = Array.from({ length: RUNS }, (_, i) => email(i));
    ids = await insertSpecialFunctionRuns(
      t.db,
      addresses.map((address, i) => ({ email: address, start: start(i) })),
    );
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  /** The surname's runs but those `gone`, newest first (ties: the higher id first). */
  const expected = (gone: ReadonlySet<number> = new Set()) =>
    ids
      .map((id, i) => ({ id, address: addresses[i] as string, start: start(i) }))
      .filter((r) => !gone.has(r.id) && r.address.toLowerCase().includes('kumar'))
      .sort((a, b) => (a.start === b.start ? b.id - a.id : a.start < b.start ? 1 : -1))
      .map((r) => r.id);
  const list = { path: '/api/SpecialFunctions', key: 'scans' };

  it('pages every run of it, in order, at two page sizes', async () => {
    const want = expected();
    expect(want.length).toBe(SURNAMES);
    await expectListPages(t.app, headers, list, 'email=kumar', want, [25, 11]);
  }, 120_000);

  it('still does once runs left it, joined it and were deleted', async () => {
    const k = t.db.kysely;
    const moved = ids.filter((_, i) => i % 30 === 3);
    await k
      .updateTable('special_function_runs')
      .set({ user_email: 'left@x.example' })
      .where('id', 'in', moved)
      .execute();
    const joined = ids.filter((_, i) => i % 50 === 7);
    await k
      .updateTable('special_function_runs')
      .set({ user_email: 'new.kumar@y.example' })
      .where('id', 'in', joined)
      .execute();
    const gone = new Set(ids.filter((_, i) => i % 40 === 13));
    await k
      .deleteFrom('special_function_runs')
      .where('id', 'in', [...gone])
      .execute();
    for (const id of moved) addresses[ids.indexOf(id)] = 'left@x.example';
    for (const id of joined) addresses[ids.indexOf(id)] = 'new.kumar@y.example';
    // Every page at two sizes: ~1,000 requests.
    await expectListPages(t.app, headers, list, 'email=kumar', expected(gone), [25, 11]);
  }, 120_000);
});
