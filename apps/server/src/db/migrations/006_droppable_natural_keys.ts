import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/** The fault tables, whose natural keys (decisions §3) 001 declared as table constraints. */
const TABLES = ['fault_codes', 'fault_code_causes', 'fault_code_symptoms', 'fault_code_solutions'] as const;

/**
 * SQLite: turns each fault table's natural-key UNIQUE constraint into a unique index of the same
 * name and columns. SQLite cannot drop the index behind a table constraint, and a bulk load into an
 * empty table is ~40 % faster when its unique index is built once at the end instead of row by row
 * (`import/sheet.ts`). SQLite cannot drop a constraint either, so each table is rebuilt (its rows,
 * ids and AUTOINCREMENT counter kept) the way SQLite's ALTER TABLE documentation describes.
 * PostgreSQL keeps its constraints: it never drops indexes during imports.
 */
export function droppableNaturalKeysMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const table of TABLES) {
        const key = `${table}_natural_key`;
        const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
          select type, name, sql from sqlite_master where tbl_name = ${table}`.execute(db);
        const create = rows.find((r) => r.type === 'table')?.sql;
        // Already rebuilt (a start that stopped between two tables: Kysely's SQLite migrations
        // run outside a transaction, so each table is rebuilt in one of its own).
        if (rows.some((r) => r.type === 'index' && r.name === key)) continue;
        const constraint =
          create && new RegExp(`, constraint "${key}" unique \\(([^)]*)\\)\\)$`).exec(create);
        if (!create || !constraint)
          throw new Error(`${table}: its natural-key constraint is not where 001 put it`);
        const indexes = rows.filter((r) => r.type === 'index' && r.sql !== null).map((r) => r.sql as string);
        const staging = `${table}_rebuilt`;
        const definition = `${create.slice(0, constraint.index)})`.replace(
          `CREATE TABLE "${table}"`,
          `CREATE TABLE "${staging}"`,
        );
        await sql.raw('BEGIN').execute(db);
        try {
          await sql.raw(definition).execute(db);
          await sql.raw(`INSERT INTO "${staging}" SELECT * FROM "${table}"`).execute(db);
          await sql.raw(`DROP TABLE "${table}"`).execute(db);
          await sql.raw(`ALTER TABLE "${staging}" RENAME TO "${table}"`).execute(db);
          for (const index of indexes) await sql.raw(index).execute(db);
          await sql.raw(`CREATE UNIQUE INDEX "${key}" ON "${table}" (${constraint[1]})`).execute(db);
          await sql.raw('COMMIT').execute(db);
        } catch (error) {
          await sql.raw('ROLLBACK').execute(db);
          throw error;
        }
      }
    },
  };
}
