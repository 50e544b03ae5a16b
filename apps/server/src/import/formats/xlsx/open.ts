import path from 'node:path';
import { badRequest } from '../../../lib/errors.ts';
import type { SheetReading, SheetRow, Workbook } from '../workbook.ts';
import { partElements } from '../xml.ts';
import { corruptWorkbook, DEFAULT_INFLATE_LIMITS, type InflateLimits, ZipArchive } from '../zip.ts';
import { readSharedStrings, SharedStrings } from './sharedStrings.ts';
import { readSheetPart } from './sheet.ts';
import { readSheetInWorker, workersEnabled, xlsxWorkerOptions } from './workers.ts';

/**
 * The XLSX reader. General-purpose readers build a DOM node or an object per cell and need
 * tens of seconds for a million rows; this one inflates each sheet as a stream and walks its
 * bytes once with a small state machine that knows only rows, cells, values and strings
 * (sheetParser.ts). Shared strings live in one byte buffer with an offset table
 * (sharedStrings.ts), so even a table of millions of strings costs about its UTF-8 size. The
 * small workbook and relationship parts are read with saxes (../xml.ts).
 */

const REL_OFFICE_DOCUMENT = '/officeDocument';
const MAX_SHEET_NAME = 255;
const REL_WORKSHEET = '/worksheet';
const REL_SHARED_STRINGS = '/sharedStrings';

export async function openXlsx(
  file: string,
  limits: InflateLimits = DEFAULT_INFLATE_LIMITS,
): Promise<Workbook> {
  const zip = await ZipArchive.open(file, limits);
  try {
    if (zip.has('EncryptedPackage') || zip.has('EncryptionInfo')) {
      throw badRequest('The workbook is password-protected. Remove the password and retry.');
    }
    const workbookPart = await findWorkbookPart(zip);
    const rels = await relationships(zip, workbookPart);
    const workbookXml = await partElements(zip.read(workbookPart), ['sheet']);
    const sheets: { name: string; part: string }[] = [];
    for (const sheet of workbookXml.get('sheet') ?? []) {
      const rel = rels.get(sheet[':id'] ?? sheet.id ?? '');
      if (!sheet.name || !rel?.type.endsWith(REL_WORKSHEET)) continue; // chart sheets, dialogs
      // Excel allows 31 characters; a name of thousands would be repeated in every message.
      if (sheet.name.length > MAX_SHEET_NAME)
        throw corruptWorkbook('a sheet name is far longer than Excel allows');
      sheets.push({ name: sheet.name, part: rel.target });
    }
    if (sheets.length === 0) throw corruptWorkbook('it has no worksheets');
    const sstRel = [...rels.values()].find((r) => r.type.endsWith(REL_SHARED_STRINGS));
    const sstPart = sstRel?.target ?? 'xl/sharedStrings.xml';
    return new XlsxWorkbook(file, zip, sheets, zip.has(sstPart) ? sstPart : undefined, limits);
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function findWorkbookPart(zip: ZipArchive): Promise<string> {
  if (zip.has('_rels/.rels')) {
    const root = await partElements(zip.read('_rels/.rels'), ['Relationship']);
    const office = root.get('Relationship')?.find((r) => r.Type?.endsWith(REL_OFFICE_DOCUMENT));
    if (office?.Target) {
      const part = resolveTarget('', office.Target);
      if (zip.has(part)) return part;
    }
  }
  if (zip.has('xl/workbook.xml')) return 'xl/workbook.xml';
  throw badRequest('This zip file is not an Excel workbook: it has no workbook part.');
}

async function relationships(zip: ZipArchive, part: string) {
  const dir = path.posix.dirname(part);
  const relsPart = path.posix.join(dir, '_rels', `${path.posix.basename(part)}.rels`);
  const out = new Map<string, { type: string; target: string }>();
  if (!zip.has(relsPart)) return out;
  const found = await partElements(zip.read(relsPart), ['Relationship']);
  for (const r of found.get('Relationship') ?? []) {
    if (!r.Id || !r.Target || r.TargetMode === 'External') continue;
    out.set(r.Id, { type: r.Type ?? '', target: resolveTarget(dir, r.Target) });
  }
  return out;
}

function resolveTarget(dir: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return path.posix.normalize(path.posix.join(dir, target)).replace(/^(\.\.\/)+/, '');
}

class XlsxWorkbook implements Workbook {
  readonly type = 'xlsx' as const;
  readonly sheetNames: string[];
  private sst: Promise<SharedStrings> | undefined;

  constructor(
    private readonly file: string,
    private readonly zip: ZipArchive,
    private readonly sheets: { name: string; part: string }[],
    private readonly sstPart: string | undefined,
    private readonly limits: InflateLimits,
  ) {
    this.sheetNames = sheets.map((s) => s.name);
  }

  /** The shared strings, read once on first need (a sheet read in a worker reads its own). */
  private sharedStrings(): Promise<SharedStrings> {
    this.sst ??= this.sstPart
      ? readSharedStrings(this.zip, this.sstPart)
      : Promise.resolve(new SharedStrings());
    return this.sst;
  }

  read(name: string): SheetReading {
    const sheet = this.sheets.find((s) => s.name === name);
    if (!sheet) throw new Error(`no sheet ${name}`);
    if (!this.zip.has(sheet.part)) throw corruptWorkbook(`the sheet ${name} is missing`);
    const size = this.zip.entry(sheet.part)?.uncompressedSize ?? 0;
    const inProcess = () => {
      let parse: SheetReading | undefined;
      let wanted: number[] | undefined;
      const self = this;
      async function* rows(): AsyncGenerator<SheetRow[]> {
        parse = readSheetPart(self.zip, sheet?.part as string, name, await self.sharedStrings());
        if (wanted) parse.only(wanted);
        yield* parse.rows;
      }
      return {
        rows: rows(),
        progress: () => parse?.progress() ?? 0,
        only: (columns: number[]) => {
          wanted = columns;
          parse?.only(columns);
        },
      } satisfies SheetReading;
    };
    if (size < xlsxWorkerOptions.minBytes || !workersEnabled()) return inProcess();
    const zip = this.zip;
    return readSheetInWorker(
      {
        file: this.file,
        name,
        part: sheet.part,
        sstPart: this.sstPart,
        limits: this.limits,
        inflated: zip.inflated,
      },
      (inflated) => zip.addInflated(inflated),
      inProcess,
    );
  }

  async close() {
    this.zip.close();
  }
}
