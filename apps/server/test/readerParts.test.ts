import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { Held } from '../src/import/formats/bounds.ts';
import { CsvRecords } from '../src/import/formats/csv.ts';
import { openWorkbook } from '../src/import/formats/open.ts';
import type { SheetRow } from '../src/import/formats/workbook.ts';
import { xlsxWorkerOptions } from '../src/import/formats/xlsx/workers.ts';
import { decodeEntities } from '../src/import/formats/xml.ts';
import { handWrittenWorkbook } from './fixtures/uploads.ts';

/** Small parts of the upload readers (issue 9): a deterministic pseudo-random source for each. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

describe('CsvRecords', () => {
  const records = (text: string, chunk: number) => {
    const reader = new CsvRecords(',');
    const out: (string | undefined)[][] = [];
    for (let k = 0; k < text.length; k += chunk)
      for (const r of reader.write(text.slice(k, k + chunk))) out.push(r.cells);
    for (const r of reader.end('')) out.push(r.cells);
    return out;
  };
  const csvParse = (text: string) =>
    parse(text, {
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: false,
    }) as string[][];

  it('reads the records csv-parse reads, whatever the quotes, line endings and chunk boundaries', () => {
    const next = random(9);
    const alphabet = ['a', 'b', ',', '"', '\n', '\r\n', '\r', ' ', 'é'];
    for (let t = 0; t < 5000; t++) {
      let text = '';
      for (let i = next(14); i > 0; i--) text += alphabet[next(alphabet.length)];
      let expected: unknown;
      try {
        expected = csvParse(text);
      } catch {
        expected = 'refused';
      }
      let actual: unknown;
      try {
        actual = records(text, 1 + next(5));
      } catch {
        actual = 'refused';
      }
      expect(actual, JSON.stringify(text)).toEqual(expected);
    }
  });

  it('refuses a record of more than 16,384 cells, or of more than 2,097,152 characters, as soon as it is read', () => {
    expect(() => records(`a${',x'.repeat(16_384)}\n`, 65_536)).toThrow(
      /Row 1 of the CSV file has more than 16,384 cells/,
    );
    expect(() => records(`a\n"${'x'.repeat(3 * 1024 * 1024)}`, 65_536)).toThrow(
      /Row 2 of the CSV file is longer than 2,097,152 characters, which no spreadsheet row is \(a quote that opens a cell is never closed\)/,
    );
    expect(() => records('a\nb\nc\u0000d\n', 3)).toThrow(/Row 3 of the CSV file holds a NUL character/);
  });
});

describe('Held', () => {
  it('finds the last marker whatever the chunk boundaries, a marker split across chunks included', () => {
    const next = random(4);
    const marker = Buffer.from('</row>');
    for (let t = 0; t < 2000; t++) {
      let text = '';
      for (let i = next(12); i > 0; i--) text += ['<row>', 'ab', '</row>', '</ro', 'w>', '<'][next(6)];
      const bytes = Buffer.from(text);
      const held = new Held();
      let pos = 0;
      while (pos < bytes.length) {
        const end = Math.min(bytes.length, pos + 1 + next(7));
        const { bytes: out, cut } = held.push(bytes.subarray(pos, end), marker);
        if (out) {
          // Everything held comes back, cut just past its last marker; the rest is held again.
          expect(cut, text).toBe(out.toString().lastIndexOf('</row>') + marker.length);
          if (cut < out.length) held.push(out.subarray(cut), null);
        } else {
          expect(held.tail(held.length).toString().includes('</row>'), text).toBe(false);
        }
        pos = end;
      }
    }
  });
});

describe('decodeEntities', () => {
  it('takes linear time over a flood of & ending in one ;', () => {
    const time = (n: number) => {
      const text = `${'&'.repeat(n)};`;
      const started = performance.now();
      expect(decodeEntities(text)).toBe(text);
      return performance.now() - started;
    };
    time(10_000); // warm up
    // The old decoder looked for the ; from every &: 400,000 of them took over a minute.
    expect(time(400_000)).toBeLessThan(1000);
    expect(decodeEntities('&amp;&lt;&#233;&#x1F600;&bogus;&&amp;')).toBe('&<é😀&bogus;&&');
  });
});

describe('the .xlsx reader', () => {
  const readAll = async (data: Buffer) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'obd-reader-')), 'book.xlsx');
    fs.writeFileSync(file, data);
    try {
      const workbook = await openWorkbook(file, 'book.xlsx', ['xlsx']);
      const rows: { row: number; cells: Record<string, string | undefined> }[] = [];
      for await (const batch of workbook.read(workbook.sheetNames[0] as string).rows) {
        for (const r of batch) rows.push({ row: r.row, cells: Object.fromEntries(Object.entries(r.cells)) });
      }
      await workbook.close();
      return rows;
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  };

  it('hands rows with a cell at column XFD from a worker thread as the main thread reads them', async () => {
    const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const rows = Array.from(
      { length: 3000 },
      (_, i) =>
        `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c>${i % 3 ? `<c r="XFD${i + 1}" t="inlineStr"><is><t>far ${i}</t></is></c>` : ''}</row>`,
    );
    const data = await handWrittenWorkbook(
      `<worksheet xmlns="${NS}"><sheetData>${rows.join('')}</sheetData></worksheet>`,
    );
    const onMain = await readAll(data);
    const minBytes = xlsxWorkerOptions.minBytes;
    const reads = xlsxWorkerOptions.reads;
    xlsxWorkerOptions.minBytes = 0;
    try {
      expect(await readAll(data)).toEqual(onMain);
      expect(xlsxWorkerOptions.reads).toBe(reads + 1);
    } finally {
      xlsxWorkerOptions.minBytes = minBytes;
    }
    expect(onMain).toHaveLength(3000);
    expect(onMain[1]).toEqual({ row: 2, cells: { 0: '1', 16383: 'far 1' } });
  });

  it('reads on past runs of empty rows and empty shared texts longer than a row may be', async () => {
    const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    // 150,000 formatted empty rows (~6 MB without one </row>) between the header and the data,
    // and 1,000,000 empty shared texts (5 MB of <si/>, no </si>) before the ones the cells use.
    const empty = Array.from(
      { length: 150_000 },
      (_, i) => `<row r="${i + 2}" spans="1:2" ht="20" customHeight="1"/>`,
    );
    const sheet = `<worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="s"><v>1000000</v></c></row>${empty.join('')}<row r="150002"><c r="A150002" t="s"><v>1000001</v></c><c r="B150002"><v>7</v></c></row></sheetData></worksheet>`;
    const strings = `<sst xmlns="${NS}">${'<si/>'.repeat(1_000_000)}<si><t>Code</t></si><si><t>A-1</t></si></sst>`;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'obd-reader-')), 'runs.xlsx');
    fs.writeFileSync(file, await handWrittenWorkbook(sheet, strings));
    try {
      const workbook = await openWorkbook(file, 'runs.xlsx', ['xlsx']);
      const rows: SheetRow[] = [];
      for await (const batch of workbook.read(workbook.sheetNames[0] as string).rows) rows.push(...batch);
      await workbook.close();
      expect(rows.map((r) => ({ row: r.row, cells: [...r.cells] }))).toEqual([
        { row: 1, cells: ['Code'] },
        { row: 150_002, cells: ['A-1', '7'] },
      ]);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
