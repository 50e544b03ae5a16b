import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The whole schema, identical on both dialects apart from the id column type and the
 * contains-search indexes (pg_trgm on PostgreSQL; SQLite's FTS5 trigram indexes come with the
 * screens that need them at scale).
 */
export function initialMigration(dialect: Dialect) {
  const id = <T extends CreateTableBuilder<any, any>>(t: T) =>
    dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  const catalogue = <T extends CreateTableBuilder<any, any>>(t: T) =>
    id(t)
      .addColumn('make_id', 'integer', (c) => c.notNull().references('makes.id'))
      .addColumn('model_group_id', 'integer', (c) => c.references('model_groups.id'))
      .addColumn('from_year', 'integer')
      .addColumn('to_year', 'integer');

  const fault = <T extends CreateTableBuilder<any, any>>(t: T) =>
    id(t)
      .addColumn('dtc', 'text', (c) => c.notNull())
      .addColumn('make', 'text')
      .addColumn('company_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('generic', 'integer', (c) => c.notNull().defaultTo(0));

  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('makes')
        .$call(id)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('segment', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('model_groups')
        .$call(id)
        .addColumn('make_id', 'integer', (c) => c.notNull().references('makes.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addUniqueConstraint('model_groups_make_name', ['make_id', 'name'])
        .execute();
      await db.schema
        .createTable('models')
        .$call(id)
        .addColumn('make_id', 'integer', (c) => c.notNull().references('makes.id'))
        .addColumn('model_group_id', 'integer', (c) => c.notNull().references('model_groups.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('year_from', 'integer')
        .addColumn('year_to', 'integer')
        .addUniqueConstraint('models_make_name', ['make_id', 'name'])
        .execute();
      await db.schema
        .createTable('coverage')
        .$call(id)
        .addColumn('make_id', 'integer', (c) => c.notNull().references('makes.id'))
        .addColumn('function_name', 'text', (c) => c.notNull())
        .addColumn('function_type', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('mechanic_commands')
        .$call(id)
        .addColumn('make_id', 'integer', (c) => c.notNull().references('makes.id'))
        .addColumn('command', 'text', (c) => c.notNull())
        .addColumn('module', 'text', (c) => c.notNull())
        .addColumn('function_type', 'text', (c) => c.notNull())
        .addColumn('full_scan', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('custom_commands')
        .$call(catalogue)
        .addColumn('function_name', 'text', (c) => c.notNull())
        .addColumn('variants', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('actuation_commands')
        .$call(catalogue)
        .addColumn('actuation_type', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('spf_commands')
        .$call(catalogue)
        .addColumn('function_name', 'text', (c) => c.notNull())
        .addColumn('hard_coded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('odometer_commands')
        .$call(catalogue)
        .addColumn('header', 'text')
        .addColumn('sub_header', 'text')
        .addColumn('pid', 'text')
        .addColumn('protocol', 'text')
        .addColumn('system', 'text')
        .addColumn('init', 'text')
        .addColumn('formula_based', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('generic', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('formula_metric', 'text')
        .addColumn('formula_imperial', 'text')
        .addColumn('unit_metric', 'text')
        .addColumn('unit_imperial', 'text')
        .execute();
      await db.schema
        .createTable('live_data_commands')
        .$call(catalogue)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('module', 'text', (c) => c.notNull())
        .addColumn('header', 'text')
        .addColumn('sub_header', 'text')
        .addColumn('pid', 'text')
        .addColumn('protocol', 'text')
        .addColumn('formula_based', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('formula_metric', 'text')
        .addColumn('formula_imperial', 'text')
        .addColumn('unit_metric', 'text')
        .addColumn('unit_imperial', 'text')
        .addColumn('reference_json', 'text')
        .execute();
      await db.schema
        .createTable('app_users')
        .$call(id)
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('phone', 'text')
        .addColumn('country', 'text')
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('device', 'text')
        .addColumn('app_version', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_login_at', 'text')
        .addColumn('auth_token', 'text')
        .addColumn('password_hash', 'text')
        .execute();
      await db.schema
        .createTable('subscriptions')
        .$call(id)
        .addColumn('app_user_id', 'integer', (c) => c.notNull().references('app_users.id'))
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('starts_at', 'text', (c) => c.notNull())
        .addColumn('ends_at', 'text')
        .addColumn('purchase_token', 'text')
        .execute();
      await db.schema
        .createTable('scans')
        .$call(id)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('app_user_id', 'integer')
        .addColumn('scan_start_time', 'text', (c) => c.notNull())
        .addColumn('scan_end_time', 'text')
        .addColumn('make', 'text', (c) => c.notNull())
        .addColumn('model', 'text')
        .addColumn('license_plate', 'text')
        .addColumn('vin', 'text')
        .addColumn('scan_ended', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('country_id', 'integer')
        .addColumn('function', 'text')
        .addColumn('type', 'text')
        .addColumn('app_version', 'text')
        .addColumn('pdf_report', 'text')
        .addColumn('scan_res_array', 'text', (c) => c.notNull())
        .addColumn('decoded_array', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('special_function_runs')
        .$call(id)
        .addColumn('user_email', 'text', (c) => c.notNull())
        .addColumn('make', 'text', (c) => c.notNull())
        .addColumn('module', 'text')
        .addColumn('model', 'text')
        .addColumn('function_type', 'text')
        .addColumn('command_type', 'text')
        .addColumn('item_number', 'integer')
        .addColumn('variant', 'text')
        .addColumn('license_plate', 'text')
        .addColumn('scan_ended', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('hard_coded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('scan_start_time', 'text', (c) => c.notNull())
        .addColumn('scan_end_time', 'text')
        .addColumn('scan_res_array', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('actuation_runs')
        .$call(id)
        .addColumn('user_email', 'text', (c) => c.notNull())
        .addColumn('make', 'text', (c) => c.notNull())
        .addColumn('model', 'text')
        .addColumn('actuation_type', 'text')
        .addColumn('actuation_option', 'text')
        .addColumn('input', 'text')
        .addColumn('device', 'text')
        .addColumn('product_id', 'text')
        .addColumn('user_car_model_id', 'integer')
        .addColumn('end_date', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('scan_res_array', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('fault_codes')
        .$call(fault)
        .addColumn('title', 'text')
        .addColumn('severity', 'integer')
        .addColumn('repair_difficulty', 'integer')
        .addUniqueConstraint('fault_codes_natural_key', ['dtc', 'company_id'])
        .execute();
      for (const [table, textColumn] of [
        ['fault_code_causes', 'causes'],
        ['fault_code_symptoms', 'symptom'],
        ['fault_code_solutions', 'solution'],
      ] as const) {
        await db.schema
          .createTable(table)
          .$call(fault)
          .addColumn(textColumn, 'text', (c) => c.notNull())
          .addColumn('language', 'text', (c) => c.notNull())
          .addColumn('text_hash', 'text', (c) => c.notNull())
          .addUniqueConstraint(`${table}_natural_key`, ['dtc', 'company_id', 'language', 'text_hash'])
          .execute();
      }
      await db.schema
        .createTable('operators')
        .$call(id)
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .$call(id)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createTable('invitations')
        .$call(id)
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('operators.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('used_by', 'integer', (c) => c.references('operators.id'))
        .execute();
      await db.schema
        .createTable('download_tickets')
        .$call(id)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('imports')
        .$call(id)
        .addColumn('operator_id', 'integer', (c) => c.references('operators.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('file_size', 'integer', (c) => c.notNull())
        .addColumn('file_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('rows_processed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('stats', 'text')
        .addColumn('errors', 'text')
        .addColumn('message', 'text')
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema
        .createTable('activation_codes')
        .$call(id)
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('plan', 'text')
        .addColumn('duration', 'text')
        .addColumn('vehicle', 'text')
        .addColumn('import_id', 'integer', (c) => c.references('imports.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await createIndexes(db, dialect);
    },
  };
}

/** An index behind every filter and sort of spec §7 (decisions §2 says which are exact, which contain). */
async function createIndexes(db: Kysely<any>, dialect: Dialect) {
  const btree: [string, string[]][] = [
    ['models', ['model_group_id']],
    ['coverage', ['make_id', 'id']],
    ['mechanic_commands', ['make_id', 'function_type', 'module']],
    ['custom_commands', ['make_id', 'model_group_id']],
    ['actuation_commands', ['make_id', 'model_group_id']],
    ['spf_commands', ['make_id', 'model_group_id']],
    ['odometer_commands', ['make_id', 'model_group_id']],
    ['live_data_commands', ['make_id', 'model_group_id', 'module']],
    ['app_users', ['plan']],
    ['app_users', ['status']],
    ['subscriptions', ['app_user_id']],
    ['scans', ['country_id']],
    ['scans', ['scan_start_time']],
    ['scans', ['scan_end_time']],
    ['scans', ['type']],
    ['scans', ['app_version']],
    ['special_function_runs', ['item_number']],
    ['special_function_runs', ['scan_start_time']],
    ['special_function_runs', ['scan_end_time']],
    ['special_function_runs', ['hard_coded']],
    ['special_function_runs', ['scan_ended']],
    ['actuation_runs', ['user_car_model_id']],
    ['fault_codes', ['generic', 'id']],
    ['fault_code_causes', ['generic', 'id']],
    ['fault_code_symptoms', ['generic', 'id']],
    ['fault_code_solutions', ['generic', 'id']],
    ['sessions', ['operator_id']],
    ['imports', ['kind', 'status']],
  ];
  for (const [table, columns] of btree) {
    await db.schema
      .createIndex(`${table}_${columns.join('_')}_idx`)
      .on(table)
      .columns(columns)
      .execute();
  }

  // Case-insensitive "contains" filters. PostgreSQL answers ILIKE '%x%' from a trigram GIN index;
  // on SQLite these tables are small enough (tens of thousands of rows) to scan under 20 ms.
  const contains: [string, string][] = [
    ['fault_codes', 'dtc'],
    ['fault_codes', 'make'],
    ['fault_code_causes', 'dtc'],
    ['fault_code_causes', 'make'],
    ['fault_code_symptoms', 'dtc'],
    ['fault_code_symptoms', 'make'],
    ['fault_code_solutions', 'dtc'],
    ['fault_code_solutions', 'make'],
    ['app_users', 'email'],
    ['scans', 'email'],
    ['scans', 'make'],
    ['scans', 'model'],
    ['scans', 'license_plate'],
    ['special_function_runs', 'user_email'],
    ['special_function_runs', 'make'],
    ['special_function_runs', 'model'],
    ['special_function_runs', 'license_plate'],
    ['actuation_runs', 'user_email'],
    ['actuation_runs', 'make'],
    ['actuation_runs', 'model'],
  ];
  if (dialect === 'postgres') {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
    for (const [table, column] of contains) {
      await sql`CREATE INDEX ${sql.id(`${table}_${column}_trgm`)} ON ${sql.table(table)} USING gin (${sql.ref(column)} gin_trgm_ops)`.execute(
        db,
      );
    }
  } else {
    for (const [table, column] of contains) {
      await sql`CREATE INDEX ${sql.id(`${table}_${column}_idx`)} ON ${sql.table(table)} (${sql.ref(column)} COLLATE NOCASE)`.execute(
        db,
      );
    }
  }
}
