import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachingStatements } from '../src/lib/statementCache.ts';

describe('the SQLite statement cache', () => {
  it('hands out one prepared statement per text, and a fresh one while it is being iterated', () => {
    const sqlite = new SQLite(':memory:');
    const db = cachingStatements(sqlite, 2);
    sqlite.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)');
    const first = db.prepare('SELECT n FROM t ORDER BY n');
    expect(db.prepare('SELECT n FROM t ORDER BY n')).toBe(first);

    // Kysely's stream() iterates a statement: another query of the same text must still run.
    const iterator = first.iterate([]);
    expect(iterator.next().value).toEqual({ n: 1 });
    const meanwhile = db.prepare('SELECT n FROM t ORDER BY n');
    expect(meanwhile).not.toBe(first);
    expect(meanwhile.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...iterator]).toEqual([{ n: 2 }, { n: 3 }]);
    expect(db.prepare('SELECT n FROM t ORDER BY n')).toBe(first);

    // At most `size` texts are kept, the least recently used dropped first.
    db.prepare('SELECT 1');
    db.prepare('SELECT 2');
    expect(db.prepare('SELECT n FROM t ORDER BY n')).not.toBe(first);
    db.close();
  });

  it('sees a table changed after a statement was kept (SQLite prepares it again)', () => {
    const sqlite = new SQLite(':memory:');
    const db = cachingStatements(sqlite);
    sqlite.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)');
    expect(db.prepare('SELECT * FROM t').all([])).toEqual([{ n: 1 }]);
    sqlite.exec('ALTER TABLE t ADD COLUMN m TEXT; CREATE INDEX t_n ON t (n)');
    expect(db.prepare('SELECT * FROM t').all([])).toEqual([{ n: 1, m: null }]);
    db.close();
  });
});
