import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLimits, exportsRunning } from '../src/export/limits.ts';
import { createTestApp, DIALECTS, signedIn, type TestContext } from './helpers.ts';

/** Rows enough that a CSV export (about 17 MB) cannot fit in the sockets' buffers. */
const ROWS = 100_000;
const SEND_TIMEOUT_MS = 2500;

interface Opened {
  status: number;
  socket: net.Socket;
}

/**
 * Requests a download on a raw socket and reads only its first bytes (the status line), then
 * nothing more: a client that stalls. Node stops reading at the socket's buffer mark, the
 * kernel's buffers fill, and the server's writes wait.
 */
function stalledDownload(port: number, url: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
    );
    socket.once('error', reject);
    socket.once('readable', () => {
      const head = socket.read() as Buffer | null;
      const status = Number(head?.toString('latin1').slice(9, 12));
      if (status !== 200) socket.destroy();
      resolve({ status, socket });
    });
  });
}

/** Reads what is left of a stalled download until the server closes it. */
function rest(
  socket: net.Socket,
  timeoutMs: number,
): Promise<{ bytes: number; tail: string; closed: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0;
    let last = Buffer.alloc(0);
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes, tail: last.subarray(-7).toString('latin1'), closed });
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      last = Buffer.concat([last.subarray(-16), chunk]);
    });
    socket.once('close', () => done(true));
    socket.resume();
  });
}

describe.each(DIALECTS)('downloads that stall on %s', (dialect) => {
  let t: TestContext;
  let port: number;
  const saved = { ...exportLimits };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    if (dialect === 'postgres') {
      await sql`insert into fault_codes (dtc, title, severity, repair_difficulty, make, company_id, generic)
        select 'X' || lpad(i::text, 7, '0'), repeat(md5(i::text), 4), 2, 1, 'Honda', 21, 0
        from generate_series(1, ${ROWS}) as i`.execute(t.db.kysely);
    } else {
      await sql`insert into fault_codes (dtc, title, severity, repair_difficulty, make, company_id, generic)
        with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
        select 'X' || printf('%07d', i), hex(randomblob(64)), 2, 1, 'Honda', 21, 0 from n`.execute(
        t.db.kysely,
      );
    }
    exportLimits.sendTimeoutMs = SEND_TIMEOUT_MS;
  });
  afterAll(async () => {
    Object.assign(exportLimits, saved);
    await t.close();
  });

  const base = () => `http://127.0.0.1:${port}`;
  async function link(headers: Record<string, string>, format: 'csv' | 'xlsx' = 'csv') {
    const res = await fetch(`${base()}/api/exports`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ list: 'faultCodes', format, query: {} }),
    });
    return { status: res.status, body: (await res.json()) as { url: string; error: string } };
  }
  async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
    const started = performance.now();
    const result = await run();
    return [result, performance.now() - started];
  }

  it('caps downloads per operator and per server, keeps lists and sign-in answering, and cuts stalled ones off', async () => {
    expect(exportLimits).toMatchObject({ perOperator: 3, perServer: 6 });
    const operators = await Promise.all([1, 2, 3, 4].map(() => signedIn(t.db)));
    const [first, ...others] = operators as [(typeof operators)[0], ...typeof operators];
    const idle = await signedIn(t.db);
    const started = Date.now();

    // One operator: three downloads run, a fourth is refused with a sentence, link unused.
    // XLSX for this one (a zip stream over the rows), CSV for the others: both must let go.
    const firstLinks = await Promise.all([1, 2, 3, 4].map(() => link(first.headers, 'xlsx')));
    const mine = await Promise.all(firstLinks.slice(0, 3).map((l) => stalledDownload(port, l.body.url)));
    expect(mine.map((o) => o.status)).toEqual([200, 200, 200]);
    const fourth = await fetch(`${base()}${firstLinks[3]?.body.url}`);
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as { error: string }).error).toBe(
      'You already have 3 downloads running. Wait for one of them to finish, then start this one again.',
    );
    expect((await link(first.headers)).body.error).toMatch(/^You already have 3 downloads running\./);

    // Nine more from three other operators: twelve stalled downloads asked for in all. The server
    // runs six; the others are refused at once.
    const links = await Promise.all(others.flatMap((o) => [1, 2, 3].map(() => link(o.headers))));
    const opened = await Promise.all(links.map((l) => stalledDownload(port, l.body.url)));
    const allOpened = Date.now();
    const statuses = opened.map((o) => o.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429]);
    const [busy, busyMs] = await timed(() => link(idle.headers));
    expect(busy.status).toBe(429);
    expect(busy.body.error).toBe('The server is busy with 6 other downloads. Try again in a minute.');
    expect(busyMs).toBeLessThan(1000);

    // Meanwhile lists and sign-in answer within a second.
    const [list, listMs] = await timed(() =>
      fetch(`${base()}/api/faultCodesList?dtc=X00012&limit=5`, { headers: first.headers }),
    );
    expect(list.status).toBe(200);
    expect(((await list.json()) as { total: number }).total).toBe(100);
    expect(listMs).toBeLessThan(1000);
    const [login, loginMs] = await timed(() =>
      fetch(`${base()}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: first.operator.email, password: 'correct horse battery' }),
      }),
    );
    expect(login.status).toBe(200);
    expect(loginMs).toBeLessThan(1000);

    // After the send timeout the six stalled downloads are cut off: their slots and database
    // connections come back, and six complete downloads run side by side.
    const running = [...mine, ...opened.filter((o) => o.status === 200)];
    expect(running).toHaveLength(6);
    let retry = await link(first.headers);
    while (retry.status === 429 && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 100));
      retry = await link(first.headers);
    }
    expect(retry.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SEND_TIMEOUT_MS);
    // Read what they left only once all are cut (each stalls when its buffers fill, then waits
    // out the timeout): a socket read earlier would drain and never be cut.
    while (exportsRunning() > 0 && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 50));
    expect(exportsRunning()).toBe(0);
    expect(Date.now() - allOpened).toBeGreaterThanOrEqual(SEND_TIMEOUT_MS);
    const leftovers = await Promise.all(running.map((o) => rest(o.socket, 10_000)));
    for (const left of leftovers) {
      expect(left.closed).toBe(true);
      // A chunked response that ends properly ends with a zero-length chunk: these were cut.
      expect(left.tail.endsWith('0\r\n\r\n')).toBe(false);
    }

    // Each body is read as soon as its answer starts: read only once all six had started, the
    // first ones sat with full buffers while a loaded machine started the last (CI: over the
    // 2.5 s send timeout), and the server rightly cut them.
    const download = (url: string) =>
      fetch(`${base()}${url}`).then(async (r) => ({ status: r.status, text: await r.text() }));
    const fresh = await Promise.all(operators.map((o) => link(o.headers)).concat([link(first.headers)]));
    const full = await Promise.all([retry.body.url, ...fresh.map((l) => l.body.url)].map(download));
    const texts = full.map((r) => r.text);
    expect(full.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const text of texts) expect(text.split('\r\n')).toHaveLength(ROWS + 2);
    // Finished downloads give their slots back too.
    const settled = Date.now();
    while (exportsRunning() > 0 && Date.now() - settled < 5000) await new Promise((r) => setTimeout(r, 20));
    expect(exportsRunning()).toBe(0);
    const [after, afterMs] = await timed(() =>
      fetch(`${base()}/api/faultCodesList?limit=5`, { headers: first.headers }),
    );
    expect(after.status).toBe(200);
    expect(afterMs).toBeLessThan(1000);
  });
});
