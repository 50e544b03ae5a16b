import {
  AUDIT_SORT_FIELDS,
  COVERAGE_SORT_FIELDS,
  LIVE_DATA_SORT_FIELDS,
  ODOMETER_SORT_FIELDS,
  OPERATOR_SORT_FIELDS,
} from '@obd/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertActuation, insertCustom, insertMake, insertSpf } from './catalogueFactories.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { expectedOrder, type Row, random } from './sortOrder.ts';

/**
 * Every list sorts (issue 12 item 2, decisions §9), beyond the operations lists of sort.test.ts:
 * coverage, odometer and live-data catalogues, the operators and the audit log by every sortable
 * field, both directions, all pages, against the rows themselves, ties broken by the id; the
 * grouped catalogues by their group's key; unknown fields refused; the exports in the same order.
 */

describe.each(DIALECTS)('every list sorts on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const get = (url: string) => t.app.inject({ url, headers });
  const pick = <T>(r: () => number, values: readonly T[]) => values[Math.floor(r() * values.length)] as T;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db, 'admin')).headers;
    const r = random(11);
    const maybe = <T>(v: T) => (r() < 0.25 ? null : v);
    const time = () => new Date(Date.UTC(2025, 0, 1) + Math.floor(r() * 4) * 86_400_000).toISOString();
    const honda = await insertMake(t.db, 'Honda', 'car', { City: ['City'] });
    const bmw = await insertMake(t.db, 'BMW', 'car', { X5: ['X5'] });
    const skoda = await insertMake(t.db, 'Škoda', 'car');
    const makes = [honda, bmw, skoda];
    // Few distinct values per column: ties everywhere, so only the id keeps pages apart.
    for (let i = 0; i < 40; i += 1) {
      const make = pick(r, makes);
      const group = Object.values(make.groups)[0];
      await t.db.kysely
        .insertInto('coverage')
        .values({
          make_id: make.id,
          function_name: pick(r, ['ABS bleed', 'DPF regen', 'Oil reset']),
          function_type: pick(r, ['special', 'service']),
        })
        .execute();
      await t.db.kysely
        .insertInto('odometer_commands')
        .values({
          make_id: make.id,
          model_group_id: null,
          from_year: null,
          to_year: null,
          header: maybe(pick(r, ['7E0', '7DF'])),
          sub_header: maybe(pick(r, ['7E8', '7E9'])),
          pid: maybe(pick(r, ['22F1', '2101'])),
          protocol: maybe(pick(r, ['CAN 11', 'KWP'])),
          system: maybe(pick(r, ['Cluster', 'Engine'])),
          init: maybe(pick(r, ['ATSH7E0', 'ATZ'])),
          formula_based: r() < 0.5 ? 1 : 0,
          generic: r() < 0.5 ? 1 : 0,
          formula_metric: maybe(pick(r, ['A', 'B/10'])),
          formula_imperial: maybe(pick(r, ['A/1.6', 'B'])),
          unit_metric: maybe(pick(r, ['km', 'm'])),
          unit_imperial: maybe(pick(r, ['mi', 'ft'])),
        })
        .execute();
      await t.db.kysely
        .insertInto('live_data_commands')
        .values({
          make_id: make.id,
          model_group_id: group !== undefined && r() < 0.6 ? group : null,
          from_year: null,
          to_year: null,
          name: pick(r, ['RPM', 'Speed', 'coolant']),
          module: pick(r, ['Engine', 'ABS']),
          header: maybe(pick(r, ['7E0', '7DF'])),
          sub_header: maybe(pick(r, ['7E8', '7E9'])),
          pid: maybe(pick(r, ['010C', '010D'])),
          protocol: maybe(pick(r, ['CAN 11', 'KWP'])),
          formula_based: r() < 0.5 ? 1 : 0,
          formula_metric: maybe(pick(r, ['A', 'B/4'])),
          formula_imperial: maybe(pick(r, ['A', 'B'])),
          unit_metric: maybe(pick(r, ['rpm', 'km/h'])),
          unit_imperial: maybe(pick(r, ['rpm', 'mph'])),
          reference_json: null,
        })
        .execute();
      await t.db.kysely
        .insertInto('audit_events')
        .values({
          at: time(),
          operator_id: null,
          action: pick(r, ['export', 'sign-in', 'import', 'role-changed']),
          target: maybe(pick(r, ['scans', 'a@example.com', 'Zeta'])),
          details: '{}',
          address: null,
          user_agent: null,
        })
        .execute();
      if (i < 15) {
        await t.db.kysely
          .insertInto('operators')
          .values({
            email: `op${i}-${pick(r, ['x', 'y'])}@example.com`,
            password_hash: 'x',
            role: pick(r, ['viewer', 'editor', 'admin']),
            created_at: time(),
            last_seen_at: maybe(time()),
            disabled_at: r() < 0.4 ? time() : null,
          })
          .execute();
      }
    }
    for (const [i, name] of ['Brake bleed', 'abs test', 'Window', 'Zone reset', 'Horn'].entries()) {
      const make = makes[i % makes.length] as (typeof makes)[number];
      await insertCustom(t.db, { make_id: make.id }, name, { V1: [`${name} 1`] });
      await insertActuation(t.db, { make_id: make.id }, name, [{ pid: `${i}` }]);
      await insertSpf(t.db, { make_id: make.id }, name, i % 2 === 0, [{ pid: `${i}` }]);
    }
  });
  afterAll(() => t.close());

  const LISTS = [
    { path: '/api/getCoverage', key: 'coverages', fields: COVERAGE_SORT_FIELDS, filters: ['make=honda'] },
    { path: '/api/OdometerAPI', key: 'data', fields: ODOMETER_SORT_FIELDS, filters: ['make=BMW'] },
    { path: '/api/LiveDataCommands', key: 'data', fields: LIVE_DATA_SORT_FIELDS, filters: ['module=abs'] },
    { path: '/api/operators', key: 'operators', fields: OPERATOR_SORT_FIELDS, filters: ['status=disabled'] },
    { path: '/api/audit', key: 'events', fields: AUDIT_SORT_FIELDS, filters: ['action=export'] },
  ] as const;
  /** A field whose order is another field's (`status` sorts as `disabled_at`). */
  const ORDERED_AS: Record<string, string> = { status: 'disabled_at' };

  /** Every row of a list under `query`, page by page (pages of 6: ties span pages). */
  async function allPages(path: string, key: string, query: string) {
    const seen: Row[] = [];
    let total = 0;
    for (let page = 1; page < 50; page += 1) {
      const res = await get(`${path}?${query}&limit=6&page=${page}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as Record<string, unknown>;
      total = body.total as number;
      const rows = body[key] as Row[];
      if (rows.length === 0) break;
      seen.push(...rows);
    }
    return { seen, total };
  }

  for (const list of LISTS) {
    it(`${list.path}: every sortable field, both directions, with and without a filter`, async () => {
      for (const filter of ['', ...list.filters]) {
        const { seen: matching } = await allPages(list.path, list.key, `sort=id&order=asc&${filter}`);
        expect(matching.length, `${list.path} ${filter}`).toBeGreaterThan(2);
        for (const field of list.fields) {
          for (const order of ['asc', 'desc'] as const) {
            const query = `sort=${field}&order=${order}&${filter}`;
            const { seen, total } = await allPages(list.path, list.key, query);
            const ids = seen.map((r) => r.id);
            expect(total, `${list.path} ${query}`).toBe(matching.length);
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids, `${list.path} ${query}`).toEqual(
              expectedOrder(matching, ORDERED_AS[field] ?? field, order),
            );
          }
        }
      }
    });
  }

  it('the grouped catalogues sort by their group, both ways, and by nothing else', async () => {
    for (const [path, key] of [
      ['/api/CustomCommands', 'function_name'],
      ['/api/ActuationCommands', 'actuation_type'],
      ['/api/SPFCommands', 'function_name'],
    ] as const) {
      const names = async (query: string) => {
        const res = await get(`${path}?${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().data as Record<string, string>[]).map((g) => g[key]);
      };
      const asc = ['Brake bleed', 'Horn', 'Window', 'Zone reset', 'abs test'];
      expect(await names('')).toEqual(asc);
      expect(await names(`sort=${key}&order=asc`)).toEqual(asc);
      expect(await names(`sort=${key}&order=desc`)).toEqual([...asc].reverse());
      // Pages of two groups: a page is still a run of whole groups in the asked order.
      const pages = [
        ...(await names(`sort=${key}&order=desc&limit=2&page=1`)),
        ...(await names(`sort=${key}&order=desc&limit=2&page=2`)),
        ...(await names(`sort=${key}&order=desc&limit=2&page=3`)),
      ];
      expect(pages).toEqual([...asc].reverse());
      const other = await get(`${path}?sort=make`);
      expect(other.statusCode).toBe(400);
      expect(other.json().error).toContain(`"make"`);
      expect(other.json().error).toContain(key);
    }
  });

  it('the make and model lists sort by name, both ways, and their downloads follow', async () => {
    const names = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { name: string }[]).map((m) => m.name);
    };
    expect(await names('/api/FetchMakeList?segement=car')).toEqual(['BMW', 'Honda', 'Škoda']);
    expect(await names('/api/FetchMakeList?segement=car&sort=name&order=desc')).toEqual([
      'Škoda',
      'Honda',
      'BMW',
    ]);
    await insertMake(t.db, 'Audi', 'car', { A4: ['A4', 'A6'] });
    expect(await names('/api/ModelList?make=audi&sort=name&order=desc')).toEqual(['A6', 'A4']);
    expect((await get('/api/FetchMakeList?sort=segment')).statusCode).toBe(400);
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list: 'makes', format: 'csv', query: { segement: 'car', sort: 'name', order: 'desc' } },
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const file = await t.app.inject({ url: ticket.json().url });
    const rows = file.body
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .slice(1)
      .filter(Boolean);
    expect(rows.map((line) => line.split(',').at(-1))).toEqual(
      ['Škoda', 'Audi', 'Honda', 'BMW'].sort().reverse(),
    );
  });

  it('an unknown field is a 400 naming it and the allowed ones, on every list', async () => {
    for (const list of LISTS) {
      const res = await get(`${list.path}?sort=password_hash`);
      expect(res.statusCode, list.path).toBe(400);
      expect(res.json().error).toContain('"password_hash"');
      expect(res.json().error).toContain(list.fields.join(', '));
    }
    expect((await get('/api/audit?sort=operator_email')).statusCode).toBe(400);
  });

  /** The first column (the id) of each row of a CSV export. */
  const exportsRecorded = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('audit_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('action', '=', 'export')
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function exportedIds(list: string, query: Record<string, string>) {
    const before = await exportsRecorded();
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list, format: 'csv', query },
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const file = await t.app.inject({ url: ticket.json().url });
    // The export's own audit event is written once its download has closed, after the response:
    // waited for, or the next list's pages may miss the event its export then finds (seen on
    // PostgreSQL under Node 24: 13 pages' rows, 14 exported).
    await vi.waitFor(async () => expect(await exportsRecorded()).toBeGreaterThan(before), {
      timeout: 10_000,
    });
    return file.body
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .slice(1)
      .filter(Boolean)
      .map((line) => Number(line.split(',')[0]));
  }

  it('the exports follow the sort', async () => {
    for (const [list, path, key, query] of [
      ['audit', '/api/audit', 'events', { sort: 'target', order: 'desc' }],
      ['audit', '/api/audit', 'events', { sort: 'action', order: 'asc', action: 'export' }],
      ['operators', '/api/operators', 'operators', { sort: 'last_seen_at', order: 'asc' }],
    ] as const) {
      const { seen } = await allPages(path, key, new URLSearchParams(query).toString());
      expect(await exportedIds(list, query)).toEqual(seen.map((r) => r.id));
    }
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list: 'coverage', format: 'xlsx', query: { sort: 'nope' } },
    });
    expect(refused.statusCode).toBe(400);
  });
});
