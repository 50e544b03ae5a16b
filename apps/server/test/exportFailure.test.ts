import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { csvStream } from '../src/export/csv.ts';
import { xlsxStream } from '../src/export/xlsx.ts';

// A query that fails half-way must fail the download, never leave it hanging.
async function* failingBatches() {
  yield [{ a: 'first' }];
  throw new Error('connection lost');
}
const columns = [{ header: 'A', value: (r: { a: string }) => r.a }];
const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });

describe('export streams when the source fails', () => {
  it.each([
    ['csv', () => csvStream(failingBatches(), columns)],
    ['xlsx', () => xlsxStream(failingBatches(), columns, 'Sheet')],
  ])('%s ends with the error', async (_format, make) => {
    await expect(pipeline(make(), sink())).rejects.toThrow('connection lost');
  });
});
