import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvStream } from '../src/export/csv.ts';

async function* batches<Row>(rows: Row[]) {
  yield rows;
}

describe('CSV export cells', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-1+2', "'-1+2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['＝HYPERLINK("x")', `"'＝HYPERLINK(""x"")"`],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
  ])('neutralises text starting like a formula: %j', (text, expected) => {
    expect(csvField(text)).toBe(expected);
  });

  it.each([
    ['-', '-'], // the screens' "empty": not a formula
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('leaves other text alone: %j', (text, expected) => {
    expect(csvField(text)).toBe(expected);
  });

  it('writes typed numbers as numbers, negative ones included, and nothing for null', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(2.5)).toBe('2.5');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it.each([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['=a,b', `"'=a,b"`],
  ])('quotes a cell holding the separator, a quote or a line break: %j', (text, expected) => {
    expect(csvField(text)).toBe(expected);
  });

  it('round-trips through a CSV reader with the apostrophe as the only change', async () => {
    const rows = [{ a: '＝cmd|" /C calc"!A0', b: 'x,"y"\r\nz', c: -3 }];
    const columns = [
      { header: 'A', value: (r: (typeof rows)[0]) => r.a },
      { header: 'B', value: (r: (typeof rows)[0]) => r.b },
      { header: 'C', value: (r: (typeof rows)[0]) => r.c },
    ];
    const chunks: Buffer[] = [];
    for await (const chunk of csvStream(batches(rows), columns)) chunks.push(chunk as Buffer);
    const parsed: string[][] = parse(Buffer.concat(chunks), { bom: true });
    expect(parsed).toEqual([
      ['A', 'B', 'C'],
      ['\'＝cmd|" /C calc"!A0', 'x,"y"\r\nz', '-3'],
    ]);
  });
});
