import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTED_LISTS, type CountedTableName } from '../src/modules/operations/lists.ts';
import { createTestApp, DIALECTS, type TestContext } from './helpers.ts';
import { insertActuationRun, insertScan, insertSpecialFunction } from './operationsFactories.ts';

/**
 * The list shapes (`modules/operations/lists.ts`) say which columns the database counts; the
 * counters are kept by triggers that migrations created. A column declared there without a
 * migration counting it would give wrong totals without any error — this test is that error.
 */
describe.each(DIALECTS)('counted list shapes match the database (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await insertScan(t.db);
    await insertSpecialFunction(t.db);
    await insertActuationRun(t.db);
  });
  afterAll(() => t.close());

  it.each(Object.keys(COUNTED_LISTS) as CountedTableName[])(
    '%s: every declared counter is kept',
    async (table) => {
      const { counted } = COUNTED_LISTS[table];
      const totals = (
        await sql<{
          col: string;
          months: unknown;
        }>`SELECT col, months FROM list_totals WHERE tbl = ${table} AND n > 0`.execute(t.db.kysely)
      ).rows;
      const days = (
        await sql<{ col: string }>`SELECT DISTINCT col FROM list_days WHERE tbl = ${table} AND n > 0`.execute(
          t.db.kysely,
        )
      ).rows.map((r) => r.col);
      const totalled = new Set(totals.map((r) => r.col));
      const declared = [...counted.byDay, ...counted.totalsOnly, ...('end' in counted ? [counted.end] : [])];
      expect(declared.filter((col) => !totalled.has(col))).toEqual([]);
      expect(counted.byDay.filter((col) => !days.includes(col))).toEqual([]);
      const withMonths = new Set(
        totals.filter((r) => r.months !== null && r.months !== '{}').map((r) => r.col),
      );
      expect(counted.byMonth.filter((col) => !withMonths.has(col))).toEqual([]);
    },
  );

  // The sorted pages read the counters' values in the column's order (`sortedList.ts`): the
  // columns declared numeric must be exactly the counted ones that hold numbers.
  it.each(Object.keys(COUNTED_LISTS) as CountedTableName[])(
    '%s: the counted columns holding numbers are declared numeric',
    async (table) => {
      const { counted } = COUNTED_LISTS[table];
      const row = (await t.db.kysely.selectFrom(table).selectAll().executeTakeFirstOrThrow()) as Record<
        string,
        unknown
      >;
      const columns = [...counted.byDay, ...counted.totalsOnly];
      expect(columns.filter((col) => typeof row[col] === 'number').sort()).toEqual(
        [...counted.numeric].sort(),
      );
    },
  );
});
