import { actuationCommandListSchema, spfCommandListSchema } from '@obd/contract';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueSuite, insertActuation, insertCustom, insertSpf } from './catalogueFactories.ts';
import { DIALECTS, type TestContext } from './helpers.ts';

describe.each(DIALECTS)('command catalogues on %s', (dialect) => {
  const suite = catalogueSuite(dialect);
  let t: TestContext;
  let headers: Record<string, string>;
  beforeAll(() => {
    ({ t, headers } = suite);
  });
  const get = (url: string) => t.app.inject({ url, headers });
  const download = async (list: string, format: string, query: Record<string, string>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers,
      payload: { list, format, query },
    });
    expect(res.statusCode, res.body).toBe(201);
    return t.app.inject({ url: res.json().url });
  };

  describe('coverage', () => {
    it('pages at 30 with the total and filters on the make, exactly and case-insensitively', async () => {
      const first = (await get('/api/getCoverage')).json();
      expect(first.total).toBe(34);
      expect(first.coverages).toHaveLength(30);
      expect(first.coverages[0]).toEqual({
        id: expect.any(Number),
        make: 'Honda',
        function_name: 'Function 1',
        function_type: 'Scan',
      });
      expect((await get('/api/getCoverage?make=honda&page=2')).json().coverages).toHaveLength(3);
      expect((await get('/api/getCoverage?make=hond')).json()).toEqual({ coverages: [], total: 0 });
    });

    it('exports an XLSX sheet named Coverage Data', async () => {
      const res = await download('coverage', 'xlsx', { make: 'TVS Bikes' });
      expect(res.headers['content-disposition']).toMatch(/Coverage_Data_TVS-Bikes_\d{4}-\d{2}-\d{2}\.xlsx/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.getWorksheet('Coverage Data');
      expect(sheet?.getRow(1).values).toEqual([undefined, 'Function Name', 'Function Type']);
      expect(sheet?.getRow(2).values).toEqual([undefined, '=cmd|calc', 'Live Data']);
      expect(sheet?.rowCount).toBe(2);
    });

    it('refuses a CSV coverage export (the screen offers Excel only)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers,
        payload: { list: 'coverage', format: 'csv', query: {} },
      });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('CommandAPI', () => {
    it('returns the full-scan commands of a function type across modules', async () => {
      const res = (
        await get('/api/CommandAPI?make=Honda&function_type=scan&full_scan=true&module=%5B%22Engine%22%5D')
      ).json();
      expect(res.data).toEqual([
        { command: '19 02 FF', module: 'Airbag' },
        { command: 'AT Z', module: 'Engine' },
        { command: '03', module: 'Engine' },
      ]);
      expect(res.pagination).toEqual({ currentPage: 1, totalPages: 1, totalItems: 3, itemsPerPage: 100 });
    });

    it('returns the commands of the listed modules when not a full scan', async () => {
      const res = (
        await get(
          '/api/CommandAPI?make=honda&function_type=scan&full_scan=false&module=%5B%22engine%22%2C%22ABS%22%5D',
        )
      ).json();
      expect(res.data.map((d: { command: string }) => d.command)).toEqual(['22 F1 90', 'AT Z', '03']);
    });

    it.each([
      ['function_type=scan&module=%5B%5D', 'make'],
      ['make=Honda&function_type=odometer', 'function_type'],
      ['make=Honda&function_type=scan&full_scan=yes', 'full_scan'],
      ['make=Honda&function_type=scan&module=Engine', 'module'],
    ])('answers 400 naming the parameter for %s', async (query, name) => {
      const res = await get(`/api/CommandAPI?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(`"${name}"`);
    });
  });

  describe('makes and models', () => {
    it('lists the makes of a segment by segement (sic) or segment, case-insensitively', async () => {
      expect((await get('/api/FetchMakeList?segement=bike')).json()).toEqual({
        data: [{ name: 'TVS Bikes', segment: 'bike' }],
      });
      expect((await get('/api/FetchMakeList?segment=THREE_WHEELER')).json().data).toEqual([
        { name: 'Bajaj 3 Wheelers', segment: 'three_wheeler' },
      ]);
      expect((await get('/api/FetchMakeList?segement=hcv')).json().data[0].name).toBe('Ashok Leyland');
      expect((await get('/api/FetchMakeList')).json().data).toHaveLength(4);
      const bad = await get('/api/FetchMakeList?segement=boat');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toContain('"segement"');
    });

    it('exports the makes of a segment as CSV with S.No', async () => {
      const res = await download('makes', 'csv', { segement: 'bike' });
      expect(res.headers['content-disposition']).toMatch(/Bike_Makes_bike_\d{4}-\d{2}-\d{2}\.csv/);
      expect(parse(res.rawPayload, { bom: true })).toEqual([
        ['S.No', 'Segment', 'Make Name'],
        ['1', 'bike', 'TVS Bikes'],
      ]);
    });

    it('lists the models of a make and exports them', async () => {
      expect(
        (await get('/api/ModelList?make=HONDA')).json().data.map((m: { name: string }) => m.name),
      ).toEqual(['Civic', 'Civic Type R', 'Jazz']);
      expect((await get('/api/ModelList?make=Nobody')).json()).toEqual({ data: [] });
      expect((await get('/api/ModelList')).statusCode).toBe(400);
      const res = await download('models', 'csv', { make: 'Honda' });
      expect(res.headers['content-disposition']).toMatch(/Model_List_Honda_\d{4}-\d{2}-\d{2}\.csv/);
      expect(parse(res.rawPayload, { bom: true })[1]).toEqual(['1', 'Honda', 'Civic']);
    });
  });

  describe('grouped catalogues', () => {
    it('lists custom commands once per function name, merging the variants of the group', async () => {
      const res = (await get('/api/CustomCommands?make=Honda')).json();
      expect(res.total).toBe(3);
      expect(res.data.map((g: { function_name: string }) => g.function_name)).toEqual([
        'DPF Regeneration',
        'Injector Coding',
        'Service Reset',
      ]);
      expect(res.data[0]).toEqual({
        function_name: 'DPF Regeneration',
        make: 'Honda',
        model: 'Civic',
        variant: ['Diesel', 'Petrol'],
        commands: [{ Diesel: ['10 03', '31 01 FF 00', '31 01 FF 01'], Petrol: ['10 03'] }],
      });
      expect(res.data[2].model).toBe('All models');
    });

    it('selects a model by its group, plus make-wide rows, and a year inside the range', async () => {
      const byModel = (await get('/api/CustomCommands?make=honda&model=civic%20type%20r')).json();
      expect(byModel.data.map((g: { function_name: string }) => g.function_name)).toEqual([
        'DPF Regeneration',
        'Service Reset',
      ]);
      const byYear = (await get('/api/CustomCommands?make=Honda&model=Civic&year=2018')).json();
      expect(byYear.data[0].commands).toEqual([{ Diesel: ['10 03', '31 01 FF 00'] }]);
      expect(
        (await get('/api/CustomCommands?make=Honda&model=Civic&year=2030')).json().data[0].variant,
      ).toEqual(['Petrol', 'Diesel']);
      expect((await get('/api/CustomCommands?year=20x0')).statusCode).toBe(400);
    });

    it('pages over groups, never splitting one', async () => {
      const page1 = (await get('/api/CustomCommands?limit=2')).json();
      const page2 = (await get('/api/CustomCommands?limit=2&page=2')).json();
      expect(page1.total).toBe(4);
      expect(page1.data.map((g: { function_name: string }) => g.function_name)).toEqual([
        'ABS Bleed',
        'DPF Regeneration',
      ]);
      expect(page2.data.map((g: { function_name: string }) => g.function_name)).toEqual([
        'Injector Coding',
        'Service Reset',
      ]);
      // A short last page, and a page past the end, still count every group.
      const short = (await get('/api/CustomCommands?limit=3&page=2')).json();
      expect(short).toMatchObject({ total: 4, data: [{ function_name: 'Service Reset' }] });
      expect((await get('/api/CustomCommands?limit=3&page=3')).json()).toEqual({ data: [], total: 4 });
    });

    it('lists actuation cards per type with all their details', async () => {
      const res = (await get('/api/ActuationCommands?make=Honda')).json();
      expect(res.total).toBe(2);
      expect(res.data[0].actuation_type).toBe('Cooling Fan');
      expect(res.data[0].details.map((d: { pid: string }) => d.pid)).toEqual(['2F 01', '2F 02', '2F 03']);
      expect(res.data[0].details[0]).toEqual({
        pid: '2F 01',
        actuation_subtype: 'On',
        last_subtype: 'Off',
        seed_key_variant: 'HND1',
        message: 'Run 2F 01',
        message_item: true,
        success_check: '71',
      });
      expect(res.data[1]).toMatchObject({ actuation_type: 'Horn', details: [{ pid: '2F 10' }] });
      expect(res.data[1].details).toHaveLength(1);
      expect((await get('/api/ActuationCommands?model=Jazz')).json().data[0].details).toHaveLength(1);
    });

    it('exports actuation commands as one CSV row per detail', async () => {
      const res = await download('actuationCommands', 'csv', { make: 'Honda', model: 'Civic' });
      expect(res.headers['content-disposition']).toMatch(
        /Actuation_Commands_\d{4}-\d{2}-\d{2}_Honda_Civic\.csv/,
      );
      const rows: string[][] = parse(res.rawPayload, { bom: true });
      expect(rows[0]?.[0]).toBe('Actuation Type');
      expect(rows.slice(1).map((r: string[]) => [r[0], r[2]])).toEqual([
        ['Cooling Fan', '2F 01'],
        ['Cooling Fan', '2F 02'],
        ['Horn', '2F 10'],
      ]);
    });

    it('lists SPF commands per function with Hard Coded from any row', async () => {
      const res = (await get('/api/SPFCommands')).json();
      expect(res).toEqual({
        data: [
          {
            function_name: 'Steering Angle Reset',
            hard_coded: true,
            details: [
              { pid: '31 01 01', message: 'Centre the wheel', command_type: 'UDS' },
              { pid: '31 01 02', message: 'Centre', command_type: 'UDS' },
            ],
          },
        ],
        total: 1,
      });
      expect((await get('/api/SPFCommands?model=Civic')).json().data[0].hard_coded).toBe(false);
    });

    // The actuation and SPF answers are written as JSON text from the stored arrays: they must
    // still be exactly the contract's shape, cut between groups.
    it('writes the actuation and SPF answers in the contract shape, page by page of groups', async () => {
      const tvs = await t.db.kysely
        .selectFrom('model_groups')
        .innerJoin('makes', 'makes.id', 'model_groups.make_id')
        .select(['makes.id as make_id', 'model_groups.id as model_group_id'])
        .where('makes.name', '=', 'TVS Bikes')
        .executeTakeFirstOrThrow();
      const step = {
        pid: '2F 20',
        actuation_subtype: 'On',
        last_subtype: 'Off',
        seed_key_variant: 'None',
        message: 'Wiping "fast"',
        message_item: false,
        success_check: '6F 20',
      };
      await t.db.kysely
        .insertInto('actuation_commands')
        .values({ make_id: tvs.make_id, actuation_type: 'Wipers', message: null, details: '[]' })
        .execute();
      await insertActuation(t.db, tvs, 'Wipers', [step], 'Wipers on');
      await insertActuation(t.db, { make_id: tvs.make_id }, 'Wipers', [step], 'Later message');
      const actuation = await get('/api/ActuationCommands?make=tvs%20bikes');
      expect(actuation.headers['content-type']).toMatch(/^application\/json/);
      expect(actuationCommandListSchema.strict().parse(actuation.json())).toEqual({
        data: [{ actuation_type: 'Wipers', message: 'Wipers on', details: [step] }],
        total: 1,
      });
      expect((await get('/api/ActuationCommands?make=Nobody')).json()).toEqual({ data: [], total: 0 });

      await insertSpf(t.db, tvs, 'ABS Bleed', false, []);
      await insertSpf(t.db, { make_id: tvs.make_id }, 'Throttle Learn', false, [
        { pid: '31 01 05', message: 'Close the throttle', command_type: 'UDS' },
      ]);
      await insertSpf(t.db, tvs, 'Throttle Learn', true, [
        { pid: '31 01 06', message: 'Open it\nfully', command_type: 'UDS' },
      ]);
      const first = (await get('/api/SPFCommands?make=TVS%20Bikes&limit=1')).json();
      expect(spfCommandListSchema.strict().parse(first)).toEqual({
        data: [{ function_name: 'ABS Bleed', hard_coded: false, details: [] }],
        total: 2,
      });
      expect((await get('/api/SPFCommands?make=TVS%20Bikes&limit=1&page=2')).json().data).toEqual([
        {
          function_name: 'Throttle Learn',
          hard_coded: true,
          details: [
            { pid: '31 01 05', message: 'Close the throttle', command_type: 'UDS' },
            { pid: '31 01 06', message: 'Open it\nfully', command_type: 'UDS' },
          ],
        },
      ]);
      expect((await get('/api/SPFCommands?make=TVS%20Bikes&page=2')).json()).toEqual({ data: [], total: 2 });
    });

    it('names the makes and models of a custom command group in the order of their first row', async () => {
      const tvs = await t.db.kysely
        .selectFrom('model_groups')
        .innerJoin('makes', 'makes.id', 'model_groups.make_id')
        .select(['makes.id as make_id', 'model_groups.id as model_group_id'])
        .where('makes.name', '=', 'TVS Bikes')
        .executeTakeFirstOrThrow();
      await insertCustom(t.db, tvs, 'Service Reset', { All: ['31 01 02 04', '31 01 02 03'] });
      const group = (await get('/api/CustomCommands')).json().data[3];
      expect(group).toEqual({
        function_name: 'Service Reset',
        make: 'Honda, TVS Bikes',
        model: 'All models, Apache',
        variant: ['All'],
        commands: [{ All: ['31 01 02 03', '31 01 02 04'] }],
      });
    });
  });

  describe('odometer and live data', () => {
    it('pages odometer entries at 30 with the 12 fields', async () => {
      const res = (await get('/api/OdometerAPI')).json();
      expect(res.total).toBe(33);
      expect(res.data).toHaveLength(30);
      expect(res.data[0]).toEqual({
        id: expect.any(Number),
        header: '7E0',
        subHeader: '7E8',
        pid: '22 F1 00',
        protocol: 'ISO 15765-4 CAN (11 bit, 500 kbaud)',
        system: 'Instrument Cluster',
        init: 'ATSH7E0',
        formulaBased: true,
        generic: false,
        formula_metric: '(A*65536+B*256+C)/10',
        formula_imperial: '(A*65536+B*256+C)/16.09',
        unit_metric: 'km',
        unit_imperial: 'mi',
      });
      expect((await get('/api/OdometerAPI?make=Honda&year=2021')).json().total).toBe(0);
      expect((await get('/api/OdometerAPI?make=Honda&year=2020')).json().total).toBe(32);
    });

    it('exports odometer entries as CSV with a neutralised formula', async () => {
      const res = await download('odometer', 'csv', { make: 'TVS Bikes' });
      expect(res.headers['content-disposition']).toMatch(/Odometer_Details_\d{4}-\d{2}-\d{2}_TVS-Bikes\.csv/);
      const rows = parse(res.rawPayload, { bom: true });
      expect(rows).toHaveLength(2);
      expect(rows[1]?.[8]).toBe("'@SUM(A1)");
    });

    it('filters live data by make, model and module, with the reference data per row', async () => {
      const all = (await get('/api/LiveDataCommands')).json();
      expect(all.total).toBe(3);
      const civic = (await get('/api/LiveDataCommands?make=Honda&model=Civic&module=engine')).json();
      expect(civic.data).toEqual([
        {
          id: expect.any(Number),
          name: 'Engine speed',
          model: 'Civic',
          make: 'Honda',
          header: '7E0',
          subHeader: '7E8',
          pid: '010C',
          protocol: 'ISO 15765-4 CAN (11 bit, 500 kbaud)',
          formulaBased: true,
          formula_metric: '(A*256+B)/4',
          formula_imperial: '(A*256+B)/4',
          unit_metric: 'rpm',
          unit_imperial: 'rpm',
          referenceJSON: { bit_offset: 0, bit_length: 16 },
        },
      ]);
      expect(
        (await get('/api/LiveDataCommands?make=Honda&model=Jazz'))
          .json()
          .data.map((d: { name: string }) => d.name),
      ).toEqual(['Battery voltage']);
    });
  });
});
