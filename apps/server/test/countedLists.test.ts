import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertScan } from './operationsFactories.ts';
import { expectScanPages } from './scanPages.ts';

/**
 * The counted lists (migration 004, countedList.ts) answer totals from counters and start deep
 * pages from a day bound. Whatever path a query takes, every page must be exactly the slice of
 * the full ordered result, and the total its length — checked here against the rows themselves,
 * after inserts, an update and a delete.
 */
describe.each(DIALECTS)('counted activity lists on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  interface Seeded {
    id: number;
    email: string;
    make: string;
    country_id: number | null;
    type: string | null;
    license_plate: string;
    scan_start_time: string;
    scan_end_time: string | null;
  }
  const scans: Seeded[] = [];
  const makes = ['Honda', 'Hyundai', 'Tata', 'HONDA', 'Maruti Suzuki'];
  const types = ['OBD', 'Generic', null];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < 90; i += 1) {
      // Eight days in each of three months, several rows per day, some sharing a start time (the
      // id breaks the tie): deep pages start from day and month buckets (migrations 004, 007).
      const month = 4 + (Math.floor(i / 2) % 3);
      const start = new Date(
        Date.UTC(2025, month, 1 + (i % 8), (i * 7) % 24, i % 3 === 0 ? 0 : i),
      ).toISOString();
      const s = {
        email: `${['asha', 'ravi', 'meera'][i % 3]}.${i % 5}@garage.example`,
        make: makes[i % makes.length] as string,
        country_id: i % 4 === 0 ? null : ([91, 44][i % 2] as number),
        type: types[i % 3] ?? null,
        license_plate: `KA0${i % 4} XY ${1000 + i}`,
        scan_start_time: start,
        scan_end_time: i % 6 === 0 ? null : new Date(Date.parse(start) + (i % 5) * 3600_000).toISOString(),
      };
      scans.push({ ...s, id: await insertScan(t.db, s) });
    }
    // One row of its own: a filter this rare is sorted through its index instead of walked.
    const solo = {
      email: 'zed@garage.example',
      make: 'Tata',
      country_id: 44,
      type: 'OBD',
      license_plate: 'DL 1 ZZ 1',
      scan_start_time: '2025-05-03T12:00:00.000Z',
      scan_end_time: null,
    };
    scans.push({ ...solo, id: await insertScan(t.db, solo) });
    // And one whose address holds a digit no other does.
    const digit = { ...solo, email: 'zed9@garage.example', scan_start_time: '2025-06-02T08:00:00.000Z' };
    scans.push({ ...digit, id: await insertScan(t.db, digit) });
  });
  afterAll(() => t.close());

  const lower = (v: string | null) => (v ?? '').toLowerCase();
  const cases: [string, (s: Seeded) => boolean][] = [
    ['', () => true],
    ['make=hond', (s) => lower(s.make).includes('hond')],
    ['make=a', (s) => lower(s.make).includes('a')],
    ['email=RAVI', (s) => lower(s.email).includes('ravi')],
    ['type=generic', (s) => lower(s.type).includes('generic')],
    ['country_id=91', (s) => s.country_id === 91],
    ['scan_start_time=2025-05-04T10:00:00Z', (s) => s.scan_start_time >= '2025-05-04T10:00:00.000Z'],
    [
      'scan_end_time=2025-05-05T12:00:00Z',
      (s) => s.scan_end_time !== null && s.scan_end_time <= '2025-05-05T12:00:00.000Z',
    ],
    [
      'scan_end_time=2025-05-06',
      (s) => s.scan_end_time !== null && s.scan_end_time <= '2025-05-06T23:59:59.999Z',
    ],
    ['make=nomatch', () => false],
    ['email=zed', (s) => s.email.startsWith('zed')],
    ['email=ze', (s) => s.email.includes('ze')],
    // A fragment with a digit (PostgreSQL, page 1: the total and the page from one pass over its
    // matches while they are under 2 % of the rows, `countedList.ts`): rare, none, and frequent.
    ['email=ZED9', (s) => s.email.startsWith('zed9')],
    ['email=d9@', (s) => s.email.includes('d9@')],
    ['email=zed7', () => false],
    ['email=ravi.1', (s) => s.email.includes('ravi.1')],
    ['license_plate=ka01', (s) => lower(s.license_plate).includes('ka01')],
    // Two characters: no trigram to look them up, so page 1 walks the time order like the others.
    ['license_plate=03', (s) => lower(s.license_plate).includes('03')],
    ['make=hond&country_id=44', (s) => lower(s.make).includes('hond') && s.country_id === 44],
    // Two counted filters together: totals from migration 017's pair counters, walked or sorted.
    ['country_id=91&type=OBD', (s) => s.country_id === 91 && lower(s.type).includes('obd')],
    ['email=ravi&make=a', (s) => lower(s.email).includes('ravi') && lower(s.make).includes('a')],
    ['email=ze&type=obd', (s) => lower(s.email).includes('ze') && lower(s.type).includes('obd')],
    ['make=tata&email=zed', (s) => lower(s.make).includes('tata') && lower(s.email).includes('zed')],
    // The rare one found through its index, the frequent value tested on its rows (PostgreSQL:
    // written off that value's index, `pairPlan.ts`).
    ['email=zed&country_id=44', (s) => lower(s.email).includes('zed') && s.country_id === 44],
    ['email=zed&country_id=91', () => false],
    ['type=generic&make=nomatch', () => false],
    // One value of a column counted per day drives (its (value, time) index: 017 on SQLite, 025
    // on PostgreSQL), the other tested on its entries.
    ['make=tata&type=generic', (s) => lower(s.make).includes('tata') && lower(s.type).includes('generic')],
    ['type=generic&country_id=44', (s) => lower(s.type).includes('generic') && s.country_id === 44],
    ['make=tata&email=ravi', (s) => lower(s.make).includes('tata') && lower(s.email).includes('ravi')],
    ['country_id=91&email=e', (s) => s.country_id === 91 && lower(s.email).includes('e')],
    // A plate fragment (uncounted) with others: found through its own index, the others tested
    // on its rows (PostgreSQL: kept off their indexes), page 1 and deeper pages sorted.
    [
      'license_plate=ka01&make=hond',
      (s) => lower(s.license_plate).includes('ka01') && lower(s.make).includes('hond'),
    ],
    [
      'license_plate=ka01&country_id=91',
      (s) => lower(s.license_plate).includes('ka01') && s.country_id === 91,
    ],
    [
      'license_plate=ka01&email=ravi',
      (s) => lower(s.license_plate).includes('ka01') && lower(s.email).includes('ravi'),
    ],
    [
      'license_plate=XY 1&scan_start_time=2025-05-04T10:00:00Z&type=obd',
      (s) =>
        lower(s.license_plate).includes('xy 1') &&
        s.scan_start_time >= '2025-05-04T10:00:00.000Z' &&
        lower(s.type).includes('obd'),
    ],
    [
      'license_plate=ka0&scan_end_time=2025-05-06',
      (s) =>
        lower(s.license_plate).includes('ka0') &&
        s.scan_end_time !== null &&
        s.scan_end_time <= '2025-05-06T23:59:59.999Z',
    ],
    ['license_plate=ka&make=a', (s) => lower(s.license_plate).includes('ka') && lower(s.make).includes('a')],
    // Three filters, and a counted one with a date: the general path.
    [
      'make=a&country_id=91&type=obd',
      (s) => lower(s.make).includes('a') && s.country_id === 91 && lower(s.type).includes('obd'),
    ],
    [
      'email=ravi&scan_end_time=2025-05-06',
      (s) =>
        lower(s.email).includes('ravi') &&
        s.scan_end_time !== null &&
        s.scan_end_time <= '2025-05-06T23:59:59.999Z',
    ],
    [
      'scan_start_time=2025-05-03&scan_end_time=2025-05-06',
      (s) =>
        s.scan_start_time >= '2025-05-03' &&
        s.scan_end_time !== null &&
        s.scan_end_time <= '2025-05-06T23:59:59.999Z',
    ],
    [
      'make=hond&scan_start_time=2025-06-01',
      (s) => lower(s.make).includes('hond') && s.scan_start_time >= '2025-06-01',
    ],
    // Three filters or more on SQLite: the one of the fewest rows left to its index, the others
    // tested on its rows (`valuesWhere.ts`) — an exact value, a counted one, a start bound or a
    // rare value driving.
    [
      'country_id=44&type=obd&scan_start_time=2025-05-04T10:00:00Z',
      (s) =>
        s.country_id === 44 &&
        lower(s.type).includes('obd') &&
        s.scan_start_time >= '2025-05-04T10:00:00.000Z',
    ],
    [
      'make=tata&country_id=91&scan_start_time=2025-06-01',
      (s) => lower(s.make).includes('tata') && s.country_id === 91 && s.scan_start_time >= '2025-06-01',
    ],
    [
      'email=ravi&make=hond&country_id=44',
      (s) => lower(s.email).includes('ravi') && lower(s.make).includes('hond') && s.country_id === 44,
    ],
    [
      'email=zed9&make=tata&scan_start_time=2025-05-01',
      (s) =>
        lower(s.email).includes('zed9') &&
        lower(s.make).includes('tata') &&
        s.scan_start_time >= '2025-05-01',
    ],
    [
      'make=hond&country_id=44&scan_end_time=2025-05-06',
      (s) =>
        lower(s.make).includes('hond') &&
        s.country_id === 44 &&
        s.scan_end_time !== null &&
        s.scan_end_time <= '2025-05-06T23:59:59.999Z',
    ],
    [
      'make=a&type=generic&scan_start_time=2025-05-02&scan_end_time=2025-06-06',
      (s) =>
        lower(s.make).includes('a') &&
        lower(s.type).includes('generic') &&
        s.scan_start_time >= '2025-05-02' &&
        s.scan_end_time !== null &&
        s.scan_end_time <= '2025-06-06T23:59:59.999Z',
    ],
    // An exact value since a time (PostgreSQL: its days after the bound's, its rows of that day
    // from the bound on, its pages walked in its (value, time) index: `startPlan.ts` exactSince),
    // the bound within a day holding its rows on both sides, on one of its rows' time, and on
    // a day without its rows.
    [
      'country_id=44&scan_start_time=2025-05-06T19:30:00Z',
      (s) => s.country_id === 44 && s.scan_start_time >= '2025-05-06T19:30:00.000Z',
    ],
    [
      'country_id=91&scan_start_time=2025-06-03T14:26:00Z',
      (s) => s.country_id === 91 && s.scan_start_time >= '2025-06-03T14:26:00.000Z',
    ],
    [
      'country_id=44&scan_start_time=2025-06-03',
      (s) => s.country_id === 44 && s.scan_start_time >= '2025-06-03',
    ],
  ];

  async function expectPagesMatch() {
    for (const [filter, keep] of cases) {
      const expected = scans
        .filter(keep)
        .sort((a, b) =>
          a.scan_start_time === b.scan_start_time
            ? b.id - a.id
            : a.scan_start_time < b.scan_start_time
              ? 1
              : -1,
        )
        .map((s) => s.id);
      // Pages of 3 lie wholly inside a month bucket (~10 rows of a name), so some are read from
      // the bucket's older end; pages of 7 cross buckets.
      await expectScanPages(t.app, headers, filter, expected, [7, 3]);
    }
  }

  it('pages every filter exactly as the rows are, with their exact totals', async () => {
    await expectPagesMatch();
  });

  it('keeps totals and pages exact through updates and deletes', async () => {
    const moved = scans[3] as Seeded;
    await t.db.kysely
      .updateTable('scans')
      .set({
        make: 'Tata',
        scan_start_time: '2025-07-09T01:00:00.000Z',
        country_id: 91,
        email: 'ravi.9@garage.example',
      })
      .where('id', '=', moved.id)
      .execute();
    Object.assign(moved, {
      make: 'Tata',
      scan_start_time: '2025-07-09T01:00:00.000Z',
      country_id: 91,
      email: 'ravi.9@garage.example',
    });
    const gone = scans.splice(10, 2);
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
});
