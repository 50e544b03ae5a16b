/**
 * Writes the big upload files of the import benchmark into /tmp: workbooks shaped like the ones
 * Excel writes (a shared-string table, styles, `spans`, booleans as `t="b"`) or the way streaming
 * writers do (inline strings), and a CSV of activation codes. Deterministic, so a re-upload is
 * byte-identical.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export const FAULT_HEADERS = [
  'DTC',
  'Title',
  'Severity',
  'Repair Difficulty',
  'Make',
  'Company ID',
  'Generic',
];

const MAKES = Array.from({ length: 50 }, (_, k) =>
  k === 0 ? 'Generic' : `Make ${String(k).padStart(2, '0')}`,
);
const CODES_PER_COMPANY = 20_000;
const LETTERS = ['P', 'B', 'C', 'U'];

/** Row i of the fault-code file: unique (dtc, company id) for i < 1,000,000. */
export function faultRow(i: number): [string, string, number, number, string, number, boolean] {
  const k = i % CODES_PER_COMPANY;
  // Rows from 1,000,000 on belong to companies 50, 51, …: a second million of distinct codes.
  const company = Math.floor(i / CODES_PER_COMPANY);
  const dtc = `${LETTERS[k % 4]}${(k >> 2).toString(16).toUpperCase().padStart(4, '0')}`;
  const title = `${['Circuit', 'Sensor', 'Signal', 'Module', 'Valve'][k % 5]} ${k >> 2} ${['Low', 'High', 'Range/Performance', 'Malfunction'][k % 4]} & "check"`;
  return [
    dtc,
    title,
    (k % 5) + 1,
    ((k >> 3) % 5) + 1,
    MAKES[company % MAKES.length] as string,
    company,
    company === 0,
  ];
}

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function col(i: number) {
  return String.fromCharCode(65 + i);
}

/** A fault-code workbook of `rows` data rows on one sheet (or on `sheetName`). */
export async function writeFaultCodesXlsx(
  file: string,
  rows: number,
  /** `first`: the generator's index of the first row (a file of other codes from 1,000,000 on). */
  options: { inline?: boolean; sheetName?: string; first?: number } = {},
) {
  const first = options.first ?? 0;
  const inline = options.inline ?? false;
  const sst = new Map<string, number>();
  const shared = (s: string) => {
    let n = sst.get(s);
    if (n === undefined) {
      n = sst.size;
      sst.set(s, n);
    }
    return n;
  };
  const text = (ref: string, s: string) =>
    inline
      ? `<c r="${ref}" t="inlineStr"><is><t>${esc(s)}</t></is></c>`
      : `<c r="${ref}" t="s"><v>${shared(s)}</v></c>`;

  function* sheet() {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><dimension ref="A1:G${rows + 1}"/><sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/><sheetData>`;
    yield `<row r="1" spans="1:7">${FAULT_HEADERS.map((h, c) => text(`${col(c)}1`, h)).join('')}</row>`;
    let chunk = '';
    for (let i = 0; i < rows; i++) {
      const [dtc, title, severity, difficulty, make, company, generic] = faultRow(first + i);
      const r = i + 2;
      chunk += `<row r="${r}" spans="1:7">${text(`A${r}`, dtc)}${text(`B${r}`, title)}<c r="C${r}"><v>${severity}</v></c><c r="D${r}"><v>${difficulty}</v></c>${text(`E${r}`, make)}<c r="F${r}"><v>${company}</v></c><c r="G${r}" t="b"><v>${generic ? 1 : 0}</v></c></row>`;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
  }

  const zip = new yazl.ZipFile();
  const sheetName = options.sheetName ?? 'Fault Codes';
  // The sheet goes first so the shared-string table is complete when it is written.
  const sheetXml = Buffer.from([...sheet()].join(''));
  zip.addBuffer(sheetXml, 'xl/worksheets/sheet1.xml', { compressionLevel: 6 });
  zip.addBuffer(Buffer.from(CONTENT_TYPES(!inline)), '[Content_Types].xml');
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels');
  zip.addBuffer(Buffer.from(workbook(sheetName)), 'xl/workbook.xml');
  zip.addBuffer(Buffer.from(WORKBOOK_RELS(!inline)), 'xl/_rels/workbook.xml.rels');
  zip.addBuffer(Buffer.from(STYLES), 'xl/styles.xml');
  if (!inline) {
    let xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${rows * 4 + 7}" uniqueCount="${sst.size}">`;
    for (const s of sst.keys()) xml += `<si><t>${esc(s)}</t></si>`;
    zip.addBuffer(Buffer.from(`${xml}</sst>`), 'xl/sharedStrings.xml', { compressionLevel: 6 });
  }
  zip.end();
  await pipeline(zip.outputStream as unknown as Readable, fs.createWriteStream(file));
}

const TEXT_SHEETS = [
  { name: 'causes', header: 'Causes', words: ['Wiring harness open', 'Connector corroded', 'Sensor failed'] },
  { name: 'symptoms', header: 'Symptom', words: ['Engine light on', 'Rough idle', 'Poor fuel economy'] },
  { name: 'solutions', header: 'Solution', words: ['Repair wiring', 'Clean connector', 'Replace sensor'] },
] as const;

/**
 * A Bulk Uploader workbook (fault_descriptions, causes, symptoms, solutions), `rows` data rows on
 * each sheet, shared strings as Excel writes them; about 100 MB at 1,000,000 rows a sheet. The
 * sheets are streamed into the zip (the shared-string table is known beforehand: every text
 * is a function of the row), so memory stays small whatever the size.
 */
