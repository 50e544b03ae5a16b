import {
  ACTUATION_SORT_FIELDS,
  SCAN_SORT_FIELDS,
  SPECIAL_FUNCTION_SORT_FIELDS,
  USER_SORT_FIELDS,
} from '@obd/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { expectedOrder, type Row, random } from './sortOrder.ts';

/**
 * Sort by any column (issue 12 item 2, decisions §9), on both databases: every sortable field of
 * every operations list, both directions, all pages, checked against the rows themselves; ties
 * broken by the id in the sort's direction so pages never overlap; unknown fields refused; the
 * export in the same order.
 */

describe.each(DIALECTS)('sort by any column on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const get = (url: string) => t.app.inject({ url, headers });
  const pick = <T>(r: () => number, values: readonly T[]) => values[Math.floor(r() * values.length)] as T;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    const r = random(7);
    const maybe = <T>(v: T) => (r() < 0.2 ? null : v);
    const time = () => new Date(Date.UTC(2025, 0, 1) + Math.floor(r() * 5) * 86_400_000).toISOString();
    const makes = ['Honda', 'Toyota', 'BMW', 'hyundai', 'Škoda'];
    // Few distinct values per column: ties everywhere, so only the id keeps pages apart.
    for (let i = 0; i < 60; i += 1) {
      const start = time();
      await t.db.kysely
        .insertInto('scans')
        .values({
          email: `${pick(r, ['a', 'b', 'Z'])}@example.com`,
          scan_start_time: start,
          scan_end_time: maybe(time()),
          make: pick(r, makes),
          model: maybe(pick(r, ['City', 'Civic', 'x5'])),
          license_plate: maybe(pick(r, ['MH12', 'KA01'])),
          vin: maybe(pick(r, ['VIN1', 'VIN2'])),
          scan_ended: r() < 0.5 ? 1 : 0,
          country_id: maybe(pick(r, [91, 44, 1])),
          function: maybe(pick(r, ['scan', 'live'])),
          type: maybe(pick(r, ['OBD', 'generic'])),
          app_version: maybe(pick(r, ['3.4', '3.10', '3.5'])),
          pdf_report: null,
          scan_res_array: '[]',
          decoded_array: '[]',
        })
        .execute();
      await t.db.kysely
        .insertInto('special_function_runs')
        .values({
          user_email: `${pick(r, ['a', 'b'])}@example.com`,
          make: pick(r, makes),
          module: maybe(pick(r, ['ABS', 'Engine'])),
          model: maybe(pick(r, ['Creta', 'i20'])),
          function_type: maybe(pick(r, ['reset', 'bleed'])),
          command_type: maybe(pick(r, ['UDS', 'KWP'])),
          item_number: maybe(pick(r, [5, 12, 7])),
          variant: maybe(pick(r, ['Diesel', 'Petrol'])),
          license_plate: maybe(pick(r, ['KA15', 'DL3'])),
          scan_ended: r() < 0.5 ? 1 : 0,
          hard_coded: r() < 0.5 ? 1 : 0,
          scan_start_time: start,
          scan_end_time: maybe(time()),
          scan_res_array: '[]',
        })
        .execute();
      await t.db.kysely
        .insertInto('actuation_runs')
        .values({
          user_email: `${pick(r, ['a', 'b'])}@example.com`,
          make: pick(r, makes),
          model: maybe(pick(r, ['X5', 'City'])),
          actuation_type: maybe(pick(r, ['Horn', 'Fan'])),
          actuation_option: maybe(pick(r, ['cycle', 'on'])),
          input: maybe(pick(r, ['sweep', 'hold'])),
          device: maybe(pick(r, ['Android', 'iOS'])),
          product_id: maybe(pick(r, ['P1', 'P2'])),
          user_car_model_id: maybe(pick(r, [70, 12])),
          end_date: maybe(time()),
          created_at: start,
          updated_at: time(),
          scan_res_array: '[]',
        })
        .execute();
      await t.db.kysely
        .insertInto('app_users')
        .values({
          email: `user${i}-${pick(r, ['x', 'y'])}@example.com`,
          name: maybe(pick(r, ['Asha', 'Ravi'])),
          phone: maybe(pick(r, ['+91 1', '+44 2'])),
          country: maybe(pick(r, ['IN', 'UK'])),
          plan: pick(r, ['free', 'premium']),
          status: pick(r, ['active', 'expired']),
          device: maybe(pick(r, ['Android', 'iOS'])),
          app_version: maybe(pick(r, ['3.4', '3.10'])),
          created_at: time(),
          last_login_at: maybe(time()),
          auth_token: null,
          password_hash: null,
        })
        .execute();
    }
  });
  afterAll(() => t.close());

  const LISTS = [
    {
      path: '/api/ScanDetail',
      key: 'scans',
      fields: SCAN_SORT_FIELDS,
      filters: ['make=o', 'license_plate=MH12'],
    },
    {
      path: '/api/SpecialFunctions',
      key: 'scans',
      fields: SPECIAL_FUNCTION_SORT_FIELDS,
      filters: ['scan_ended=true'],
    },
    {
      path: '/api/ActuationsDetail',
      key: 'actuations',
      fields: ACTUATION_SORT_FIELDS,
      filters: ['input=sweep'],
    },
    { path: '/api/users', key: 'users', fields: USER_SORT_FIELDS, filters: ['plan=premium'] },
  ] as const;

  /** Every row of a list under `query`, page by page (pages of 7: ties span pages). */
  async function allPages(path: string, key: string, query: string) {
    const seen: Row[] = [];
    let total = 0;
    for (let page = 1; page < 50; page += 1) {
      const res = await get(`${path}?${query}&limit=7&page=${page}`);
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
    it(`${list.path}: every sortable field, both directions, with and without a filter, in the rows' order`, async () => {
      const everything = (await allPages(list.path, list.key, 'sort=id&order=asc')).seen;
      for (const filter of ['', ...list.filters]) {
        const { seen: matching } = await allPages(list.path, list.key, `sort=id&order=asc&${filter}`);
        for (const field of list.fields) {
          for (const order of ['asc', 'desc'] as const) {
            const { seen, total } = await allPages(
              list.path,
              list.key,
              `sort=${field}&order=${order}&${filter}`,
            );
            const ids = seen.map((r) => r.id);
            expect(total, `${field} ${order} ${filter}`).toBe(matching.length);
            // No row twice (pages never overlap), none skipped, in the promised order.
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids, `${list.path} sort=${field}&order=${order}&${filter}`).toEqual(
              expectedOrder(matching, field, order),
            );
          }
        }
      }
      expect(everything.length).toBeGreaterThanOrEqual(60);
    });
  }

  it('sorts ascending when no order is given, and a sort equal to the own order is the own order', async () => {
    const asc = (await get('/api/ScanDetail?sort=make&limit=200')).json().scans as Row[];
    const explicit = (await get('/api/ScanDetail?sort=make&order=asc&limit=200')).json().scans as Row[];
    expect(asc.map((r) => r.id)).toEqual(explicit.map((r) => r.id));
    const own = (await get('/api/ScanDetail?limit=200')).json().scans as Row[];
    const same = (await get('/api/ScanDetail?sort=scan_start_time&order=desc&limit=200')).json()
      .scans as Row[];
    expect(same.map((r) => r.id)).toEqual(own.map((r) => r.id));
  });

  it('an unknown field or order is a 400 naming it and listing the allowed ones', async () => {
    const res = await get('/api/ScanDetail?sort=scan_res_array');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('"scan_res_array"');
    expect(res.json().error).toContain('email, scan_start_time');
    const order = await get('/api/users?sort=email&order=sideways');
    expect(order.statusCode).toBe(400);
    expect(order.json().error).toMatch(/order/);
    expect((await get('/api/faultCodesList?sort=severity&order=desc')).statusCode).toBe(200);
    const causes = await get('/api/FaultCodeCauses?sort=severity');
    expect(causes.statusCode).toBe(400);
    expect(causes.json().error).toContain('language');
    const sql = await get(`/api/SpecialFunctions?sort=${encodeURIComponent('make; DROP TABLE scans')}`);
    expect(sql.statusCode).toBe(400);
  });

  it('the export follows the sort', async () => {
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list: 'scans', format: 'xlsx', query: { sort: 'country_id', order: 'desc', make: 'o' } },
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const file = await t.app.inject({ url: ticket.json().url });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet(1);
    const exported: number[] = [];
    sheet?.eachRow((row, n) => {
      if (n > 1) exported.push(Number(row.getCell(1).value));
    });
    const { seen } = await allPages('/api/ScanDetail', 'scans', 'sort=country_id&order=desc&make=o');
    expect(exported).toEqual(seen.map((r) => r.id));
    expect(exported.length).toBeGreaterThan(10);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list: 'scans', format: 'xlsx', query: { sort: 'nope' } },
    });
    expect(refused.statusCode).toBe(400);
  });
});
