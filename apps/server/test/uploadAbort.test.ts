import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { csv, multipart } from './fixtures/uploads.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

describe.each(DIALECTS)('an upload the client abandons on %s', (dialect) => {
  let t: TestContext;
  let app: FastifyInstance;
  let port: number;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // An app over the same database whose log lines are kept, to read their levels.
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp({
      config: { corsOrigins: [], webRoot: path.join(os.tmpdir(), 'no-web-app'), logLevel: 'info' },
      db: t.db,
      logger: { level: 'info', stream },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('is logged as an info line, not as a server error, and recorded as failed', async () => {
    const { headers } = await signedIn(t.db, 'editor');
    const rows = [['ActivationCode', 'Plan', 'Duration', 'Vehicle']];
    for (let i = 0; i < 20_000; i += 1) rows.push([`ABORT-${i}`, 'Pro', '30', 'Car']);
    const body = multipart({}, { name: 'codes.csv', data: csv(rows) });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/uplodeactivationcode HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${headers.authorization}\r\n` +
        `Content-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
    );
    // Half the body, then the client goes away.
    socket.write(body.payload.subarray(0, Math.floor(body.payload.length / 2)));
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();

    // The server notices, records the refusal and logs it.
    const deadline = Date.now() + 10_000;
    const recorded = () =>
      t.db.kysely.selectFrom('imports').select('id').where('status', '=', 'failed').executeTakeFirst();
    while (!(await recorded()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // Whatever the server logs about the answer it could not deliver comes right after.
    await new Promise((r) => setTimeout(r, 300));
    const serious = lines.filter((l) => l.level >= 40);
    expect(serious).toEqual([]);
    const abandoned = lines.find((l) => l.msg === 'upload abandoned by the client');
    expect(abandoned?.level).toBe(30);
    const record = await t.db.kysely
      .selectFrom('imports')
      .select(['status', 'message'])
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(record).toEqual({
      status: 'failed',
      message: 'The upload was interrupted before the whole file arrived. Try again.',
    });
  });
});
