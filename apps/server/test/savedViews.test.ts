import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaultCodes } from './factories.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

type Operator = Awaited<ReturnType<typeof signedIn>>;

describe.each(DIALECTS)('list preferences, saved views and chosen export columns on %s', (dialect) => {
  let t: TestContext;
  let alice: Operator;
  let bob: Operator;
  let admin: Operator;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    alice = await signedIn(t.db, 'viewer');
    bob = await signedIn(t.db, 'editor');
    admin = await signedIn(t.db, 'admin');
  });
  afterAll(() => t.close());

  const as = (who: Operator) => ({
    get: (url: string) => t.app.inject({ method: 'GET', url, headers: who.headers }),
    put: (url: string, payload: unknown) =>
      t.app.inject({ method: 'PUT', url, headers: who.headers, payload: payload as object }),
    post: (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object }),
    patch: (url: string, payload: unknown) =>
      t.app.inject({ method: 'PATCH', url, headers: who.headers, payload: payload as object }),
    del: (url: string) => t.app.inject({ method: 'DELETE', url, headers: who.headers }),
  });

  describe('preferences', () => {
    it('answers the declared layout for a list never arranged, and keeps each operator their own', async () => {
      const fresh = await as(alice).get('/api/preferences/lists/ScanDetail');
      expect(fresh.statusCode).toBe(200);
      expect(fresh.json()).toEqual({
        list: 'ScanDetail',
        columns: null,
        density: 'comfortable',
        updated_at: null,
      });

      const layout = { order: ['Email', 'ID', 'Make'], hidden: ['VIN'] };
      const put = await as(alice).put('/api/preferences/lists/ScanDetail', { columns: layout });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toMatchObject({ columns: layout, density: 'comfortable' });
      // Density alone keeps the columns; another browser (another request) reads both back.
      await as(alice).put('/api/preferences/lists/ScanDetail', { density: 'compact' });
      expect((await as(alice).get('/api/preferences/lists/ScanDetail')).json()).toMatchObject({
        columns: layout,
        density: 'compact',
      });
      // Another operator's, and another list's, are untouched.
      expect((await as(bob).get('/api/preferences/lists/ScanDetail')).json().columns).toBeNull();
      expect((await as(alice).get('/api/preferences/lists/users')).json().columns).toBeNull();
      // Reset to default.
      const reset = await as(alice).put('/api/preferences/lists/ScanDetail', { columns: null });
      expect(reset.json()).toMatchObject({ columns: null, density: 'compact' });
    });

    it('refuses hostile list keys and layouts with a sentence, never a 500', async () => {
      const cases: [string, unknown][] = [
        ['/api/preferences/lists/ScanDetail', { columns: { order: ['A', 'A'], hidden: [] } }],
        ['/api/preferences/lists/ScanDetail', { columns: { order: 'A', hidden: [] } }],
        ['/api/preferences/lists/ScanDetail', { columns: { order: [''], hidden: [] } }],
        ['/api/preferences/lists/ScanDetail', { columns: { order: ['x'.repeat(101)], hidden: [] } }],
        [
          '/api/preferences/lists/ScanDetail',
          { columns: { order: Array.from({ length: 81 }, (_, i) => `c${i}`), hidden: [] } },
        ],
        ['/api/preferences/lists/ScanDetail', { density: 'tiny' }],
        ['/api/preferences/lists/ScanDetail', { owner: 3 }],
        ['/api/preferences/lists/ScanDetail', [1, 2]],
        [`/api/preferences/lists/${'a'.repeat(81)}`, { density: 'compact' }],
        ['/api/preferences/lists/..%2Fetc', { density: 'compact' }],
        ['/api/preferences/lists/%E2%80%AE', { density: 'compact' }],
      ];
      for (const [url, body] of cases) {
        const res = await as(alice).put(url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json().error).toMatch(/\w+ \w+/);
      }
      const nul = await as(alice).get('/api/preferences/lists/a%00b');
      expect(nul.statusCode).toBe(400);
    });

    it('is for signed-in operators only', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/preferences/lists/ScanDetail' });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('saved views', () => {
    const view = (over: Record<string, unknown> = {}) => ({
      list: 'ScanDetail',
      name: 'Honda last week',
      query: 'make=honda&scan_start_time=%40last7d&sort=email&order=asc',
      columns: { order: ['Email', 'ID'], hidden: ['VIN'] },
      ...over,
    });

    it('creates, lists, opens, renames, updates and deletes a view of its owner', async () => {
      const created = await as(alice).post('/api/views', view());
      expect(created.statusCode).toBe(201);
      const body = created.json();
      expect(body).toMatchObject({
        list: 'ScanDetail',
        name: 'Honda last week',
        shared: false,
        query: 'make=honda&scan_start_time=%40last7d&sort=email&order=asc',
        columns: { order: ['Email', 'ID'], hidden: ['VIN'] },
        owner_id: alice.operator.id,
        owner_email: alice.operator.email,
        editable: true,
      });
      const id: number = body.id;

      const listed = await as(alice).get('/api/views?list=ScanDetail');
      expect(listed.json().views.map((v: { id: number }) => v.id)).toContain(id);
      expect((await as(alice).get('/api/views?list=users')).json().views).toEqual([]);
      expect((await as(alice).get(`/api/views/${id}`)).json().name).toBe('Honda last week');

      const renamed = await as(alice).patch(`/api/views/${id}`, { name: '  Honda, 7 days  ' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().name).toBe('Honda, 7 days');
      const updated = await as(alice).patch(`/api/views/${id}`, { query: 'make=toyota', columns: null });
      expect(updated.json()).toMatchObject({ query: 'make=toyota', columns: null, name: 'Honda, 7 days' });

      const deleted = await as(alice).del(`/api/views/${id}`);
      expect(deleted.statusCode).toBe(204);
      expect((await as(alice).get(`/api/views/${id}`)).statusCode).toBe(404);
      expect((await as(alice).del(`/api/views/${id}`)).statusCode).toBe(404);
    });

    it('keeps a private view private: another operator, even an admin, can neither read nor change it', async () => {
      const { id } = (await as(alice).post('/api/views', view({ name: 'Mine only' }))).json();
      for (const other of [bob, admin]) {
        const read = await as(other).get(`/api/views/${id}`);
        expect(read.statusCode).toBe(404);
        expect(read.json().error).toMatch(/no view .* you can open/);
        expect((await as(other).get('/api/views?list=ScanDetail')).json().views).toEqual(
          expect.not.arrayContaining([expect.objectContaining({ id })]),
        );
        expect((await as(other).patch(`/api/views/${id}`, { name: 'Taken' })).statusCode).toBe(404);
        expect((await as(other).del(`/api/views/${id}`)).statusCode).toBe(404);
      }
      expect((await as(alice).get(`/api/views/${id}`)).json().name).toBe('Mine only');
    });

    it('shares a view with everyone; only its owner or an admin changes it', async () => {
      const { id } = (await as(alice).post('/api/views', view({ name: 'Team view', shared: true }))).json();
      const seen = await as(bob).get(`/api/views/${id}`);
      expect(seen.statusCode).toBe(200);
      expect(seen.json()).toMatchObject({ name: 'Team view', shared: true, editable: false });
      expect((await as(bob).get('/api/views?list=ScanDetail')).json().views).toEqual(
        expect.arrayContaining([expect.objectContaining({ id, editable: false })]),
      );

      const refused = await as(bob).patch(`/api/views/${id}`, { name: 'Bob was here' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toContain(alice.operator.email);
      expect((await as(bob).del(`/api/views/${id}`)).statusCode).toBe(403);

      expect((await as(admin).get(`/api/views/${id}`)).json().editable).toBe(true);
      const byAdmin = await as(admin).patch(`/api/views/${id}`, { name: 'Team view (checked)' });
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.json().owner_id).toBe(alice.operator.id);

      // Un-shared by its owner: private again.
      await as(alice).patch(`/api/views/${id}`, { shared: false });
      expect((await as(bob).get(`/api/views/${id}`)).statusCode).toBe(404);
      await as(alice).patch(`/api/views/${id}`, { shared: true });
      expect((await as(admin).del(`/api/views/${id}`)).statusCode).toBe(204);
    });

    it('lists the operator’s own views first, then the shared ones, by name', async () => {
      await as(bob).post('/api/views', view({ list: 'users', name: 'b shared', shared: true, query: '' }));
      await as(alice).post('/api/views', view({ list: 'users', name: 'z mine', query: '' }));
      await as(alice).post('/api/views', view({ list: 'users', name: 'a mine', query: '' }));
      const names = (await as(alice).get('/api/views?list=users'))
        .json()
        .views.map((v: { name: string }) => v.name);
      expect(names).toEqual(['a mine', 'z mine', 'b shared']);
    });

    it('refuses a name already used by the same owner on the same list (409), allows it elsewhere', async () => {
      await as(alice).post('/api/views', view({ name: 'Twice' }));
      const again = await as(alice).post('/api/views', view({ name: 'Twice' }));
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toContain('already have a view called "Twice"');
      expect((await as(bob).post('/api/views', view({ name: 'Twice' }))).statusCode).toBe(201);
      expect((await as(alice).post('/api/views', view({ name: 'Twice', list: 'users' }))).statusCode).toBe(
        201,
      );
      const other = (await as(alice).post('/api/views', view({ name: 'Other' }))).json();
      expect((await as(alice).patch(`/api/views/${other.id}`, { name: 'Twice' })).statusCode).toBe(409);
    });

    it('validates names, queries, lists and layouts with a sentence', async () => {
      const bad: unknown[] = [
        view({ name: '' }),
        view({ name: '   ' }),
        view({ name: 'x'.repeat(81) }),
        view({ name: 'tab\there' }),
        view({ name: 42 }),
        view({ list: '../audit' }),
        view({ list: '' }),
        view({ query: '?make=honda' }),
        view({ query: 'x'.repeat(4001) }),
        view({ shared: 'yes' }),
        view({ columns: { order: ['a', 'a'], hidden: [] } }),
        view({ owner_id: 1 }),
        [1, 2],
      ];
      for (const body of bad) {
        const res = await as(alice).post('/api/views', body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.json().error).toMatch(/\w+ \w+/);
      }
      const { id } = (await as(alice).post('/api/views', view({ name: 'Valid' }))).json();
      expect((await as(alice).patch(`/api/views/${id}`, { name: '' })).statusCode).toBe(400);
      expect((await as(alice).patch(`/api/views/${id}`, { id: 99 })).statusCode).toBe(400);
      expect((await as(alice).get('/api/views')).statusCode).toBe(400);
    });

    it('answers hostile ids with 400 or 404, never 500', async () => {
      for (const id of ['abc', '-1', '0', '1.5', '1e3', '99999999999999999999', '%00', "1'--", '0x10']) {
        const res = await as(alice).get(`/api/views/${id}`);
        expect([400, 404], id).toContain(res.statusCode);
        expect(res.json().error).toMatch(/\w+ \w+/);
        expect([400, 404], id).toContain((await as(alice).del(`/api/views/${id}`)).statusCode);
        expect([400, 404], id).toContain(
          (await as(alice).patch(`/api/views/${id}`, { name: 'x' })).statusCode,
        );
      }
      expect((await as(alice).get('/api/views/2147483647')).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/api/views?list=ScanDetail' })).statusCode).toBe(401);
    });

    it('goes with its owner when the operator is deleted', async () => {
      const gone = await signedIn(t.db, 'viewer');
      const { id } = (await as(gone).post('/api/views', view({ name: 'Leaving', shared: true }))).json();
      await as(gone).put('/api/preferences/lists/ScanDetail', { density: 'compact' });
      await t.db.kysely.deleteFrom('sessions').where('operator_id', '=', gone.operator.id).execute();
      await t.db.kysely.deleteFrom('operators').where('id', '=', gone.operator.id).execute();
      expect((await as(alice).get(`/api/views/${id}`)).statusCode).toBe(404);
      const left = await t.db.kysely
        .selectFrom('list_preferences')
        .select('list')
        .where('operator_id', '=', gone.operator.id)
        .execute();
      expect(left).toEqual([]);
    });
  });

  describe('exports of chosen columns', () => {
    beforeAll(async () => {
      await insertFaultCodes(t.db, [
        { dtc: 'P0001', title: 'First', severity: 3, repair_difficulty: 1 },
        { dtc: 'P0002', title: 'Second', severity: 1, repair_difficulty: 7 },
      ]);
    });
    const ticket = (body: object) => as(alice).post('/api/exports', body);

    it('writes only the visible columns, in their order', async () => {
      const res = await ticket({ list: 'faultCodes', format: 'csv', query: {}, columns: ['Title', 'DTC'] });
      expect(res.statusCode).toBe(201);
      const file = await t.app.inject({ url: res.json().url });
      const rows: string[][] = parse(file.rawPayload, { bom: true });
      expect(rows).toEqual([
        ['Title', 'DTC'],
        ['First', 'P0001'],
        ['Second', 'P0002'],
      ]);
    });

    it('still writes every column when none are named', async () => {
      const res = await ticket({ list: 'faultCodes', format: 'csv', query: {} });
      const rows: string[][] = parse((await t.app.inject({ url: res.json().url })).rawPayload, { bom: true });
      expect(rows[0]?.length).toBeGreaterThan(5);
    });

    it('refuses an unknown column by name, and an empty or bad column list', async () => {
      const unknown = await ticket({
        list: 'faultCodes',
        format: 'csv',
        query: {},
        columns: ['DTC', 'Password'],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error).toContain('no column "Password"');
      expect(unknown.json().error).toContain('DTC');
      for (const columns of [[], [''], 'DTC', [1], Array.from({ length: 81 }, () => 'DTC')]) {
        const res = await ticket({ list: 'faultCodes', format: 'csv', query: {}, columns });
        expect(res.statusCode, JSON.stringify(columns).slice(0, 40)).toBe(400);
      }
      const doc = await ticket({ list: 'scanReport', format: 'pdf', query: { id: '1' }, columns: ['ID'] });
      expect(doc.statusCode).toBe(400);
    });
  });
});
