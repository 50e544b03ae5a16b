import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Every catalogue table has these columns; queries are typed against one of them. */
export type CatalogueTable =
  | 'custom_commands'
  | 'actuation_commands'
  | 'spf_commands'
  | 'odometer_commands'
  | 'live_data_commands';

export interface VehicleFilters {
  make?: string | undefined;
  model?: string | undefined;
  year?: number | undefined;
}

// Queries alias the catalogue table as `c`, so one filter serves all five tables.
type Eb = ExpressionBuilder<Database & { c: Database['odometer_commands'] }, 'c'>;

/**
 * Make, model and year of the command catalogues (decisions §2–3): make and model exact and
 * case-insensitive; a model selects its model group's rows and the make-wide rows (no group) of
 * its make; the year must fall in [from_year, to_year], an empty bound being open.
 */
export function vehicleWhere<DB, TB extends keyof DB>(anyEb: ExpressionBuilder<DB, TB>, f: VehicleFilters) {
  // Callers select from `<catalogue table> as c`; the columns used here exist on all five.
  const eb = anyEb as unknown as Eb;
  const conditions = [];
  if (f.make) {
    const make = f.make.toLowerCase();
    conditions.push(
      eb(
        'c.make_id',
        'in',
        eb
          .selectFrom('makes')
          .select('makes.id')
          .where((m) => m(m.fn('lower', ['makes.name']), '=', make)),
      ),
    );
  }
  if (f.model) {
    const model = f.model.toLowerCase();
    const models = () => eb.selectFrom('models').where((m) => m(m.fn('lower', ['models.name']), '=', model));
    conditions.push(
      eb.or([
        eb('c.model_group_id', 'in', models().select('models.model_group_id')),
        eb.and([
          eb('c.model_group_id', 'is', null),
          eb('c.make_id', 'in', models().select('models.make_id')),
        ]),
      ]),
    );
  }
  if (f.year !== undefined) {
    conditions.push(
      eb.and([
        eb.or([eb('c.from_year', 'is', null), eb('c.from_year', '<=', f.year)]),
        eb.or([eb('c.to_year', 'is', null), eb('c.to_year', '>=', f.year)]),
      ]),
    );
  }
  return eb.and(conditions);
}

export const hasVehicleFilter = (f: VehicleFilters) => Boolean(f.make || f.model || f.year !== undefined);
