import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaultCodes, insertFaultTexts } from './factories.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

describe.each(DIALECTS)('fault-code browsers on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const get = (url: string) => t.app.inject({ url, headers });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    // 35 generic P03xx codes, 3 Honda codes, 2 Toyota codes (one with no title or severity).
    await insertFaultCodes(t.db, [
      ...Array.from({ length: 35 }, (_, i) => ({ dtc: `P03${String(i).padStart(2, '0')}` })),
      { dtc: 'P1456', make: 'Honda', company_id: 21, severity: 3, repair_difficulty: 3 },
      { dtc: 'P1457', make: 'Honda', company_id: 21 },
      { dtc: 'P0300', make: 'Honda', company_id: 21 },
      { dtc: 'P1100', make: 'Toyota', company_id: 57, title: null, severity: null, repair_difficulty: null },
      { dtc: 'B1200', make: 'Toyota', company_id: 57, severity: 5 },
    ]);
    await insertFaultTexts(t.db, 'fault_code_causes', [
      { dtc: 'P0300', text: 'Worn spark plugs' },
      { dtc: 'P0300', text: 'Abgenutzte Zündkerzen', language: 'de' },
      { dtc: 'P1456', text: 'Loose fuel cap', make: 'Honda', company_id: 21 },
    ]);
    await insertFaultTexts(t.db, 'fault_code_symptoms', [{ dtc: 'P0300', text: 'Engine runs rough' }]);
    await insertFaultTexts(t.db, 'fault_code_solutions', [
      { dtc: 'P0300', text: '100% check: plugs_and coils' },
    ]);
  });
  afterAll(() => t.close());

  it('pages the fault-code list at 30 rows with the exact total, ordered by id', async () => {
    const first = (await get('/api/faultCodesList')).json();
    expect(first.total).toBe(40);
    expect(first.data).toHaveLength(30);
    const second = (await get('/api/faultCodesList?page=2')).json();
    expect(second.total).toBe(40);
    expect(second.data).toHaveLength(10);
    const ids = [...first.data, ...second.data].map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(40);
    expect((await get('/api/faultCodesList?page=3')).json()).toEqual({ data: [], total: 40 });
  });

  it('returns the row shape of the spec with generic as a boolean and company 0', async () => {
    const body = (await get('/api/faultCodesList?limit=1')).json();
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      dtc: 'P0300',
      title: 'Title of P0300',
      severity: 2,
      repair_difficulty: 1,
      make: null,
      company_id: 0,
      generic: true,
    });
    const toyota = (await get('/api/faultCodesList?dtc=P1100')).json();
    expect(toyota.data[0]).toMatchObject({ title: null, severity: null, make: 'Toyota', generic: false });
  });

  it('filters dtc and make by case-insensitive contains, generic exactly', async () => {
    expect((await get('/api/faultCodesList?dtc=p03')).json().total).toBe(36);
    expect((await get('/api/faultCodesList?dtc=p03&generic=true')).json().total).toBe(35);
    expect((await get('/api/faultCodesList?dtc=p03&generic=false')).json().total).toBe(1);
    expect((await get('/api/faultCodesList?make=hON')).json().total).toBe(3);
    expect((await get('/api/faultCodesList?make=oyo&dtc=1')).json().total).toBe(2);
    expect((await get('/api/faultCodesList?generic=false')).json().total).toBe(5);
    expect((await get('/api/faultCodesList?dtc=%20%20&make=')).json().total).toBe(40);
  });

  it('treats LIKE wildcards in a filter as plain characters', async () => {
    expect((await get('/api/faultCodesList?dtc=%25')).json().total).toBe(0);
    expect((await get('/api/faultCodesList?dtc=P_3')).json().total).toBe(0);
    expect((await get('/api/FaultCodeSolutions?dtc=P0300')).json().total).toBe(1);
  });

  it('answers an empty result with 200, an empty list and total 0', async () => {
    const res = await get('/api/faultCodesList?dtc=ZZZ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [], total: 0 });
  });

  it.each([
    ['page=abc', 'page'],
    ['page=0', 'page'],
    ['page=1.5', 'page'],
    ['limit=0', 'limit'],
    ['limit=999999', 'limit'],
    ['generic=maybe', 'generic'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const res = await get(`/api/faultCodesList?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BAD_REQUEST');
    expect(res.json().error).toContain(`"${name}"`);
  });

  it('ignores unknown parameters', async () => {
    expect((await get('/api/faultCodesList?colour=blue')).statusCode).toBe(200);
  });

  it('lists causes, symptoms and solutions with their text column and language', async () => {
    const causes = (await get('/api/FaultCodeCauses?dtc=P0300')).json();
    expect(causes.total).toBe(2);
    expect(causes.data[1]).toEqual({
      id: expect.any(Number),
      dtc: 'P0300',
      causes: 'Abgenutzte Zündkerzen',
      language: 'de',
      make: null,
      company_id: 0,
      generic: true,
    });
    expect((await get('/api/FaultCodeCauses?make=honda')).json().data[0]).toMatchObject({
      causes: 'Loose fuel cap',
      company_id: 21,
      generic: false,
    });
    expect((await get('/api/FaultCodeSymptoms')).json().data[0]).toMatchObject({
      symptom: 'Engine runs rough',
    });
    expect((await get('/api/FaultCodeSolutions')).json().data[0]).toMatchObject({
      solution: '100% check: plugs_and coils',
    });
    expect((await get('/api/FaultCodeSymptoms?generic=false')).json()).toEqual({ data: [], total: 0 });
  });
});
