import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/database.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertScan } from './operationsFactories.ts';
import { expectScanPages } from './scanPages.ts';

/**
 * Two filters the pair counters do not total (issue 12 item 1): "start ≥ from" with a value of a
 * column counted per day (`startPlan.ts`: its day counts after from's day, plus from's own day
 * counted), and a reported fault code with another filter (`codePlan.ts`: the code's scans from
 * `scan_dtcs`, the other filter tested on them). Every page and the total against the rows
 * themselves, on both dialects, then again after inserts, updates (a start moved, codes changed,
 * a make renamed) and deletes.
 */
describe.each(DIALECTS)(
  'a start bound or a fault code with another filter on %s',
  { timeout: 180_000 },
  (dialect) => {
    let t: TestContext;
    let headers: Record<string, string>;
    interface Seeded {
      id: number;
      email: string;
      make: string;
      model: string;
      license_plate: string;
      country_id: number;
      type: string | null;
      app_version: string;
      scan_start_time: string;
      scan_end_time: string | null;
      codes: string[];
    }
    let scans: Seeded[] = [];
    const makes = ['Toyota', 'Honda', 'TOYOTA', 'Tata'];
    const types = ['Generic', 'OBD', null, 'generic'];
    const versions = ['3.5.0', '3.4.1', '3.5.2'];
    const codeSets = [['P0300'], ['P0420', 'P0300'], [], ['P0171']];

    const decoded = (codes: string[]) =>
      codes.length === 0
        ? []
        : [{ system: 'Engine', decodedFaultArray: Object.fromEntries(codes.map((c) => [c, c])) }];
    const scanOf = (i: number) => {
      // Several a day over two months, ties on the start time, ends minutes to a day later or none.
      const start = Date.UTC(
        2025,
        5 + (i % 2),
        1 + ((i * 5) % 28),
        (i * 7) % 24,
        i % 4 === 0 ? 0 : (i * 13) % 60,
      );
      return {
        email:
          i % 8 === 3
            ? `works.${i % 4}@Garage.EXAMPLE`
            : i % 8 === 6
              ? `ravi.garage.example${i % 3}@motorworks.in`
              : `${['asha', 'ravi', 'meera'][i % 3]}.${i % 5}@garage.example`,
        make: makes[i % makes.length] as string,
        model: ['City', 'Creta', 'Nexon'][i % 3] as string,
        license_plate: i % 6 === 0 ? `MH 12 AB ${i}` : `KA 05 ${i}`,
        country_id: [91, 44, 91, 7][i % 4] as number,
        type: types[i % types.length] ?? null,
        app_version: versions[i % versions.length] as string,
        scan_start_time: new Date(start).toISOString(),
        // Ends hours after the start, none, or (a few) weeks before it: nothing enforces end ≥ start.
        scan_end_time:
          i % 7 === 0
            ? null
            : i % 19 === 4
              ? new Date(start - 20 * 86_400_000).toISOString()
              : new Date(start + ((i % 5) + 1) * 3_600_000).toISOString(),
        codes: codeSets[i % codeSets.length] as string[],
      };
    };
    const insert = async (s: Omit<Seeded, 'id'>) => ({
      ...s,
      id: await insertScan(t.db, { ...s, decoded_array: decoded(s.codes) }),
    });

    beforeAll(async () => {
      t = await createTestApp(dialect);
      headers = (await signedIn(t.db)).headers;
      for (let i = 0; i < 96; i += 1) scans.push(await insert(scanOf(i)));
    });
    afterAll(() => t.close());

    const lower = (v: string | null) => (v ?? '').toLowerCase();
    const froms = ['2025-06-15', '2025-07-09T07:30:00Z', '2025-06-01', '2025-09-01'];
    const fromIso = (from: string) => (from.length === 10 ? from : new Date(from).toISOString());
    const values: [string, (s: Seeded) => boolean][] = [
      ['make=toyota', (s) => lower(s.make).includes('toyota')],
      ['type=generic', (s) => lower(s.type).includes('generic')],
      ['app_version=3.5', (s) => s.app_version.includes('3.5')],
      ['make=tata', (s) => lower(s.make).includes('tata')],
      ['make=nomatch', () => false],
    ];
    const withCode: [string, (s: Seeded) => boolean][] = [
      ...values,
      ['country_id=91', (s) => s.country_id === 91],
      ['country_id=7', (s) => s.country_id === 7],
      ['type=OBD', (s) => lower(s.type).includes('obd')],
      ['app_version=3.4.1', (s) => s.app_version.includes('3.4.1')],
      ['model=city', (s) => lower(s.model).includes('city')],
      ['email=ravi', (s) => lower(s.email).includes('ravi')],
      // Domains (043's e-mail domains) and a local part holding a domain's fragment.
      ['email=example', (s) => lower(s.email).includes('example')],
      ['email=garage.e', (s) => lower(s.email).includes('garage.e')],
      ['email=works', (s) => lower(s.email).includes('works')],
      // More rows than the code has scans: the code's entries walked, the fragment tested on each.
      ['email=garage', (s) => lower(s.email).includes('garage')],
      ['model=e', (s) => lower(s.model).includes('e')],
      [
        'scan_end_time=2025-09-01',
        (s) => s.scan_end_time !== null && s.scan_end_time <= '2025-09-01T23:59:59.999Z',
      ],
      ['license_plate=MH 12', (s) => s.license_plate.includes('MH 12')],
      [
        'scan_end_time=2025-06-20',
        (s) => s.scan_end_time !== null && s.scan_end_time <= '2025-06-20T23:59:59.999Z',
      ],
      // More scans ended by then than the code has: the code's entries walked from below the
      // newest start day holding such an end (a scan of July 26 ended on July 6).
      [
        'scan_end_time=2025-07-10',
        (s) => s.scan_end_time !== null && s.scan_end_time <= '2025-07-10T23:59:59.999Z',
      ],
      // A bound within a day: that day's ends counted up to it (a morning bound), or the day's
      // counter less its ends after the bound (an afternoon one).
      [
        'scan_end_time=2025-06-05T13:00:00Z',
        (s) => s.scan_end_time !== null && s.scan_end_time <= '2025-06-05T13:00:00.000Z',
      ],
      [
        'scan_end_time=2025-06-09T08:30:00Z',
        (s) => s.scan_end_time !== null && s.scan_end_time <= '2025-06-09T08:30:00.000Z',
      ],
      ...froms.map(
        (from) =>
          [`scan_start_time=${from}`, (s: Seeded) => s.scan_start_time >= fromIso(from)] as [
            string,
            (s: Seeded) => boolean,
          ],
      ),
    ];
    const cases: [string, (s: Seeded) => boolean][] = [
      ...froms.flatMap((from) =>
        values.map(
          ([v, keep]) =>
            [
              `${v}&scan_start_time=${from}`,
              (s: Seeded) => keep(s) && s.scan_start_time >= fromIso(from),
            ] as [string, (s: Seeded) => boolean],
        ),
      ),
      // A code alone: its entries of scan_dtcs stepped over, from the nearer end.
      ...['P0300', 'p0420', 'P9999'].map(
        (code) =>
          [`dtc=${code}`, (s: Seeded) => s.codes.includes(code.toUpperCase())] as [
            string,
            (s: Seeded) => boolean,
          ],
      ),
      ...['P0300', 'p0420', 'P9999'].flatMap((code) =>
        withCode.map(
          ([v, keep]) =>
            [`dtc=${code}&${v}`, (s: Seeded) => keep(s) && s.codes.includes(code.toUpperCase())] as [
              string,
              (s: Seeded) => boolean,
            ],
        ),
      ),
      // A code with two other filters: the filter of the fewest rows drives (valuesWhere.ts) —
      // the code, its scans looked up by id (P9999: none), or a value, the code's scans hashed
      // beside its walk (P0300 weighs 16 index entries a scan on PostgreSQL).
      ...['P0300', 'p0420', 'P9999'].flatMap((code) =>
        [
          [0, 5],
          [1, 6],
          [2, 9],
          [5, 13],
          [3, 11],
          [6, 16],
        ].map(([a, b]) => {
          const [va, keepA] = withCode[a as number] as [string, (s: Seeded) => boolean];
          const [vb, keepB] = withCode[b as number] as [string, (s: Seeded) => boolean];
          return [
            `dtc=${code}&${va}&${vb}`,
            (s: Seeded) => keepA(s) && keepB(s) && s.codes.includes(code.toUpperCase()),
          ] as [string, (s: Seeded) => boolean];
        }),
      ),
    ];

    const newestFirst = (a: Seeded, b: Seeded) =>
      a.scan_start_time === b.scan_start_time ? b.id - a.id : a.scan_start_time < b.scan_start_time ? 1 : -1;

    async function expectPagesMatch() {
      for (const [filter, keep] of cases) {
        const expected = scans
          .filter(keep)
          .sort(newestFirst)
          .map((s) => s.id);
        await expectScanPages(t.app, headers, encodeURI(filter), expected, [4, 25]);
      }
    }

    it('pages each pair exactly as the rows are', async () => {
      await expectPagesMatch();
    });

    it('sorts them by another column with the same totals', async () => {
      for (const [filter, keep] of cases.filter((_, i) => i % 4 === 0)) {
        const res = await t.app.inject({
          url: `/api/ScanDetail?limit=5&sort=make&order=asc&${encodeURI(filter)}`,
          headers,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().total, filter).toBe(scans.filter(keep).length);
      }
    });

    it('keeps totals and pages exact through inserts, updates and deletes', async () => {
      const k = t.db.kysely;
      const moved = scans.filter((_, i) => i % 9 === 0).map((s) => s.id);
      // Starts moved across the bounds (scan_dtcs keeps each scan's start with its codes).
      await k
        .updateTable('scans')
        .set({ scan_start_time: '2025-06-15T00:00:00.000Z' })
        .where('id', 'in', moved)
        .execute();
      const recoded = scans.filter((_, i) => i % 10 === 1).map((s) => s.id);
      await k
        .updateTable('scans')
        .set({ decoded_array: JSON.stringify(decoded(['P0300'])) })
        .where('id', 'in', recoded)
        .execute();
      const renamed = scans.filter((_, i) => i % 11 === 2).map((s) => s.id);
      await k
        .updateTable('scans')
        .set({ make: 'Toyota', type: 'Generic' })
        .where('id', 'in', renamed)
        .execute();
      // 043 counts each code per country, version, end day and e-mail domain: every one moved,
      // and a make changed with the codes in one statement.
      const moves = {
        country_id: 7,
        app_version: '3.4.1',
        scan_end_time: '2025-06-09T08:00:00.000Z',
        email: 'works.9@garage.example',
      };
      const elsewhere = scans.filter((_, i) => i % 12 === 7).map((s) => s.id);
      await k.updateTable('scans').set(moves).where('id', 'in', elsewhere).execute();
      const both = scans.filter((_, i) => i % 17 === 4).map((s) => s.id);
      await k
        .updateTable('scans')
        .set({ make: 'Tata', decoded_array: JSON.stringify(decoded(['P0420'])) })
        .where('id', 'in', both)
        .execute();
      const gone = scans.filter((_, i) => i % 13 === 5).map((s) => s.id);
      await k.deleteFrom('scans').where('id', 'in', gone).execute();
      scans = scans
        .filter((s) => !gone.includes(s.id))
        .map((s) => ({
          ...s,
          ...(moved.includes(s.id) ? { scan_start_time: '2025-06-15T00:00:00.000Z' } : {}),
          ...(recoded.includes(s.id) ? { codes: ['P0300'] } : {}),
          ...(renamed.includes(s.id) ? { make: 'Toyota', type: 'Generic' } : {}),
          ...(elsewhere.includes(s.id) ? moves : {}),
          ...(both.includes(s.id) ? { make: 'Tata', codes: ['P0420'] } : {}),
        }));
      for (let i = 96; i < 104; i += 1) scans.push(await insert(scanOf(i)));
      await expectPagesMatch();
      // 043's counters, every one, against the scans' codes and values.
      const at = dialect === 'postgres' ? 'strpos' : 'instr';
      const counted = (query: string) =>
        sql
          .raw<{ dtc: string; col: string; val: string; n: unknown }>(query)
          .execute(k)
          .then((r) => r.rows.map((x) => `${x.dtc} ${x.col} ${x.val} ${Number(x.n)}`).sort());
      const facets = [
        ...['country_id', 'make', 'type', 'app_version'].map(
          (c) => `SELECT '${c}' AS col, CAST(x.${c} AS TEXT) AS val, x.id FROM scans x`,
        ),
        `SELECT 'scan_end_time', substr(x.scan_end_time, 1, 10), x.id FROM scans x`,
        `SELECT 'email@', CASE WHEN ${at}(x.email, '@') > 0 THEN substr(x.email, ${at}(x.email, '@') + 1) END, x.id FROM scans x`,
      ].join(' UNION ALL ');
      const expected = await counted(
        `SELECT d.dtc, f.col, f.val, count(*) AS n FROM scan_dtcs d JOIN (${facets}) f ON f.id = d.scan_id WHERE f.val IS NOT NULL GROUP BY 1, 2, 3`,
      );
      expect(expected.length).toBeGreaterThan(20);
      expect(await counted('SELECT dtc, col, val, n FROM list_code_pairs WHERE n <> 0')).toEqual(expected);
      // And 043 run on these scans (a database that had them before it) counts the same.
      const drops =
        dialect === 'postgres'
          ? ['DROP FUNCTION scans_code_pairs CASCADE']
          : ['ai', 'ad', 'au'].map((x) => `DROP TRIGGER scans_code_pairs_${x}`);
      for (const statement of [
        ...drops,
        'DROP TABLE list_code_pairs',
        `DELETE FROM kysely_migration WHERE name = '043_list_code_pairs'`,
      ])
        await sql.raw(statement).execute(k);
      await migrate(t.db);
      expect(await counted('SELECT dtc, col, val, n FROM list_code_pairs')).toEqual(expected);
    });
  },
);