export async function writeFaultWorkbookXlsx(file: string, rows: number) {
  const sst = new Map<string, number>();
  const shared = (s: string) => {
    let n = sst.get(s);
    if (n === undefined) {
      n = sst.size;
      sst.set(s, n);
    }
    return n;
  };
  const textOf = (sheet: number, i: number) => {
    const k = i % CODES_PER_COMPANY;
    const words = TEXT_SHEETS[sheet]?.words as readonly string[];
    return `${words[k % words.length]} (${k >> 2})`;
  };
  // Every string, in first-use order, before any sheet is written.
  for (const h of FAULT_HEADERS) shared(h);
  for (let i = 0; i < Math.min(rows, CODES_PER_COMPANY * MAKES.length); i++) {
    const [dtc, title, , , make] = faultRow(i);
    shared(dtc);
    shared(title);
    shared(make);
  }
  TEXT_SHEETS.forEach((t, sheet) => {
    for (const h of [t.header, 'Language']) shared(h);
    for (let i = 0; i < Math.min(rows, CODES_PER_COMPANY); i++) shared(textOf(sheet, i));
  });
  shared('en');
  const s = (ref: string, text: string) => `<c r="${ref}" t="s"><v>${shared(text)}</v></c>`;
  const head = (cols: number, n: number) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:${col(cols - 1)}${n + 1}"/><sheetData>`;
  function* faultSheet() {
    yield `${head(7, rows)}<row r="1" spans="1:7">${FAULT_HEADERS.map((h, c) => s(`${col(c)}1`, h)).join('')}</row>`;
    let chunk = '';
    for (let i = 0; i < rows; i++) {
      const [dtc, title, severity, difficulty, make, company, generic] = faultRow(i);
      const r = i + 2;
      chunk += `<row r="${r}" spans="1:7">${s(`A${r}`, dtc)}${s(`B${r}`, title)}<c r="C${r}"><v>${severity}</v></c><c r="D${r}"><v>${difficulty}</v></c>${s(`E${r}`, make)}<c r="F${r}"><v>${company}</v></c><c r="G${r}" t="b"><v>${generic ? 1 : 0}</v></c></row>`;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}</sheetData></worksheet>`;
  }
  function* textSheet(sheet: number) {
    const t = TEXT_SHEETS[sheet] as (typeof TEXT_SHEETS)[number];
    const headers = ['DTC', t.header, 'Language', 'Make', 'Company ID', 'Generic'];
    yield `${head(6, rows)}<row r="1" spans="1:6">${headers.map((h, c) => s(`${col(c)}1`, h)).join('')}</row>`;
    let chunk = '';
    for (let i = 0; i < rows; i++) {
      const [dtc, , , , make, company, generic] = faultRow(i);
      const r = i + 2;
      chunk += `<row r="${r}" spans="1:6">${s(`A${r}`, dtc)}${s(`B${r}`, textOf(sheet, i))}${s(`C${r}`, 'en')}${s(`D${r}`, make)}<c r="E${r}"><v>${company}</v></c><c r="F${r}" t="b"><v>${generic ? 1 : 0}</v></c></row>`;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}</sheetData></worksheet>`;
  }
  const names = ['fault_descriptions', ...TEXT_SHEETS.map((t) => t.name)];
  const zip = new yazl.ZipFile();
  const sheets = [faultSheet(), textSheet(0), textSheet(1), textSheet(2)];
  sheets.forEach((sheet, k) => {
    zip.addReadStream(Readable.from(sheet), `xl/worksheets/sheet${k + 1}.xml`, { compressionLevel: 6 });
  });
  const overrides = names
    .map(
      (_, k) =>
        `<Override PartName="/xl/worksheets/sheet${k + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('');
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${overrides}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ),
    '[Content_Types].xml',
  );
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels');
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${names.map((n, k) => `<sheet name="${n}" sheetId="${k + 1}" r:id="rId${k + 1}"/>`).join('')}</sheets></workbook>`,
    ),
    'xl/workbook.xml',
  );
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names.map((_, k) => `<Relationship Id="rId${k + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${k + 1}.xml"/>`).join('')}<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    'xl/_rels/workbook.xml.rels',
  );
  let xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${rows * 18}" uniqueCount="${sst.size}">`;
  for (const text of sst.keys()) xml += `<si><t>${esc(text)}</t></si>`;
  zip.addBuffer(Buffer.from(`${xml}</sst>`), 'xl/sharedStrings.xml', { compressionLevel: 6 });
  zip.end();
  await pipeline(zip.outputStream as unknown as Readable, fs.createWriteStream(file));
}

/** `rows` activation codes as CSV, with a header in one of the accepted spellings. */
export async function writeActivationCsv(file: string, rows: number) {
  function* lines() {
    yield 'Activation Code,Plan,Duration,Vehicle\r\n';
    let chunk = '';
    for (let i = 0; i < rows; i++) {
      chunk += `ACT-${String(i).padStart(8, '0')}-${((i * 2654435761) >>> 0).toString(36).toUpperCase()},${['Basic', 'Pro', 'Fleet'][i % 3]},${[30, 90, 365][i % 3]},${['Car', 'Bike', 'Truck'][i % 3]}\r\n`;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  }
  await pipeline(Readable.from(lines()), fs.createWriteStream(file));
}

const CONTENT_TYPES = (sst: boolean) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${sst ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const workbook = (name: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${esc(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = (sst: boolean) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>${sst ? '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' : ''}</Relationships>`;
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>`;
