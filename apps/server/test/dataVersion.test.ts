import { describe, expect, it } from 'vitest';
import { coalesced } from '../src/db/database.ts';

describe('coalesced data-version reads', () => {
  it('gives every caller a read sent after it asked, sharing one among those waiting', async () => {
    const finish: (() => void)[] = [];
    let sent = 0;
    const version = coalesced(() => {
      sent += 1;
      const n = sent;
      return new Promise<string>((resolve) => finish.push(() => resolve(String(n))));
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

    const a = version(); // read 1 is sent
    const b = version(); // read 1 was sent before b asked: b waits for read 2
    const c = version(); // shares read 2
    expect(sent).toBe(1);
    finish[0]?.();
    expect(await a).toBe('1');
    await settle();
    expect(sent).toBe(2);
    const d = version(); // read 2 is already under way: d needs read 3
    finish[1]?.();
    expect(await b).toBe('2');
    expect(await c).toBe('2');
    await settle();
    expect(sent).toBe(3);
    finish[2]?.();
    expect(await d).toBe('3');
  });

  it('sends the next read after a failed one', async () => {
    let calls = 0;
    const version = coalesced(async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return 'v2';
    });
    const first = version();
    const second = version();
    await expect(first).rejects.toThrow('connection lost');
    expect(await second).toBe('v2');
  });
});
