import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * The SQLite connection as Kysely sees it, keeping its prepared statements: Kysely prepares every
 * query it runs, and preparing costs more than running most of them (a list request's three
 * statements: ~0.2–0.5 ms of the ~1–2 ms of server CPU it takes, bench/RESULTS.md "Session 7 —
 * architecture"). A query's text holds no values (they are bound), so one list asks for the same
 * few texts over and over.
 *
 * A statement being iterated (Kysely's `stream()`) cannot run again until its iterator ends:
 * such a statement (`busy`) is not handed out, a fresh one is prepared instead. The least
 * recently used statements beyond `size` are dropped (SQLite finalises them when collected).
 */
export function cachingStatements(database: SQLite.Database, size = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const kept = statements.get(sql);
      if (kept && !kept.busy) {
        statements.delete(sql);
        statements.set(sql, kept); // most recently used last
        return kept;
      }
      const statement = database.prepare(sql);
      if (!kept) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}
