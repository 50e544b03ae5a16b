import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Dialect } from '../src/db/database.ts';
import { multipart } from './fixtures/uploads.ts';
import { createTestApp, signedIn, type TestContext } from './helpers.ts';

/**
 * The set-up the upload test files share (one app and database per file and dialect, an editor
 * and a viewer), with the requests and reads they make. Call inside the file's `describe.each`;
 * `leftovers` is the file's own temporary folder (`ownTemporaryFolder`), checked empty before
 * every test, so "nothing left behind" is exact. `t`, `editor` and `viewer` are set before the
 * file's own `beforeAll` hooks run.
 */
export function uploadsSuite(dialect: Dialect, leftovers: () => string[]) {
  const suite = {
    t: undefined as unknown as TestContext,
    editor: {} as Record<string, string>,
    viewer: {} as Record<string, string>,
    upload,
    get: (url: string) => suite.t.app.inject({ url, headers: suite.editor }),
    rows,
    count: async (table: string) =>
      Number((await rows<{ n: number }>(`select count(*) as n from ${table}`))[0]?.n),
  };
  function upload(
    url: string,
    file: { name: string; data: Buffer } | undefined,
    fields: Record<string, string> = {},
    as = suite.editor,
  ) {
    const body = multipart(fields, file);
    return suite.t.app.inject({
      method: 'POST',
      url,
      payload: body.payload,
      headers: { ...as, ...body.headers },
    });
  }
  function rows<T = Record<string, unknown>>(query: string): Promise<T[]> {
    return sql
      .raw<T>(query)
      .execute(suite.t.db.kysely)
      .then((r) => r.rows);
  }
  beforeAll(async () => {
    suite.t = await createTestApp(dialect);
    suite.editor = (await signedIn(suite.t.db, 'editor')).headers;
    suite.viewer = (await signedIn(suite.t.db, 'viewer')).headers;
  });
  afterAll(async () => {
    await suite.t.close();
  });
  beforeEach(() => {
    expect(leftovers()).toEqual([]);
  });
  return suite;
}
