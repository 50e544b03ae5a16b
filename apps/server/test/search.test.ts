import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindOf } from '../src/modules/search/repository.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertScan, insertUser } from './operationsFactories.ts';

const decoded = (...codes: string[]) => [
  {
    system: 'Engine',
    pid: '03',
    data: '',
    protocol: null,
    header: '7E8',
    decodedFaultArray: Object.fromEntries(codes.map((c) => [c, `title of ${c}`])),
  },
];

describe('what a search text is taken for', () => {
  it('tells codes, VINs, e-mails, plates and text apart by their shape', () => {
    expect(kindOf('P0300')).toBe('dtc');
    expect(kindOf('u0100')).toBe('dtc');
    expect(kindOf('P0300-01')).toBe('dtc');
    expect(kindOf('1HGCM82633A004352')).toBe('vin');
    expect(kindOf('sharma@')).toBe('email');
    expect(kindOf('MH 12 AB 1234')).toBe('plate');
    expect(kindOf('KA01XY1001')).toBe('plate');
    expect(kindOf('Honda')).toBe('text');
    expect(kindOf('misfire')).toBe('text');
  });
});

describe.each(DIALECTS)('search on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const ids = { a: 0, b: 0, c: 0 };
  const get = (query: string) => t.app.inject({ url: `/api/search?${query}`, headers });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    const k = t.db.kysely;
    await k
      .insertInto('makes')
      .values([
        { name: 'Honda', segment: 'car' },
        { name: 'Honda Bikes', segment: 'bike' },
        { name: 'Hero', segment: 'bike' },
      ])
      .execute();
    await k
      .insertInto('fault_codes')
      .values([
        {
          dtc: 'P0300',
          make: null,
          company_id: 0,
          generic: 1,
          title: 'Random misfire',
          severity: 3,
          repair_difficulty: 2,
        },
        {
          dtc: 'P0301',
          make: null,
          company_id: 0,
          generic: 1,
          title: 'Cylinder 1 misfire',
          severity: 3,
          repair_difficulty: 2,
        },
        {
          dtc: 'P0300',
          make: 'Honda',
          company_id: 5,
          generic: 0,
          title: 'Misfire (Honda)',
          severity: 3,
          repair_difficulty: 2,
        },
      ])
      .execute();
    await insertUser(t.db, { email: 'ravi.sharma@example.com' });
    await insertUser(t.db, { email: 'anita.sharma@example.com' });
    await insertUser(t.db, { email: 'john@example.org' });
    ids.a = await insertScan(t.db, {
      email: 'ravi.sharma@example.com',
      make: 'Honda',
      license_plate: 'MH 12 AB 1234',
      scan_start_time: '2026-03-01T10:00:00.000Z',
      decoded_array: decoded('P0300'),
    });
    ids.b = await insertScan(t.db, {
      email: 'john@example.org',
      make: 'Hero',
      license_plate: 'KA 01 XY 9999',
      scan_start_time: '2026-03-02T10:00:00.000Z',
      decoded_array: decoded('P0300', 'P0171'),
    });
    ids.c = await insertScan(t.db, {
      email: 'ravi.sharma@example.com',
      make: 'Honda',
      license_plate: 'MH 12 CD 5678',
      scan_start_time: '2026-03-03T10:00:00.000Z',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds a fault code in the reference and the scans that reported it, newest first', async () => {
    const res = await get('q=p0300');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.kind).toBe('dtc');
    expect(body.faultCodes.hits.map((h: { dtc: string; make: string | null }) => [h.dtc, h.make])).toEqual([
      ['P0300', null],
      ['P0300', 'Honda'],
    ]);
    expect(body.faultCodes.hits[0].title).toBe('Random misfire');
    expect(body.faultCodes.seeAll).toEqual({ dtc: 'P0300' });
    expect(body.scans.hits.map((s: { id: number }) => s.id)).toEqual([ids.b, ids.a]);
    expect(body.scans.seeAll).toEqual({ dtc: 'P0300' });
    expect(body.users.hits).toEqual([]);
  });

  it('finds a scan by its VIN and says its vehicle', async () => {
    const [scan] = await t.db.kysely
      .selectFrom('scans')
      .select(['id', 'vin'])
      .where('id', '=', ids.c)
      .execute();
    const res = await get(`q=${scan?.vin?.toLowerCase()}`);
    const body = res.json();
    expect(body.kind).toBe('vin');
    expect(body.scans.hits).toHaveLength(1);
    expect(body.scans.hits[0]).toMatchObject({ id: ids.c, make: 'Honda', model: 'Civic', vin: scan?.vin });
  });

  it('finds app users and their scans by e-mail, with "more" when the limit cuts', async () => {
    const res = await get('q=sharma@&limit=1');
    const body = res.json();
    expect(body.kind).toBe('email');
    expect(body.users.hits).toHaveLength(1);
    expect(body.users.more).toBe(true);
    expect(body.users.hits[0]).toEqual({
      id: expect.any(Number),
      email: 'anita.sharma@example.com',
      name: expect.any(String),
      plan: 'free',
      status: 'active',
    });
    expect(body.users.hits[0]).not.toHaveProperty('auth_token');
    expect(body.scans.hits.map((s: { id: number }) => s.id)).toEqual([ids.c]);
    expect(body.scans.more).toBe(true);
    expect(body.scans.seeAll).toEqual({ email: 'sharma@' });
  });

  it('finds the scans of an address typed whole (any case) by its own key, newest first', async () => {
    const body = (await get(`q=${encodeURIComponent('Ravi.Sharma@Example.com')}`)).json();
    expect(body.kind).toBe('email');
    expect(body.scans.hits.map((s: { id: number }) => s.id)).toEqual([ids.c, ids.a]);
    expect(body.scans.seeAll).toEqual({ email: 'Ravi.Sharma@Example.com' });
    // An address no scan has: the contains search still answers (none here).
    expect((await get('q=nobody%40example.com')).json().scans.hits).toEqual([]);
  });

  it('finds scans by a licence plate, whole or in part', async () => {
    const whole = (await get(`q=${encodeURIComponent('MH 12 AB 1234')}`)).json();
    expect(whole.kind).toBe('plate');
    expect(whole.scans.hits.map((s: { id: number }) => s.id)).toEqual([ids.a]);
    const part = (await get(`q=${encodeURIComponent('mh 12')}`)).json();
    expect(part.scans.hits.map((s: { id: number }) => s.id)).toEqual([ids.c, ids.a]);
    expect(part.scans.seeAll).toEqual({ license_plate: 'mh 12' });
  });

  it('finds makes, and the scans of a make named exactly', async () => {
    const body = (await get('q=honda')).json();
    expect(body.kind).toBe('text');
    expect(body.makes.hits.map((m: { name: string }) => m.name)).toEqual(['Honda', 'Honda Bikes']);
    expect(body.scans.hits.map((s: { id: number }) => s.id)).toEqual([ids.c, ids.a]);
    expect(body.scans.seeAll).toEqual({ make: 'Honda' });
    const titles = (await get('q=misfire')).json();
    expect(titles.faultCodes.hits.map((h: { dtc: string }) => h.dtc)).toEqual(['P0300', 'P0301', 'P0300']);
  });

  it('answers an empty result for what matches nothing, and takes wildcards literally', async () => {
    for (const q of ['zzzz-nothing', '%', '100%_x']) {
      const res = await get(`q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
      const body = res.json();
      expect([body.scans.hits, body.users.hits, body.makes.hits, body.faultCodes.hits].flat()).toEqual([]);
    }
  });

  it('refuses a missing, empty or too long text, and a bad limit, with a sentence (400)', async () => {
    for (const [query, words] of [
      ['', 'q is required'],
      ['q=%20%20', 'q is required'],
      [`q=${'a'.repeat(101)}`, 'q is at most 100 characters'],
      ['q=honda&limit=0', 'limit must be a whole number from 1 to 20'],
      ['q=honda&limit=abc', 'limit must be a whole number from 1 to 20'],
    ] as const) {
      const res = await get(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toContain(words);
    }
  });

  it('is for signed-in operators only', async () => {
    expect((await t.app.inject({ url: '/api/search?q=honda' })).statusCode).toBe(401);
  });
});
