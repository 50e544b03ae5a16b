import { ACTUATIONS_PATH } from '@obd/contract';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';
import { expectListPages } from './scanPages.ts';
import { expectedOrder } from './sortOrder.ts';

/*
 * A filter on one counted column sorted by another that relates to it (sortedList.ts
 * `pairedValuesOfSortedColumn`): BMW's actuation runs by car model id, whose ids are mostly
 * BMW's own. The page is located through the pair counters summed per model id in the sorted
 * order, so pages that start inside a value, straddle several, reach into the runs without a
 * model id (first ascending, last descending) or into values shared with other makes (read by
 * another plan) must each be the rows' own. Model ids of one to four digits sort as numbers,
 * not as their counters' text; a fifth of a model's runs are deleted first, so the counters
 * have been written down as well as up.
 */
describe.each(DIALECTS)('a sorted list located through the pair counters, on %s', (dialect) => {
  let t: TestContext;
  let headers: Record<string, string>;
  const list = { path: ACTUATIONS_PATH, key: 'actuations' };
  type Row = { id: number; make: string; modelId: number | null; model: string | null };
  let rows: Row[] = [];

  // Per make, the model ids its runs take in turn (null: no model id), and a model name each.
  const MODELS: Record<string, (number | null)[]> = {
    BMW: [7, 12, 105, 1000, 2001, 33, 7, 105, null, 1000, 7, 33, 2001],
    'BMW Bikes': [88, 12, 88],
    Audi: [9, 500, 9, 12],
    Honda: [4, 1000, 4, 4, 4, 4],
  };
  const MAKES = ['BMW', 'BMW', 'Audi', 'BMW', 'Honda', 'BMW Bikes', 'Audi', 'BMW'];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    headers = (await signedIn(t.db)).headers;
    const all: Omit<Row, 'id'>[] = Array.from({ length: 3_000 }, (_, i) => {
      const make = MAKES[i % MAKES.length] as string;
      const ids = MODELS[make] as (number | null)[];
      const modelId = ids[Math.floor(i / MAKES.length) % ids.length] ?? null;
      return { make, modelId, model: i % 11 === 0 ? null : `${make} ${modelId ?? 'x'}` };
    });
    for (let from = 0; from < all.length; from += 500) {
      const batch = await t.db.kysely
        .insertInto('actuation_runs')
        .values(
          all.slice(from, from + 500).map((r, k) => {
            const created = new Date(Date.UTC(2026, 0, 1) + (from + k) * 60_000).toISOString();
            return {
              user_email: `driver${(from + k) % 97}@example.com`,
              make: r.make,
              model: r.model,
              actuation_type: 'Cooling Fan',
              actuation_option: 'On',
              input: '100',
              device: 'OBDLink MX+',
              product_id: null,
              user_car_model_id: r.modelId,
              end_date: null,
              created_at: created,
              updated_at: created,
              scan_res_array: '[]',
            };
          }),
        )
        .returning('id')
        .execute();
      rows.push(...batch.map((b, k) => ({ id: Number(b.id), ...(all[from + k] as Omit<Row, 'id'>) })));
    }
    // A fifth of BMW's model 105 and every run of its model 33 go.
    const gone = new Set(
      rows
        .filter((r) => r.make === 'BMW' && (r.modelId === 33 || (r.modelId === 105 && r.id % 5 === 0)))
        .map((r) => r.id),
    );
    await t.db.kysely
      .deleteFrom('actuation_runs')
      .where('id', 'in', [...gone])
      .execute();
    rows = rows.filter((r) => !gone.has(r.id));
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  for (const order of ['asc', 'desc'] as const) {
    it(`pages 'bmw' sorted by car model id ${order}`, async () => {
      const expected = expectedOrder(
        rows.filter((r) => r.make.startsWith('BMW')),
        'modelId',
        order,
      );
      await expectListPages(
        t.app,
        headers,
        list,
        `make=bmw&sort=user_car_model_id&order=${order}`,
        expected,
        [29, 250],
      );
    }, 120_000);

    it(`pages 'bmw' sorted by model ${order}`, async () => {
      const expected = expectedOrder(
        rows.filter((r) => r.make.startsWith('BMW')),
        'model',
        order,
      );
      await expectListPages(t.app, headers, list, `make=bmw&sort=model&order=${order}`, expected, [29, 250]);
    }, 120_000);

    it(`pages one car model id sorted by make ${order}`, async () => {
      const expected = expectedOrder(
        rows.filter((r) => r.modelId === 1000),
        'make',
        order,
      );
      await expectListPages(
        t.app,
        headers,
        list,
        `user_car_model_id=1000&sort=make&order=${order}`,
        expected,
        [29, 250],
      );
    }, 120_000);
  }
});
