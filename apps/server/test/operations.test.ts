import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { insertActuationRun, insertScan, insertSpecialFunction, insertUser } from './operationsFactories.ts';

describe.each(DIALECTS)('operations lists on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  let scanWithResults: number;
  const get = (url: string) => t.app.inject({ url, headers });
  const download = async (list: string, query: Record<string, string>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list, format: 'xlsx', query },
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = await t.app.inject({ url: res.json().url });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    return { headers: file.headers, sheet: book.getWorksheet(1) };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    for (let i = 0; i < 25; i += 1)
      await insertUser(t.db, { plan: i % 5 === 0 ? 'Pro' : 'free', status: i % 2 ? 'active' : 'expired' });
    await insertUser(t.db, { email: 'Priya.Sharma@Fleet.example', plan: 'fleet', status: 'trial' });

    for (let i = 0; i < 35; i += 1) await insertScan(t.db);
    await insertScan(t.db, {
      email: 'asha@garage.example',
      make: 'Hyundai',
      model: 'Kona Electric',
      license_plate: 'DL3CAF4321',
      country_id: 44,
      type: 'Manufacturer',
      app_version: '3.5.0-beta',
      scan_start_time: '2024-06-01T10:00:00.000Z',
      scan_end_time: '2024-06-01T10:12:00.000Z',
    });
    await insertScan(t.db, {
      email: 'late@garage.example',
      scan_start_time: '2026-03-31T23:00:00.000Z',
      scan_end_time: null,
    });
    scanWithResults = await insertScan(t.db, {
      email: 'results@garage.example',
      scan_start_time: '2023-01-01T00:00:00.000Z',
      scan_res_array: [
        {
          system: 'Engine',
          pid: '010C',
          data: '7E8 04 41 0C 1A F8',
          header: '7E8',
          protocol: 'CAN 11/500',
          make: 'Toyota',
        },
      ],
      decoded_array: [
        {
          system: 'Engine',
          pid: '03',
          data: '7E8 04 43 01 03 01',
          protocol: 'CAN 11/500',
          header: '7E8',
          decodedFaultArray: { P0301: 'Cylinder 1 Misfire Detected' },
        },
      ],
    });

    for (let i = 0; i < 3; i += 1) await insertSpecialFunction(t.db, { item_number: 7 });
    await insertSpecialFunction(
      t.db,
      { make: 'Mahindra', item_number: 12, hard_coded: true, scan_ended: false, variant: 'Diesel' },
      [{ data: '6E F1 90', pid: '2E F1 90', input: 'VIN' }],
    );
    for (let i = 0; i < 3; i += 1) await insertActuationRun(t.db);
    await insertActuationRun(t.db, { make: 'Tata', actuation_type: 'Horn', user_car_model_id: 99 }, [
      { pid: '2F 10', data: '6F 10 03', input: 'On' },
    ]);
  });
  afterAll(() => t.close());

  describe('users', () => {
    it('pages 20 at a time, newest first, with only the allow-listed fields', async () => {
      const res = (await get('/api/users')).json();
      expect(res.total).toBe(26);
      expect(res.users).toHaveLength(20);
      expect(res.users[0].email).toBe(
        'priya.sharma@fleet.example'.replace('priya.sharma@fleet.example', 'Priya.Sharma@Fleet.example'),
      );
      expect(Object.keys(res.users[0]).sort()).toEqual(
        [
          'id',
          'email',
          'name',
          'phone',
          'country',
          'plan',
          'status',
          'device',
          'app_version',
          'created_at',
          'last_login_at',
          'subscription_ends_at',
        ].sort(),
      );
      expect(res.users[0].subscription_ends_at).toBe('2026-01-01T00:00:00.000Z');
      const body = JSON.stringify((await get('/api/users?limit=1000')).json());
      expect(body).not.toContain('secret');
    });

    it('filters email by contains and plan and status exactly, ignoring case', async () => {
      expect((await get('/api/users?email=SHARMA@fleet')).json().total).toBe(1);
      expect((await get('/api/users?plan=pro')).json().total).toBe(5);
      expect((await get('/api/users?plan=pr')).json().total).toBe(0);
      expect((await get('/api/users?status=EXPIRED')).json().total).toBe(13);
      expect((await get('/api/users?plan=Pro&status=expired')).json().total).toBe(3);
    });

    it('offers the plans and statuses in use', async () => {
      expect((await get('/api/users/facets')).json()).toEqual({
        plans: ['Pro', 'fleet', 'free'],
        statuses: ['active', 'expired', 'trial'],
      });
    });

    it('exports the filtered users as XLSX without secrets', async () => {
      const { headers: h, sheet } = await download('users', { plan: 'Pro' });
      expect(h['content-disposition']).toMatch(/Users_All_Pro_All_\d{4}-\d{2}-\d{2}\.xlsx/);
      expect(sheet?.rowCount).toBe(6);
      const cells = JSON.stringify(sheet?.getSheetValues());
      expect(cells).not.toContain('secret');
    });
  });

  describe('scans', () => {
    it('pages 30 newest first, without the result arrays', async () => {
      const res = (await get('/api/ScanDetail')).json();
      expect(res.total).toBe(38);
      expect(res.scans).toHaveLength(30);
      expect(res.scans[0].email).toBe('late@garage.example');
      expect(res.scans[0].scan_ended).toBe(false);
      expect(res.scans[0]).not.toHaveProperty('scanResArray');
      expect(res.scans[0]).not.toHaveProperty('scan_res_array');
      const page2 = (await get('/api/ScanDetail?page=2')).json();
      expect(page2.scans.at(-1).email).toBe('results@garage.example');
    });

    it.each([
      ['email=ASHA@', 1],
      ['make=yund', 1],
      ['make=yu', 1],
      ['license_plate=4321', 1],
      ['model=kona', 1],
      ['license_plate=caf43', 1],
      ['country_id=44', 1],
      ['type=manuf', 1],
      ['app_version=beta', 1],
      ['scan_start_time=2026-03-31', 1],
      ['scan_end_time=2024-06-01', 2],
      ['scan_start_time=2024-01-01&scan_end_time=2024-12-31', 1],
      ['scan_start_time=2024-06-01T10:00:01Z', 36],
    ])('filters %s', async (query, total) => {
      expect((await get(`/api/ScanDetail?${query}`)).json().total).toBe(total);
    });

    it.each([
      ['country_id=IN', 'country_id'],
      ['scan_start_time=yesterday', 'scan_start_time'],
      ['limit=5000', 'limit'],
    ])('answers 400 for %s', async (query, name) => {
      const res = await get(`/api/ScanDetail?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(`"${name}"`);
    });

    it('opens one scan with its raw and decoded results, and 404s an unknown id', async () => {
      const res = (await get(`/api/ScanDetail/${scanWithResults}`)).json();
      expect(res.scanResArray).toEqual([
        {
          system: 'Engine',
          pid: '010C',
          data: '7E8 04 41 0C 1A F8',
          header: '7E8',
          protocol: 'CAN 11/500',
          make: 'Toyota',
        },
      ]);
      expect(res.decodedArray[0].decodedFaultArray).toEqual({ P0301: 'Cylinder 1 Misfire Detected' });
      const missing = await get('/api/ScanDetail/999999');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toBe('There is no scan with id 999999.');
      expect((await get('/api/ScanDetail/abc')).statusCode).toBe(400);
    });

    it('renders a PDF report of a scan through a single-use link', async () => {
      const ticket = async (id: number) =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/exports',
            headers,
            payload: { list: 'scanReport', format: 'pdf', query: { id: String(id) } },
          })
        ).json().url;
      const res = await t.app.inject({ url: await ticket(scanWithResults) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(
        new RegExp(`Scan_Report_${scanWithResults}_\\d{4}-\\d{2}-\\d{2}\\.pdf`),
      );
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(res.rawPayload.length).toBeGreaterThan(1500);
      const missing = await t.app.inject({ url: await ticket(987654) });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toBe('There is no scan with id 987654.');
    });

    it('exports every matching scan on sheet Scan Details, in list order', async () => {
      const { headers: h, sheet } = await download('scans', { make: 'honda' });
      expect(h['content-disposition']).toMatch(/Scan_Details_honda_All_\d{4}-\d{2}-\d{2}\.xlsx/);
      expect(sheet?.name).toBe('Scan Details');
      expect(sheet?.rowCount).toBe(1 + 37);
      expect(sheet?.getRow(2).getCell(2).value).toBe('late@garage.example');
      expect(sheet?.getRow(2).getCell(8).value).toBe('No');
    });
  });

  describe('special functions and actuations', () => {
    it('filters special functions by exact numbers and flags', async () => {
      expect((await get('/api/SpecialFunctions')).json().total).toBe(4);
      expect((await get('/api/SpecialFunctions?item_number=12')).json().total).toBe(1);
      expect((await get('/api/SpecialFunctions?item_number=1')).json().total).toBe(0);
      expect((await get('/api/SpecialFunctions?hard_coded=true')).json().scans[0]).toMatchObject({
        make: 'Mahindra',
        hard_coded: true,
        scan_ended: false,
      });
      expect((await get('/api/SpecialFunctions?scan_ended=true')).json().total).toBe(3);
      expect((await get('/api/SpecialFunctions?variant=dies&make=mahin')).json().total).toBe(1);
      expect((await get('/api/SpecialFunctions?hard_coded=yes')).statusCode).toBe(400);
    });

    it('opens a special-function run with its Data, PID, Input rows', async () => {
      const id = (await get('/api/SpecialFunctions?hard_coded=true')).json().scans[0].id;
      expect((await get(`/api/SpecialFunctions/${id}`)).json().scanResArray).toEqual([
        { data: '6E F1 90', pid: '2E F1 90', input: 'VIN' },
      ]);
      expect((await get('/api/SpecialFunctions/424242')).statusCode).toBe(404);
    });

    it('filters actuation runs and opens one', async () => {
      expect((await get('/api/ActuationsDetail')).json().total).toBe(4);
      const horn = (await get('/api/ActuationsDetail?actuation_type=HORN&user_car_model_id=99')).json();
      expect(horn.total).toBe(1);
      expect(horn.actuations[0]).not.toHaveProperty('scanResArray');
      const detail = (await get(`/api/ActuationsDetail/${horn.actuations[0].id}`)).json();
      expect(detail.scanResArray).toEqual([{ pid: '2F 10', data: '6F 10 03', input: 'On' }]);
      expect((await get('/api/ActuationsDetail/77777')).statusCode).toBe(404);
    });

    it('exports special functions and actuations', async () => {
      const sf = await download('specialFunctions', { email: 'driver' });
      expect(sf.headers['content-disposition']).toMatch(/Special_Functions_All_driver_/);
      expect(sf.sheet?.rowCount).toBe(5);
      const act = await download('actuations', { make: 'Tata' });
      expect(act.headers['content-disposition']).toMatch(/Actuations_Detail_Tata_All_/);
      expect(act.sheet?.getRow(2).getCell(5).value).toBe('Horn');
    });
  });
});
