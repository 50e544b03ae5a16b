/**
 * A corpus of hostile upload files, generated (issue 9): each is small, and each is something
 * no spreadsheet program writes — far cells, floods, DTDs, deep nesting, zip tricks, forged
 * OLE2 headers, broken BIFF records, CSV without end. Zips are written byte by byte here (not by
 * a zip library), so that entries can overlap and sizes can lie; the .xls variants are the
 * committed xlwt fixture with one field forged.
 */

import { fixtureFile } from './fixtures/uploads.ts';
import {
  biffRecords,
  CSV_HEADER,
  DAMAGED_XLS,
  DAMAGED_XLSX,
  DIRECTORY,
  forgedXls,
  HEADER,
  type HostileFile,
  inline,
  MB,
  type RawEntry,
  STREAM,
  STREAM_SIZE,
  sheet,
  WORKBOOK_ENTRY,
  workbook,
} from './hostileBuilders.ts';
import { HOSTILE_XLSX_FILES } from './hostileXlsx.ts';

export type { HostileFile, HostileKind } from './hostileBuilders.ts';

/** The corpus: at least one file for each way in of issue 9. */
export const HOSTILE_FILES: HostileFile[] = [
  ...HOSTILE_XLSX_FILES,
  // Zip tricks.
  {
    name: '30,000 zip entries',
    fileName: 'many-entries.xlsx',
    kind: 'excel',
    message: /too many parts/,
    make: () =>
      workbook({
        entries: (e) => [
          ...e,
          ...Array.from({ length: 30_000 }, (_, i) => ({ name: `x/${i}`, data: '', store: true })),
        ],
      }),
  },
  {
    name: 'overlapping zip entries (the workbook part is the sheet data)',
    fileName: 'overlapping.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}<row r="2">${inline('A2', 'X')}</row>`),
        entries: (e) => {
          const sheetPart = e.find((p) => p.name === 'xl/worksheets/sheet1.xml') as RawEntry;
          const rest = e.filter((p) => p !== sheetPart && p.name !== 'xl/workbook.xml');
          return [sheetPart, ...rest, { name: 'xl/workbook.xml', data: '', sameAs: sheetPart.name }];
        },
      }),
  },
  {
    name: 'a sheet part that inflates to more than its declared size',
    fileName: 'size-lies-small.xlsx',
    kind: 'excel',
    message: /zip bomb/,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}${'<row><c><v>1</v></c></row>'.repeat(10_000)}`),
        entries: (e) => e.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, declared: 1000 } : p)),
      }),
  },
  {
    name: 'a sheet part that inflates to less than its declared size',
    fileName: 'size-lies-big.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}<row r="2">${inline('A2', 'X')}</row>`),
        entries: (e) =>
          e.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, declared: 15 * MB } : p)),
      }),
  },
  {
    name: 'a zip bomb (64 MB of sheet from a few hundred KB)',
    fileName: 'zip-bomb.xlsx',
    kind: 'excel',
    message: /zip bomb/,
    make: () => workbook({ sheet: sheet(' '.repeat(64 * MB)) }),
  },
  {
    name: '15 MB of empty rows (under the ratio floor: read, not refused up front)',
    fileName: 'empty-rows.xlsx',
    kind: 'excel',
    message: /no data rows/,
    make: () => workbook({ sheet: sheet(`<row>${' '.repeat(1000)}</row>`.repeat(15_000)) }),
  },
  // Encrypted packages, other files.
  {
    name: 'a password-protected .xlsx',
    fileName: 'encrypted.xlsx',
    kind: 'excel',
    message: /password-protected/,
    make: () => fixtureFile('encrypted.xlsx'),
  },
  {
    name: 'a password-protected .xls',
    fileName: 'encrypted.xls',
    kind: 'excel',
    message: /password-protected/,
    make: () => fixtureFile('encrypted.xls'),
  },
  {
    name: 'a PNG named .xlsx',
    fileName: 'image.xlsx',
    kind: 'excel',
    message: /not an Excel workbook/,
    make: () => Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  },
  {
    name: 'an empty file',
    fileName: 'empty.xlsx',
    kind: 'excel',
    message: /^The file is empty\.$/,
    make: () => Buffer.alloc(0),
  },
  // Forged OLE2 headers.
  {
    // With a mini FAT whose chain holds, the old reader allocated the declared size (~4 GiB)
    // and walked it as BIFF records: a billion empty ones, the event loop held throughout.
    name: 'an .xls whose header forges the mini-stream cutoff (and a 4 GB stream in a mini FAT)',
    fileName: 'mini-cutoff.xls',
    kind: 'excel',
    message: /bad mini-stream cutoff/,
    make: () => {
      const b = forgedXls((f) => {
        f.writeUInt32LE(0xffffffff, 0x38); // cutoff
        f.writeUInt32LE(10, 0x3c); // the mini FAT: sector 10, appended below
        f.writeUInt32LE(1, 0x40);
        f.writeUInt32LE(0xfffffffe, (8 + 1) * 512 + 10 * 4); // FAT: sector 10 ends its chain
        f.writeUInt32LE(0xfffffff0, WORKBOOK_ENTRY + 120);
        f.writeUInt32LE(0, DIRECTORY + 116); // the root's mini stream: sector 0 on
      });
      const miniFat = Buffer.alloc(512, 0xff);
      miniFat.writeUInt32LE(0xfffffffe, 0); // mini sector 0 ends its chain: a valid one-sector chain
      return Buffer.concat([b, miniFat]);
    },
  },
  {
    name: 'an .xls with a sector size of 64 KB',
    fileName: 'sector-size.xls',
    kind: 'excel',
    message: /bad sector size/,
    make: () => forgedXls((b) => b.writeUInt16LE(16, 0x1e)),
  },
  {
    name: 'an .xls whose allocation table loops',
    fileName: 'fat-loop.xls',
    kind: 'excel',
    message: /sector chain is broken/,
    // The FAT (sector 8) entry of sector 3 points back to sector 0: the Workbook chain loops.
    make: () => forgedXls((b) => b.writeUInt32LE(0, (8 + 1) * 512 + 3 * 4)),
  },
  {
    name: 'an .xls whose Workbook stream declares 2 GB',
    fileName: 'huge-stream.xls',
    kind: 'excel',
    message: /larger than the file/,
    make: () => forgedXls((b) => b.writeUInt32LE(0x7fffffff, WORKBOOK_ENTRY + 120)),
  },
  {
    name: 'an .xls whose header lists 4 billion table sectors',
    fileName: 'fat-count.xls',
    kind: 'excel',
    message: /allocation table size/,
    make: () => forgedXls((b) => b.writeUInt32LE(0xffffffff, 0x2c)),
  },
  // BIFF records.
  {
    name: 'an .xls with a record longer than BIFF allows',
    fileName: 'long-record.xls',
    kind: 'excel',
    message: DAMAGED_XLS,
    make: () =>
      forgedXls((b) => {
        const second = biffRecords(b)[1] as { at: number };
        b.writeUInt16LE(0xffff, second.at + 2);
      }),
  },
  {
    name: 'an .xls with a cell record shorter than its contents',
    fileName: 'short-record.xls',
    kind: 'excel',
    message: DAMAGED_XLS,
    // The fixture has no sheet for a make: that upload stops before reading a sheet.
    messageNotOn: ['/api/UpdatesCommands'],
    make: () =>
      forgedXls((b) => {
        const records = biffRecords(b);
        const cell = records.find((r) => r.type === 0x00fd) as { at: number; size: number };
        // The record shrinks to 2 bytes; the rest of its data is a run of empty records after it.
        b.writeUInt16LE(2, cell.at + 2);
        b.fill(0, cell.at + 6, cell.at + 4 + cell.size);
      }),
  },
  {
    name: 'an .xls whose first sheet ends in a record that runs past the end of the stream',
    fileName: 'overrun.xls',
    kind: 'excel',
    message: DAMAGED_XLS,
    messageNotOn: ['/api/UpdatesCommands'],
    make: () =>
      forgedXls((b) => {
        // The second EOF record ends the first sheet (the first ends the workbook globals).
        const eof = biffRecords(b).filter((r) => r.type === 0x000a)[1] as { at: number };
        b.writeUInt16LE(STREAM + STREAM_SIZE - eof.at + 100, eof.at + 2);
      }),
  },
  // CSV.
  {
    name: 'a CSV with a quote never closed (3 MB)',
    fileName: 'unclosed-quote.csv',
    kind: 'csv',
    message: /a quote that opens a cell is never closed/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n"A-1,Pro\r\n${'B-2,Pro\r\n'.repeat(400_000)}`),
  },
  {
    name: 'a short CSV with a quote never closed',
    fileName: 'unclosed-quote-short.csv',
    kind: 'csv',
    message: /a quote that opens a cell in row 2 is never closed/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n"A-1,Pro\r\nB-2,Pro\r\n`),
  },
  {
    name: 'a CSV with NUL bytes after its first 64 KB',
    fileName: 'nul.csv',
    kind: 'csv',
    message: /NUL character/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n${'A,P0001,c,m,f\r\n'.repeat(10_000)}A\u0000B,P0002\r\n`),
  },
  {
    // csv-parse built an error object per row whose cell count differs from the header's: ~150 µs each.
    name: 'a CSV of 200,000 short rows under a longer header, with a NUL at its end',
    fileName: 'short-rows.csv',
    kind: 'csv',
    message: /Row 200002 of the CSV file holds a NUL character/,
    make: () => Buffer.from(`${CSV_HEADER}\r\n${'a\r\n'.repeat(200_000)}\u0000\r\n`),
  },
  {
    name: 'a CSV of NUL bytes',
    fileName: 'nul-start.csv',
    kind: 'csv',
    message: /not an Excel workbook|is not/,
    make: () => Buffer.alloc(1000, 0),
  },
  {
    name: 'a CSV of one 9 MB line',
    fileName: 'long-line.csv',
    kind: 'csv',
    message: /longer than 2,097,152 characters/,
    make: () => Buffer.alloc(9 * MB, 0x61),
  },
  {
    name: 'a CSV row of 4.5 million cells',
    fileName: 'wide.csv',
    kind: 'csv',
    message: /more than 16,384 cells/,
    make: () => Buffer.from(`ActivationCode${','.repeat(4_500_000)}\r\nA\r\n`),
  },
];
