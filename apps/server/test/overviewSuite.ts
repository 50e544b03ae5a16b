import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../src/db/database.ts';
import { createTestApp, signedIn, type TestContext } from './helpers.ts';
import { insertActuationRun, insertScan, insertSpecialFunction, insertUser } from './operationsFactories.ts';

/**
 * The overview (issue 13) against the rows themselves: every figure and series is computed here
 * from the scans, runs, users, imports and coverage read back from the database, independently of
 * the server's counters, for several periods, and again after writes (inserts, an update, a
 * delete) and an import that adds a make some scans already named.
 */

export const SEGMENTS = ['car', 'bike', 'three_wheeler', 'hcv'];

export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The codes of a decoded array, as the app stores them: keys of every decodedFaultArray. */
export function codesOf(decoded: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(decoded);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const codes = new Set<string>();
  for (const entry of value) {
    const faults =
      entry && typeof entry === 'object' ? (entry as Record<string, unknown>).decodedFaultArray : null;
    if (!faults || typeof faults !== 'object' || Array.isArray(faults)) continue;
    for (const key of Object.keys(faults)) {
      const code = key.trim().toUpperCase();
      if (code !== '' && key.length <= 40) codes.add(code);
    }
  }
  return [...codes];
}

export const decoded = (...codes: string[]) => [
  {
    system: 'Engine',
    pid: '03',
    data: '',
    protocol: null,
    header: '7E8',
    decodedFaultArray: Object.fromEntries(codes.map((c) => [c, `title of ${c}`])),
  },
];

/**
 * The overview test's data set and what the overview should say about it: the rows seeded once per
 * file and dialect, an operator and an editor signed in, and `expected`, every figure computed
 * from the rows. Call inside the file's `describe.each`; `t`, `headers` and `editor` are set before
 * the file's own `beforeAll` hooks run.
 */
