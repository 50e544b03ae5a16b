import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertScan, insertSpecialFunction } from './operationsFactories.ts';
import { expectListPages, expectScanPages } from './scanPages.ts';
import { expectedOrder } from './sortOrder.ts';

/**
 * "End ≤ to" with another filter (issue 12 item 1; `modules/operations/endPlan.ts`, migration
 * 021's end-day counters): every page and the total against the rows themselves, on both
 * dialects, through inserts, updates and deletes. The rows straddle the day and month edges of
 * the bounds, some have no end, some end before they start (nothing assumes end ≥ start).
 */
describe.each(DIALECTS)('filters with an end bound on %s', { timeout: 180_000 }, (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  interface Seeded {
    id: number;
    email: string;
    make: string;
    model: string;
    country_id: number | null;
    type: string | null;
    scan_start_time: string;
    scan_end_time: string | null;
  }
  const scans: Seeded[] = [];
  const makes = ['Honda', 'Hyundai', 'Tata', 'HONDA', 'Maruti Suzuki'];
  const models = ['City', 'Creta', 'Nexon', 'city', 'Swift'];
  const types = ['OBD', 'Generic', null];

  const scanOf = (i: number) => {
    // Starts over three months, several a day; ends from minutes to two days later, a few
    // before the start (bad clocks) and some never.
    const month = 4 + (Math.floor(i / 2) % 3);
    const start = Date.UTC(2025, month, 1 + (i % 9) * 3, (i * 7) % 24, i % 3 === 0 ? 0 : i);
    const ends = [10 * 60_000, 5 * 3600_000, 26 * 3600_000, 49 * 3600_000, -3600_000];
    return {
      email: `${['asha', 'ravi', 'meera'][i % 3]}.${i % 5}@garage.example`,
      make: makes[i % makes.length] as string,
      model: models[(i * 3) % models.length] as string,
      country_id: i % 4 === 0 ? null : ([91, 44][i % 2] as number),
      type: types[i % 3] ?? null,
      scan_start_time: new Date(start).toISOString(),
      scan_end_time: i % 7 === 0 ? null : new Date(start + (ends[i % ends.length] as number)).toISOString(),
    };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < 110; i += 1) {
      const s = scanOf(i);
      scans.push({ ...s, id: await insertScan(t.db, s) });
    }
    // A model and an e-mail of one row each: rarer than a walk pays for (read through their index).
    const rare = { ...scanOf(3), model: 'Zest', email: 'zoe@garage.example' };
    scans.push({ ...rare, id: await insertScan(t.db, rare) });
  });
  afterAll(() => t.close());

  const lower = (v: string | null) => (v ?? '').toLowerCase();
  const endBy = (to: string) => (s: Seeded) => s.scan_end_time !== null && s.scan_end_time <= to;
  const ends: [string, string][] = [
    ['scan_end_time=2025-06-10', '2025-06-10T23:59:59.999Z'],
    ['scan_end_time=2025-06-01T05:30:00Z', '2025-06-01T05:30:00.000Z'],
    ['scan_end_time=2025-07-31', '2025-07-31T23:59:59.999Z'],
    ['scan_end_time=2025-05-01', '2025-05-01T23:59:59.999Z'],
  ];
  const others: [string, (s: Seeded) => boolean][] = [
    ['make=hond', (s) => lower(s.make).includes('hond')],
    ['make=tata', (s) => lower(s.make).includes('tata')],
    ['make=nomatch', () => false],
    ['email=ravi', (s) => lower(s.email).includes('ravi')],
    ['email=asha.3', (s) => lower(s.email).includes('asha.3')],
    ['model=CITY', (s) => lower(s.model).includes('city')],
    ['country_id=91', (s) => s.country_id === 91],
    ['type=generic', (s) => lower(s.type).includes('generic')],
    ['scan_start_time=2025-06-04', (s) => s.scan_start_time >= '2025-06-04'],
    ['scan_start_time=2025-06-04T09:00:00Z', (s) => s.scan_start_time >= '2025-06-04T09:00:00.000Z'],
    ['scan_start_time=2025-08-01', (s) => s.scan_start_time >= '2025-08-01'],
  ];
  const cases = [
    ...ends.flatMap(([end, to]) =>
      others.map(([other, keep]) => [`${other}&${end}`, (s: Seeded) => keep(s) && endBy(to)(s)] as const),
    ),
    // A rare value with a start bound (valuesWhere.ts: its own index, the bound tested).
    ...(['2025-05-01', '2025-06-04', '2025-09-01'] as const).flatMap((from) => [
      [
        `model=zest&scan_start_time=${from}`,
        (s: Seeded) => s.model === 'Zest' && s.scan_start_time >= from,
      ] as const,
      // A fragment of two values ('City', 'city') since a time: on PostgreSQL read as those
      // values through their sort index (startPlan.ts `fragmentSince`).
      [
        `model=CITY&scan_start_time=${from}`,
        (s: Seeded) => lower(s.model).includes('city') && s.scan_start_time >= from,
      ] as const,
      [
        `email=zoe&scan_start_time=${from}`,
        (s: Seeded) => s.email.startsWith('zoe') && s.scan_start_time >= from,
      ] as const,
    ]),
  ];

  const newestFirst = (a: Seeded, b: Seeded) =>
    a.scan_start_time === b.scan_start_time ? b.id - a.id : a.scan_start_time < b.scan_start_time ? 1 : -1;

  async function expectPagesMatch() {
    for (const [filter, keep] of cases) {
      const expected = scans
        .filter(keep)
        .sort(newestFirst)
        .map((s) => s.id);
      await expectScanPages(t.app, headers, filter, expected, [4, 25]);
    }
  }

  it('pages a value or a start bound with an end bound exactly as the rows are', async () => {
    await expectPagesMatch();
  });

  it('sorts them by another column with the same totals', async () => {
    for (const [filter, keep] of cases.slice(0, 11)) {
      const expected = scans.filter(keep).length;
      const res = await t.app.inject({
        url: `/api/ScanDetail?limit=5&sort=make&order=asc&${filter}`,
        headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().total, filter).toBe(expected);
    }
  });

  it('keeps totals and pages exact through inserts, updates and deletes', async () => {
    for (let i = 110; i < 130; i += 1) {
      const s = scanOf(i);
      scans.push({ ...s, id: await insertScan(t.db, s) });
    }
    const changes: Partial<Seeded>[] = [
      { scan_end_time: null },
      { scan_end_time: '2025-06-10T23:59:59.999Z', make: 'Tata' },
      { scan_end_time: '2025-05-20T00:00:00.000Z', email: 'ravi.9@garage.example', model: 'CITY' },
      { scan_start_time: '2025-07-09T01:00:00.000Z', country_id: 91, type: 'Generic' },
    ];
    for (const [k, change] of changes.entries()) {
      const row = scans[5 + k * 11] as Seeded;
      await t.db.kysely.updateTable('scans').set(change).where('id', '=', row.id).execute();
      Object.assign(row, change);
    }
    const gone = scans.splice(20, 6);
    await t.db.kysely
      .deleteFrom('scans')
      .where(
        'id',
        'in',
        gone.map((s) => s.id),
      )
      .execute();
    await expectPagesMatch();
  });

  it('pages a sort whose column follows the filter (a VIN names its make) exactly', async () => {
    // Honda's VINs sort after every other: a walk of the VIN index ascending meets no Honda for
    // most of the table, so its budget runs out and the matches are sorted instead; descending
    // it meets them at once. Both must give the rows' own order.
    const rows = scans.map((s) => ({
      id: s.id,
      vin: `${lower(s.make).includes('hond') ? 'Z' : 'A'}${String(s.id).padStart(6, '0')}`,
      make: s.make,
      end: s.scan_end_time,
    }));
    for (const r of rows)
      await t.db.kysely.updateTable('scans').set({ vin: r.vin }).where('id', '=', r.id).execute();
    for (const [filter, keep] of [
      ['make=hond', (r: (typeof rows)[number]) => lower(r.make).includes('hond')],
      ['make=tata', (r: (typeof rows)[number]) => lower(r.make).includes('tata')],
      [
        'make=hond&scan_end_time=2025-06-10',
        (r: (typeof rows)[number]) =>
          lower(r.make).includes('hond') && r.end !== null && r.end <= '2025-06-10T23:59:59.999Z',
      ],
    ] as const)
      for (const order of ['asc', 'desc'] as const) {
        const expected = expectedOrder(rows.filter(keep), 'vin', order);
        for (const limit of [2, 9]) {
          const seen: number[] = [];
          for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page += 1) {
            const res = await t.app.inject({
              url: `/api/ScanDetail?limit=${limit}&page=${page}&sort=vin&order=${order}&${filter}`,
              headers,
            });
            expect(res.statusCode, res.body).toBe(200);
            expect(res.json().total, `${filter} ${order} page ${page}`).toBe(expected.length);
            seen.push(...res.json().scans.map((s: { id: number }) => s.id));
          }
          expect(seen, `${filter} by vin ${order}, ${limit} a page`).toEqual(expected);
        }
      }
  });

  it('pages special-function runs of one value with a flag, walked in the index of the value', async () => {
    // Over 30 matches of one make: the make's (value, time) index is walked, the flag tested on
    // each entry (PostgreSQL: as `= ANY` of one, so that the flag's own index is not walked).
    const runs: { id: number; make: string; ended: boolean; hardCoded: boolean; start: string }[] = [];
    for (let i = 0; i < 120; i += 1) {
      const run = {
        make: i % 12 < 7 ? 'Tata' : 'Skoda',
        ended: i % 10 !== 3,
        hardCoded: i % 3 === 0,
        start: new Date(Date.UTC(2025, 5, 1 + (i % 20), i % 24)).toISOString(),
      };
      const id = await insertSpecialFunction(t.db, {
        make: run.make,
        scan_ended: run.ended,
        hard_coded: run.hardCoded,
        scan_start_time: run.start,
      });
      runs.push({ ...run, id });
    }
    const newestFirst = (a: (typeof runs)[number], b: (typeof runs)[number]) =>
      a.start === b.start ? b.id - a.id : a.start < b.start ? 1 : -1;
    for (const [filter, keep] of [
      ['make=tata&scan_ended=true', (r: (typeof runs)[number]) => r.make === 'Tata' && r.ended],
      ['make=tata&scan_ended=false', (r: (typeof runs)[number]) => r.make === 'Tata' && !r.ended],
      ['make=tata&hard_coded=true', (r: (typeof runs)[number]) => r.make === 'Tata' && r.hardCoded],
      ['scan_ended=true&hard_coded=false', (r: (typeof runs)[number]) => r.ended && !r.hardCoded],
    ] as const)
      await expectListPages(
        t.app,
        headers,
        { path: '/api/SpecialFunctions', key: 'scans' },
        filter,
        runs
          .filter(keep)
          .sort(newestFirst)
          .map((r) => r.id),
        [7, 30],
      );
  });

  it('totals special-function runs by a value or a start bound with an end bound', async () => {
    const runs: { make: string; user_email: string; start: string; end: string | null }[] = [];
    for (let i = 0; i < 40; i += 1) {
      const start = new Date(Date.UTC(2025, 2 + (i % 3), 1 + (i % 10) * 3, i % 24)).toISOString();
      const end =
        i % 6 === 0
          ? null
          : new Date(Date.parse(start) + ([600_000, 30 * 3600_000, -60_000][i % 3] as number)).toISOString();
      const run = {
        make: ['Kia', 'KIA', 'Skoda'][i % 3] as string,
        user_email: `op${i % 4}@fleet.example`,
        start,
        end,
      };
      const id = await insertSpecialFunction(t.db, {
        make: run.make,
        user_email: run.user_email,
        scan_start_time: start,
      });
      await t.db.kysely
        .updateTable('special_function_runs')
        .set({ scan_end_time: end })
        .where('id', '=', id)
        .execute();
      runs.push(run);
    }
    const to = '2025-04-10T23:59:59.999Z';
    const ended = (r: (typeof runs)[number]) => r.end !== null && r.end <= to;
    for (const [filter, keep] of [
      ['make=kia', (r: (typeof runs)[number]) => r.make.toLowerCase() === 'kia'],
      ['email=op1', (r: (typeof runs)[number]) => r.user_email.startsWith('op1')],
      ['scan_start_time=2025-03-13', (r: (typeof runs)[number]) => r.start >= '2025-03-13'],
      ['scan_ended=true', () => true],
    ] as const) {
      const res = await t.app.inject({
        url: `/api/SpecialFunctions?limit=100&${filter}&scan_end_time=2025-04-10`,
        headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = runs.filter((r) => keep(r) && ended(r)).length;
      expect(res.json().total, filter).toBe(expected);
      expect(res.json().scans.length, filter).toBe(expected);
    }
  });
});
