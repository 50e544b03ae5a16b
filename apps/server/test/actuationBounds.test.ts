import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertActuationRun } from './operationsFactories.ts';

/*
 * The actuation runs list's "created to" bounds the list's own time column from above
 * (countPlan.ts: the days before the bound's day from 004's day counters, the bound's own day
 * counted up to the bound, and the day after it bounding page 1). Every page at two sizes must be
 * exactly the rows the bound selects, newest first (ties by id), whatever the bound's time of
 * day, alone and with a make or type fragment (startPlan.ts's mirror of the start bound) — and
 * stay so through a new run, a removed one and a renamed make.
 */
describe.each(DIALECTS)('actuation runs created up to a time, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const runs: { id: number; created: string; make: string; type: string; model: string; email: string }[] =
    [];
  // Surnames in the local parts, numbered (PostgreSQL totals 'kumar' from 035's folded months).
  const emails = ['ravi.kumar', 'KUMAR.asha', 'anita.rao', 'kumari'];
  const makes = ['Hyundai', 'HYUNDAI', 'Tata', 'Honda'];
  const types = ['Horn', 'Cooling Fan', 'horn relay'];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    // 12 days, several runs a day, some at the same time (the id breaks the tie), and a few in the
    // month's second half (a late bound's month is summed whole, the part after it taken off).
    for (let i = 0; i < 76; i += 1) {
      const created = new Date(
        i < 70
          ? Date.UTC(2025, 5, 1 + (i % 12), (i * 7) % 24, i % 4 === 0 ? 0 : i)
          : Date.UTC(2025, 5, 18 + i - 70, 9),
      ).toISOString();
      const make = makes[i % makes.length] as string;
      const type = types[i % types.length] as string;
      // 'x5' and 'qx' are too short for a trigram (PostgreSQL: valuesWhere.ts lists their values);
      // one QX55 is rarer than a walk pays for.
      const model = i === 13 ? 'QX55' : (['X5', 'Civic', 'X50', 'Civic'][i % 4] as string);
      const email = `${emails[i % emails.length]}${i}@mail${i % 3}.com`;
      runs.push({
        id: await insertActuationRun(t.db, {
          created_at: created,
          make,
          actuation_type: type,
          model,
          user_email: email,
        }),
        created,
        make,
        type,
        model,
        email,
      });
    }
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  // With a second filter: a fragment of a column counted per day (startPlan.ts's `valueUpTo`).
  const seconds: [string, (r: (typeof runs)[number]) => boolean][] = [
    ['', () => true],
    ['&make=hyundai', (r) => r.make.toLowerCase().includes('hyundai')],
    ['&make=ta', (r) => r.make.toLowerCase().includes('ta')],
    ['&actuation_type=horn', (r) => r.type.toLowerCase().includes('horn')],
    ['&make=nomatch', () => false],
    ['&model=x5', (r) => r.model.toLowerCase().includes('x5')],
    ['&model=qx', (r) => r.model.toLowerCase().includes('qx')],
    ['&email=kumar', (r) => r.email.toLowerCase().includes('kumar')],
    ['&email=UMAR.A', (r) => r.email.toLowerCase().includes('umar.a')],
  ];

  async function expectPages(to: string, [second, matches]: (typeof seconds)[number]) {
    const bound = new Date(to).toISOString();
    await expectQuery(
      `created_to=${encodeURIComponent(to)}${second}`,
      (r) => r.created <= bound && matches(r),
    );
  }

  async function expectQuery(query: string, matches: (r: (typeof runs)[number]) => boolean) {
    const expected = runs
      .filter(matches)
      .sort((a, b) => (a.created === b.created ? b.id - a.id : a.created < b.created ? 1 : -1))
      .map((r) => r.id);
    for (const limit of [7, 3]) {
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page += 1) {
        const res = await t.app.inject({
          url: `/api/ActuationsDetail?${query}&limit=${limit}&page=${page}`,
          headers,
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        const body = res.json() as { total: number; actuations: { id: number }[] };
        expect(body.total, `${query} page ${page}`).toBe(expected.length);
        seen.push(...body.actuations.map((a) => a.id));
      }
      expect(seen, `${query}, ${limit} a page`).toEqual(expected);
    }
  }

  const bounds = [
    '2025-06-05T23:59:59.999Z',
    '2025-06-05T07:00:00Z',
    '2025-06-08T00:00:00Z',
    '2025-05-31T23:59:59Z',
    '2025-06-30T00:00:00Z',
    '2025-06-21T10:00:00Z',
  ];

  it('pages every bound exactly as the rows are', async () => {
    for (const to of bounds) for (const second of seconds) await expectPages(to, second);
  });

  it('pages a model fragment too short for a trigram with a make or a start bound', async () => {
    await expectQuery(
      'make=hyundai&model=x5',
      (r) => r.make.toLowerCase().includes('hyundai') && r.model.toLowerCase().includes('x5'),
    );
    await expectQuery(
      'make=ta&model=qx',
      (r) => r.make.toLowerCase().includes('ta') && r.model.toLowerCase().includes('qx'),
    );
    await expectQuery(
      'model=x5&created_from=2025-06-05T07:00:00Z',
      (r) => r.model.toLowerCase().includes('x5') && r.created >= '2025-06-05T07:00:00.000Z',
    );
    for (const from of ['2025-06-05T07:00:00.000Z', '2025-05-20T00:00:00.000Z', '2025-06-16T00:00:00.000Z'])
      await expectQuery(
        `email=kumar&created_from=${from}`,
        (r) => r.email.toLowerCase().includes('kumar') && r.created >= from,
      );
    await expectQuery(
      'model=qx&created_from=2025-06-01',
      (r) => r.model.toLowerCase().includes('qx') && r.created >= '2025-06-01',
    );
  });

  it('stays exact through a new run and a removed one', async () => {
    const created = '2025-06-05T06:30:00.000Z';
    const email = 'new.kumar7@mail.com';
    const added = {
      created_at: created,
      make: 'Hyundai',
      actuation_type: 'Horn',
      model: 'X5',
      user_email: email,
    };
    runs.push({
      id: await insertActuationRun(t.db, added),
      created,
      make: 'Hyundai',
      type: 'Horn',
      model: 'X5',
      email,
    });
    // An address leaves the surname.
    const moved = runs.find((r) => r.email.startsWith('ravi.kumar'));
    if (moved) {
      moved.email = 'ravi.k2@mail.com';
      await t.db.kysely
        .updateTable('actuation_runs')
        .set({ user_email: moved.email })
        .where('id', '=', moved.id)
        .execute();
    }
    const gone = runs.splice(10, 1)[0];
    await t.db.kysely.deleteFrom('actuation_runs').where('id', '=', Number(gone?.id)).execute();
    // A make renamed: its counters move with it.
    const renamed = runs.find((r) => r.make === 'Tata');
    if (renamed) {
      renamed.make = 'Hyundai';
      await t.db.kysely
        .updateTable('actuation_runs')
        .set({ make: 'Hyundai' })
        .where('id', '=', renamed.id)
        .execute();
    }
    for (const to of bounds) for (const second of seconds) await expectPages(to, second);
  });
});