export function overviewSuite(dialect: Dialect) {
  let t: TestContext;
  let headers: Record<string, string>;
  let editor: Record<string, string>;

  const rows = async <T = Record<string, unknown>>(query: string) =>
    (await sql.raw<T>(query).execute(t.db.kysely)).rows as T[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    editor = (await signedIn(t.db, 'editor')).headers;
    const k = t.db.kysely;
    const makes = await k
      .insertInto('makes')
      .values([
        { name: 'Honda', segment: 'car' },
        { name: 'Hero', segment: 'bike' },
        { name: 'Piaggio', segment: 'three_wheeler' },
        { name: 'Tata Trucks', segment: 'hcv' },
      ])
      .returning(['id', 'name'])
      .execute();
    const id = (name: string) => makes.find((m) => m.name === name)?.id as number;
    await k
      .insertInto('coverage')
      .values([
        { make_id: id('Honda'), function_name: 'Read codes', function_type: 'scan' },
        { make_id: id('Honda'), function_name: 'Live data', function_type: 'live_data' },
        { make_id: id('Honda'), function_name: 'Oil reset', function_type: 'service' },
        { make_id: id('Hero'), function_name: 'Read codes', function_type: 'scan' },
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
          dtc: 'P0420',
          make: 'Honda',
          company_id: 5,
          generic: 0,
          title: 'Catalyst (Honda)',
          severity: 2,
          repair_difficulty: 3,
        },
      ])
      .execute();
    for (const [plan, status, created] of [
      ['free', 'active', '2026-02-20T10:00:00.000Z'],
      ['premium', 'active', '2026-03-02T10:00:00.000Z'],
      ['premium', 'expired', '2026-03-15T10:00:00.000Z'],
      ['pro', 'active', '2026-03-31T23:59:59.999Z'],
    ] as const)
      await insertUser(t.db, { plan, status, created_at: created });

    // Scans over February–April 2026: segments, makes (one unknown), versions, codes, e-mails.
    const plan: [string, string, string, string | null, string[] | string][] = [
      ['2026-02-27T08:00:00.000Z', 'a@example.com', 'Honda', '3.4.1', ['P0300', 'P0420']],
      ['2026-02-28T23:59:59.999Z', 'b@example.com', 'Hero', '3.4.1', ['P0300']],
      ['2026-03-01T00:00:00.000Z', 'a@example.com', 'Honda', '3.5.0', ['P0300', 'p0171 ']],
      ['2026-03-01T12:00:00.000Z', 'c@example.com', 'Piaggio', null, []],
      ['2026-03-02T09:00:00.000Z', 'a@example.com', 'Tata Trucks', '3.5.0', ['U0100']],
      ['2026-03-02T10:00:00.000Z', 'd@example.com', 'Bajaj 3 Wheelers', '3.5.0', ['P0300']],
      ['2026-03-10T10:00:00.000Z', 'd@example.com', 'Honda', '3.5.0', ['P0420', 'P0420']],
      ['2026-03-31T23:59:59.999Z', 'e@example.com', 'Hero', '3.4.1', 'not json'],
      ['2026-04-01T00:00:00.000Z', 'a@example.com', 'Honda', '3.5.0', ['C0035']],
      ['2026-04-15T00:00:00.000Z', 'b@example.com', 'Hero', '3.5.0', ['P0300']],
    ];
    for (const [time, email, make, version, codes] of plan) {
      const id = await insertScan(t.db, {
        scan_start_time: time,
        email,
        make,
        app_version: version,
        decoded_array: typeof codes === 'string' ? [] : decoded(...codes),
      });
      if (typeof codes === 'string')
        await k.updateTable('scans').set({ decoded_array: codes }).where('id', '=', id).execute();
    }
    for (const time of ['2026-02-10T10:00:00.000Z', '2026-03-05T10:00:00.000Z', '2026-03-06T10:00:00.000Z'])
      await insertSpecialFunction(t.db, { scan_start_time: time });
    for (const time of ['2026-03-20T10:00:00.000Z', '2026-04-02T10:00:00.000Z'])
      await insertActuationRun(t.db, { created_at: time });
    for (const [started, status] of [
      ['2026-03-03T10:00:00.000Z', 'succeeded'],
      ['2026-03-03T11:00:00.000Z', 'failed'],
      ['2026-02-03T11:00:00.000Z', 'failed'],
    ] as const) {
      await k
        .insertInto('imports')
        .values({
          operator_id: null,
          kind: 'fault_codes',
          file_name: 'f.csv',
          file_size: 1,
          file_hash: `${started}${status}`,
          status,
          rows_processed: 1,
          stats: null,
          errors: null,
          message: null,
          started_at: started,
          finished_at: started,
          phase: 'done',
          rows_total: 1,
          duplicate_of: null,
          heartbeat_at: null,
        })
        .execute();
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Everything the overview should say for [from, to], computed from the rows. */
  async function expected(from: string, to: string) {
    const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
    const prevFrom = addDays(from, -days);
    const prevTo = addDays(from, -1);
    const scans = await rows<{
      id: number;
      email: string;
      make: string;
      app_version: string | null;
      scan_start_time: string;
      decoded_array: string;
    }>('SELECT id, email, make, app_version, scan_start_time, decoded_array FROM scans');
    const makes = await rows<{ name: string; segment: string }>('SELECT name, segment FROM makes');
    const segmentOf = new Map(makes.map((m) => [m.name, m.segment]));
    const sf = await rows<{ scan_start_time: string }>('SELECT scan_start_time FROM special_function_runs');
    const act = await rows<{ created_at: string }>('SELECT created_at FROM actuation_runs');
    const users = await rows<{ plan: string; status: string; created_at: string }>(
      'SELECT plan, status, created_at FROM app_users',
    );
    const imports = await rows<{ status: string; started_at: string }>(
      'SELECT status, started_at FROM imports',
    );
    const codes = await rows<{ dtc: string; title: string | null; generic: number; id: number }>(
      'SELECT dtc, title, generic, id FROM fault_codes ORDER BY generic DESC, id',
    );
    const inDays = (time: string, a: string, b: string) => time.slice(0, 10) >= a && time.slice(0, 10) <= b;
    const figures = (a: string, b: string) => {
      const s = scans.filter((x) => inDays(x.scan_start_time, a, b));
      const im = imports.filter((x) => inDays(x.started_at, a, b));
      return {
        scans: s.length,
        specialFunctionRuns: sf.filter((x) => inDays(x.scan_start_time, a, b)).length,
        actuationRuns: act.filter((x) => inDays(x.created_at, a, b)).length,
        scanningUsers: new Set(s.map((x) => x.email)).size,
        newUsers: users.filter((u) => inDays(u.created_at, a, b)).length,
        imports: im.length,
        failedImports: im.filter((x) => x.status === 'failed').length,
      };
    };
    const now = figures(from, to);
    const before = figures(prevFrom, prevTo);
    const inPeriod = scans.filter((x) => inDays(x.scan_start_time, from, to));
    const tally = (keys: string[]) => {
      const m = new Map<string, number>();
      for (const key of keys) m.set(key, (m.get(key) ?? 0) + 1);
      return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    };
    const perDay = [];
    for (let d = from; d <= to; d = addDays(d, 1)) {
      const entry: Record<string, number | string> = {
        day: d,
        car: 0,
        bike: 0,
        three_wheeler: 0,
        hcv: 0,
        other: 0,
      };
      for (const x of inPeriod.filter((s) => s.scan_start_time.startsWith(d))) {
        const seg = segmentOf.get(x.make);
        const key = seg && SEGMENTS.includes(seg) ? seg : 'other';
        entry[key] = Number(entry[key]) + 1;
      }
      perDay.push(entry);
    }
    const titleOf = (dtc: string) => codes.find((c) => c.dtc === dtc)?.title ?? null;
    const importDays = new Map<string, Record<string, number | string>>();
    for (const im of imports.filter((x) => inDays(x.started_at, from, to))) {
      const day = im.started_at.slice(0, 10);
      const e = importDays.get(day) ?? { day, succeeded: 0, failed: 0, running: 0 };
      e[im.status] = Number(e[im.status]) + 1;
      importDays.set(day, e);
    }
    const sortedTimes = scans.map((s) => s.scan_start_time).sort();
    return {
      period: { from, to, days },
      previousPeriod: { from: prevFrom, to: prevTo },
      scanDays: {
        first: sortedTimes[0]?.slice(0, 10) ?? null,
        last: sortedTimes.at(-1)?.slice(0, 10) ?? null,
      },
      figures: Object.fromEntries(
        Object.keys(now).map((key) => [
          key,
          { value: now[key as keyof typeof now], previous: before[key as keyof typeof before] },
        ]),
      ),
      scansPerDay: perDay,
      topFaultCodes: tally(inPeriod.flatMap((x) => codesOf(x.decoded_array)))
        .slice(0, 10)
        .map(([dtc, n]) => ({ dtc, title: titleOf(dtc), scans: n })),
      scansByMake: tally(inPeriod.map((x) => x.make))
        .slice(0, 15)
        .map(([make, n]) => ({ make, segment: segmentOf.get(make) ?? null, scans: n })),
      scansByAppVersion: tally(inPeriod.map((x) => x.app_version ?? ''))
        .slice(0, 20)
        .map(([v, n]) => ({ version: v === '' ? null : v, scans: n })),
      usersByPlan: tally(users.map((u) => u.plan)).map(([plan, n]) => ({ plan, users: n })),
      usersByStatus: tally(users.map((u) => u.status)).map(([status, n]) => ({ status, users: n })),
      importsPerDay: [...importDays.values()].sort((a, b) => (String(a.day) < String(b.day) ? -1 : 1)),
    };
  }

  return {
    get t() {
      return t;
    },
    get headers() {
      return headers;
    },
    get editor() {
      return editor;
    },
    rows,
    expected,
  };
}
