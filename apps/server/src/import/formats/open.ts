import fs from 'node:fs/promises';
import { badRequest } from '../../lib/errors.ts';
import { overBudget, readingBudget } from './bounds.ts';
import { OLE2_SIGNATURE } from './cfb.ts';
import { looksLikeText, openCsv } from './csv.ts';
import type { SheetReading, SheetRow, SpreadsheetType, Workbook } from './workbook.ts';
import { openXls } from './xls.ts';
import { openXlsx } from './xlsx/open.ts';
import type { InflateLimits } from './zip.ts';

export const WRONG_TYPE =
  'This file is not an Excel workbook (.xlsx, .xls) or a CSV file. Upload one of those.';

/** The type of a file by its content, never its name (decisions §7): zip → xlsx, OLE2 → xls, text → csv. */
export async function detectType(file: string): Promise<SpreadsheetType | 'other'> {
  const handle = await fs.open(file, 'r');
  let sample: Buffer;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    sample = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (sample.length === 0) throw badRequest('The file is empty.');
  if (sample[0] === 0x50 && sample[1] === 0x4b && (sample[2] === 3 || sample[2] === 5 || sample[2] === 7))
    return 'xlsx';
  if (sample.subarray(0, 8).equals(OLE2_SIGNATURE)) return 'xls';
  if (looksLikeText(sample)) return 'csv';
  return 'other';
}

/**
 * Opens an uploaded file as a workbook. `accept` lists the types this upload takes; another
 * type is a 400 that names what is accepted. An encrypted Office file (OLE2 with an
 * EncryptedPackage) is password-protected whatever it claims to be.
 */
export async function openWorkbook(
  file: string,
  fileName: string,
  accept: SpreadsheetType[],
  limits?: InflateLimits,
): Promise<Workbook> {
  const started = performance.now();
  const budget = readingBudget((await fs.stat(file)).size);
  const workbook = await openAny(file, fileName, accept, limits);
  return withBudget(workbook, budget, performance.now() - started);
}

async function openAny(
  file: string,
  fileName: string,
  accept: SpreadsheetType[],
  limits?: InflateLimits,
): Promise<Workbook> {
  const type = await detectType(file);
  if (type === 'other') throw wrongType(type, accept);
  if (!accept.includes(type) && type !== 'xls') throw wrongType(type, accept);
  if (type === 'xlsx') return openXlsx(file, limits);
  if (type === 'xls') {
    const workbook = await openXls(file); // an encrypted .xlsx is an OLE2 file too: this says so first
    if (!accept.includes('xls')) {
      await workbook.close();
      throw wrongType(type, accept);
    }
    return workbook;
  }
  return openCsv(file, fileName);
}

/**
 * The workbook with a time budget for reading it (`readingBudget`): the time spent opening it
 * and producing its rows (not the caller's time with them) adds up, and past the budget the
 * reading stops with a sentence. Every reader is linear, so only a file far bigger in what it
 * inflates to than in what it weighs gets there.
 */
function withBudget(workbook: Workbook, budget: number, spent: number): Workbook {
  if (spent > budget) {
    void workbook.close();
    throw overBudget(budget);
  }
  return {
    type: workbook.type,
    sheetNames: workbook.sheetNames,
    close: () => workbook.close(),
    read(sheet: string): SheetReading {
      const reading = workbook.read(sheet);
      async function* rows(): AsyncGenerator<SheetRow[]> {
        const it = reading.rows[Symbol.asyncIterator]();
        try {
          for (;;) {
            const t = performance.now();
            const next = await it.next();
            spent += performance.now() - t;
            if (spent > budget) throw overBudget(budget);
            if (next.done) return;
            yield next.value;
          }
        } finally {
          await it.return?.();
        }
      }
      return { rows: rows(), progress: () => reading.progress(), only: (c) => reading.only(c) };
    },
  };
}

export const WRONG_TYPE_EXCEL = 'This file is not an Excel workbook. Upload an .xlsx or .xls file.';

function wrongType(type: SpreadsheetType | 'other', accept: SpreadsheetType[]) {
  if (accept.includes('csv')) return badRequest(WRONG_TYPE);
  return badRequest(
    type === 'csv'
      ? 'This upload needs an Excel workbook (.xlsx or .xls); the file is text (CSV).'
      : WRONG_TYPE_EXCEL,
  );
}
