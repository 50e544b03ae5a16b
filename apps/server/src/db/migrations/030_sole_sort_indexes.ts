import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { SORTED } from './015_sort_indexes.ts';

/**
 * Issue 12 item 2 on SQLite: 015 skipped a sortable column when a plain index already led with
 * it, but only an index of that column alone ends in it and then the rowid (the id), which is the
 * order a sorted page asks for. 021 had replaced the end time's (end, start) index with (end,
 * start, e-mail, model), which leads with the end time but orders ties by start: sorting by end
 * time ascending sorted the ~140,000 scans with no end time by id on every page (0.2–0.3 s at a
 * million scans). Each sortable column without an index of itself alone gets one.
 * PostgreSQL: nothing (015 gave every column its own `(column, id)` there).
 */
export function soleSortIndexesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const [table, columns] of Object.entries(SORTED))
        for (const column of columns) {
          if (await soleIndex(db, table, column)) continue;
          await sql`CREATE INDEX ${sql.id(`${table}_sort_${column}`)} ON ${sql.table(table)} (${sql.ref(column)})`.execute(
            db,
          );
        }
    },
  };
}

/** Is there a plain (BINARY, not partial) index of `table` on `column` alone? */
async function soleIndex(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  return (await soleIndexNames(db, table, column)).length > 0;
}

/** The plain (BINARY, not partial) indexes of `table` on `column` alone (SQLite; 051 and 052 drop them). */
export async function soleIndexNames(db: Kysely<any>, table: string, column: string): Promise<string[]> {
  const indexes = (
    await sql<{
      name: string;
      partial: number;
    }>`SELECT name, partial FROM pragma_index_list(${table})`.execute(db)
  ).rows;
  const names: string[] = [];
  for (const index of indexes) {
    if (index.partial) continue;
    const keys = (
      await sql<{
        name: string | null;
        coll: string;
      }>`SELECT name, coll FROM pragma_index_xinfo(${index.name}) WHERE key = 1 ORDER BY seqno`.execute(db)
    ).rows;
    if (keys.length === 1 && keys[0]?.name === column && keys[0].coll === 'BINARY') names.push(index.name);
  }
  return names;
}
