import { beforeAll, describe, expect, it } from 'vitest';
import { csv, multipart } from './fixtures/uploads.ts';
import { DIALECTS, ownTemporaryFolder, type TestContext } from './helpers.ts';
import { insertScan } from './operationsFactories.ts';
import { addDays, codesOf, decoded, overviewSuite, SEGMENTS } from './overviewSuite.ts';

ownTemporaryFolder('obd-overview-test-');

/**
 * The overview (issue 13) against the rows themselves: every figure and series is computed
 * (overviewSuite.ts) from the scans, runs, users, imports and coverage read back from the database,
 * independently of the server's counters, for several periods, and again after writes (inserts, an
 * update, a delete) and an import that adds a make some scans already named.
 */
describe.each(DIALECTS)('overview on %s', (dialect) => {
  const suite = overviewSuite(dialect);
  const { rows, expected } = suite;
  let t: TestContext;
  let headers: Record<string, string>;
  let editor: Record<string, string>;
  beforeAll(() => {
    ({ t, headers, editor } = suite);
  });

  async function check(from: string, to: string) {
    const res = await t.app.inject({ url: `/api/overview?from=${from}&to=${to}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const { coverage, ...body } = res.json();
    expect(body).toEqual(await expected(from, to));
    return { body, coverage };
  }

  /** The per-scan code table holds exactly the codes of every scan's decoded array. */
  async function checkScanDtcs() {
    const scans = await rows<{ id: number; decoded_array: string; scan_start_time: string }>(
      'SELECT id, decoded_array, scan_start_time FROM scans',
    );
    const want = scans
      .flatMap((s) => codesOf(s.decoded_array).map((dtc) => `${s.id} ${dtc} ${s.scan_start_time}`))
      .sort();
    const have = (
      await rows<{ scan_id: number; dtc: string; scan_start_time: string }>('SELECT * FROM scan_dtcs')
    )
      .map((r) => `${r.scan_id} ${r.dtc} ${r.scan_start_time}`)
      .sort();
    expect(have).toEqual(want);
  }

  it('answers every figure and series of a period from the rows, with the previous period', async () => {
    const { body, coverage } = await check('2026-03-01', '2026-03-31');
    expect(body.figures.scans).toEqual({ value: 6, previous: 2 });
    expect(body.topFaultCodes[0]).toEqual({ dtc: 'P0300', title: 'Random misfire', scans: 2 });
    expect(coverage).toEqual({
      functionTypes: ['live_data', 'scan', 'service'],
      makes: [
        { make: 'Honda', total: 3, counts: [1, 1, 1] },
        { make: 'Hero', total: 1, counts: [0, 1, 0] },
      ],
    });
    await checkScanDtcs();
  });

  it('answers periods of a day, of days across months, of whole months and of everything', async () => {
    await check('2026-03-01', '2026-03-01');
    await check('2026-02-27', '2026-03-02');
    await check('2026-02-15', '2026-04-20');
    await check('2026-02-01', '2026-04-30');
    await check('2025-01-01', '2026-12-31');
    await check('2027-01-01', '2027-01-31');
  });

  it('stays exact after inserts, an update, a delete and an import adding a make scans already named', async () => {
    const k = t.db.kysely;
    await insertScan(t.db, {
      scan_start_time: '2026-03-15T10:00:00.000Z',
      email: 'f@example.com',
      make: 'Bajaj 3 Wheelers',
      decoded_array: decoded('P0300', 'B1234'),
    });
    const [first] = await rows<{ id: number }>("SELECT id FROM scans WHERE make = 'Piaggio'");
    await k
      .updateTable('scans')
      .set({ decoded_array: JSON.stringify(decoded('P0420')), scan_start_time: '2026-03-20T10:00:00.000Z' })
      .where('id', '=', Number(first?.id))
      .execute();
    await k.deleteFrom('scans').where('scan_start_time', '=', '2026-03-10T10:00:00.000Z').execute();
    await checkScanDtcs();
    await check('2026-03-01', '2026-03-31');

    // The import adds the make 'Bajaj 3 Wheelers' (three-wheeler): its scans leave 'other'.
    const before = await check('2026-03-01', '2026-03-31');
    expect(before.body.scansPerDay.find((d: { day: string }) => d.day === '2026-03-02').other).toBe(1);
    const body = multipart(
      { sheetName: 'Bajaj 3 Wheelers' },
      {
        name: 'commands.csv',
        data: csv([
          ['command', 'module', 'function_type', 'full_scan'],
          ['22 F1 90', 'Engine', 'scan', 1],
        ]),
      },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/UpdatesCommands',
      payload: body.payload,
      headers: { ...editor, ...body.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await check('2026-03-01', '2026-03-31');
    const day = after.body.scansPerDay.find((d: { day: string }) => d.day === '2026-03-02');
    expect([day.other, day.three_wheeler]).toEqual([0, 1]);
    expect(after.body.figures.imports.value).toBe(before.body.figures.imports.value);
    const today = new Date().toISOString().slice(0, 10);
    const todays = await t.app.inject({ url: `/api/overview?from=${today}&to=${today}`, headers });
    expect(todays.json().figures.imports.value).toBeGreaterThanOrEqual(1);
    await check(today, today);
    await check('2026-02-01', '2026-04-30');
  });

  it('filters the scans list by a reported fault code, with its exact total, alone and with other filters', async () => {
    const scans = await rows<{ id: number; scan_start_time: string; make: string; decoded_array: string }>(
      'SELECT id, scan_start_time, make, decoded_array FROM scans',
    );
    const newestFirst = (list: typeof scans) =>
      list
        .sort((a, b) =>
          a.scan_start_time < b.scan_start_time
            ? 1
            : a.scan_start_time > b.scan_start_time
              ? -1
              : b.id - a.id,
        )
        .map((s) => s.id);
    for (const [query, code, make] of [
      ['dtc=p0300', 'P0300', undefined],
      ['dtc=P0420', 'P0420', undefined],
      ['dtc=P0300&make=hero', 'P0300', 'Hero'],
      ['dtc=P9999', 'P9999', undefined],
    ] as const) {
      const want = newestFirst(
        scans.filter((s) => codesOf(s.decoded_array).includes(code) && (!make || s.make === make)),
      );
      for (const page of [1, 2]) {
        const res = await t.app.inject({ url: `/api/ScanDetail?${query}&limit=2&page=${page}`, headers });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body.total, query).toBe(want.length);
        expect(
          body.scans.map((s: { id: number }) => s.id),
          query,
        ).toEqual(want.slice((page - 1) * 2, page * 2));
      }
    }
  });

  it('opens each mark as a list giving the same rows: a segment of a day, actuations and new users of the period, imports of a day', async () => {
    const period = 'from=2026-03-01&to=2026-03-31';
    const body = (await t.app.inject({ url: `/api/overview?${period}`, headers })).json();
    const total = async (url: string) => {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    // A segment of a day's bar: the scans of that day whose make is of that segment ('other': no such make).
    const scans = await rows<{ make: string; scan_start_time: string; scan_end_time: string | null }>(
      'SELECT make, scan_start_time, scan_end_time FROM scans',
    );
    const makes = await rows<{ name: string; segment: string }>('SELECT name, segment FROM makes');
    const segmentOf = (make: string) => makes.find((m) => m.name === make)?.segment ?? 'other';
    for (const day of ['2026-03-01', '2026-03-02', '2026-03-10']) {
      const bar = body.scansPerDay.find((r: { day: string }) => r.day === day);
      for (const segment of [...SEGMENTS, 'other']) {
        const want = scans.filter(
          (s) =>
            s.scan_start_time >= `${day}T00:00:00.000Z` &&
            s.scan_end_time !== null &&
            s.scan_end_time <= `${day}T23:59:59.999Z` &&
            segmentOf(s.make) === segment,
        ).length;
        const url = `/api/ScanDetail?scan_start_time=${day}&scan_end_time=${day}&segment=${segment}`;
        expect(await total(url), url).toBe(want);
        // The bar's segment counts every scan started that day (the list: those that also end that day).
        const started = scans.filter(
          (s) => s.scan_start_time.slice(0, 10) === day && segmentOf(s.make) === segment,
        ).length;
        expect(bar?.[segment] ?? 0, `${day} ${segment}`).toBe(started);
      }
    }
    expect(await total('/api/ScanDetail?segment=CAR')).toBe(
      scans.filter((s) => segmentOf(s.make) === 'car').length,
    );
    expect(await total('/api/ScanDetail?segment=other')).toBe(
      scans.filter((s) => segmentOf(s.make) === 'other').length,
    );
    expect(await total('/api/ScanDetail?segment=nonsense')).toBe(0);
    // The actuation and new-user figures: their lists over the same days.
    expect(await total('/api/ActuationsDetail?created_from=2026-03-01&created_to=2026-03-31')).toBe(
      body.figures.actuationRuns.value,
    );
    const users = await t.app.inject({
      url: '/api/users?created_from=2026-03-01&created_to=2026-03-31',
      headers,
    });
    expect(users.statusCode, users.body).toBe(200);
    expect(users.json().total).toBe(body.figures.newUsers.value);
    // A day of imports, and one outcome of it.
    const importsOf = async (query: string) => {
      const res = await t.app.inject({ url: `/api/imports?${query}`, headers: editor });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    const day = body.importsPerDay.find((r: { day: string }) => r.day === '2026-03-03');
    expect(await importsOf('day=2026-03-03&status=failed')).toBe(day.failed);
    expect(await importsOf('day=2026-03-03&status=succeeded')).toBe(day.succeeded);
    expect(await importsOf('day=2026-03-03')).toBe(day.failed + day.succeeded + day.running);
    expect(await importsOf('day=2026-02-03')).toBe(1);
    // Hostile values: a sentence, never a 500.
    for (const url of [
      '/api/imports?day=yesterday',
      '/api/imports?day=2026-13-45',
      '/api/users?created_from=soon',
      '/api/ActuationsDetail?created_to=x',
    ]) {
      const res = await t.app.inject({ url, headers: editor });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('defaults to the last 30 days, today included', async () => {
    const res = await t.app.inject({ url: '/api/overview', headers });
    expect(res.statusCode, res.body).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.json().period).toEqual({ from: addDays(today, -29), to: today, days: 30 });
  });

  it('refuses bad periods with a sentence (400)', async () => {
    for (const [query, words] of [
      ['from=yesterday', 'from must be a date such as 2026-03-01'],
      ['to=2026-02-30', 'to must be a date such as 2026-03-01'],
      ['from=2026-03-10&to=2026-03-01', 'must not be after to'],
      ['from=1990-01-01&to=2026-01-01', 'a period is at most'],
    ]) {
      const res = await t.app.inject({ url: `/api/overview?${query}`, headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toContain(words);
    }
  });

  it('is for signed-in operators only', async () => {
    expect((await t.app.inject({ url: '/api/overview' })).statusCode).toBe(401);
  });
});
