/** The corpus's XLSX files (hostileCorpus.ts): far cells, floods, DTDs, shared strings, missing parts, deep nesting. */
import {
  BILLION_LAUGHS,
  DAMAGED_XLSX,
  HEADER,
  type HostileFile,
  inline,
  MB,
  NS,
  SHEETS,
  sheet,
  strings,
  workbook,
  workbookXml,
} from './hostileBuilders.ts';

export const HOSTILE_XLSX_FILES: HostileFile[] = [
  // Far cells: a spreadsheet has 16,384 columns and 1,048,576 rows.
  {
    name: 'a cell past column XFD',
    fileName: 'far-column.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () => workbook({ sheet: sheet(`<row r="1">${inline('XFE1', 'ActivationCode')}</row>`) }),
  },
  {
    // Column 321,272,406: every per-row loop over the cells walked that many empty slots.
    name: 'a cell at column ZZZZZZ',
    fileName: 'far-far-column.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1">${inline('A1', 'x')}${inline('ZZZZZZ1', 'ActivationCode')}</row>`),
      }),
  },
  {
    name: 'a cell at column AAAAAAAAAAAAAAA (an overflowing reference)',
    fileName: 'overflow-column.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () => workbook({ sheet: sheet(`<row r="1">${inline(`${'A'.repeat(5000)}1`, 'x')}</row>`) }),
  },
  {
    name: '16,385 cells in a row without references',
    fileName: 'wide-row.xlsx',
    kind: 'excel',
    message: /past column XFD/,
    make: () => workbook({ sheet: sheet(`<row r="1">${'<c><v>1</v></c>'.repeat(16_385)}</row>`) }),
  },
  {
    name: 'a row number past 4 billion',
    fileName: 'far-row.xlsx',
    kind: 'excel',
    message: /past row 1,048,576/,
    make: () =>
      workbook({ sheet: sheet(`${HEADER}<row r="4294967297">${inline('A4294967297', 'X-1')}</row>`) }),
  },
  {
    name: 'row 1,048,577 reached by rows without numbers',
    fileName: 'implicit-far-row.xlsx',
    kind: 'excel',
    message: /past row 1,048,576/,
    make: () =>
      workbook({ sheet: sheet(`<row r="1048576"><c><v>1</v></c></row><row><c><v>2</v></c></row>`) }),
  },
  // Floods and long runs.
  {
    // Each `&` used to look for its `;` to the end of the text: the square of its length.
    name: 'a flood of & ending in ; in one cell (300 KB)',
    fileName: 'amp-flood.xlsx',
    kind: 'excel',
    make: () => workbook({ sheet: sheet(`<row r="1">${inline('A1', `${'&'.repeat(300_000)};`)}</row>`) }),
  },
  {
    name: 'a flood of & ending in ; in a shared text (300 KB)',
    fileName: 'amp-flood-shared.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si><t>${'&'.repeat(300_000)};</t></si>`),
      }),
  },
  {
    name: 'a flood of & ending in ; in an attribute of the workbook part (300 KB)',
    fileName: 'amp-flood-attribute.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        workbookXml: workbookXml(`<sheet name="${'&'.repeat(300_000)};" sheetId="1" r:id="rId1"/>`),
      }),
  },
  {
    name: 'a cell of 3 MB',
    fileName: 'long-cell.xlsx',
    kind: 'excel',
    message: /32,767 characters/,
    make: () => workbook({ sheet: sheet(`<row r="1">${inline('A1', `${'&amp;'.repeat(600_000)}`)}</row>`) }),
  },
  {
    name: 'a shared text of 3 MB',
    fileName: 'long-shared.xlsx',
    kind: 'excel',
    message: /32,767 characters/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si><t>${'x'.repeat(3 * MB)}</t></si>`),
      }),
  },
  {
    // The old attribute regex retried its name pattern from every character of a name without `=`.
    name: 'an attribute name of 1 MB without a value in the workbook part',
    fileName: 'attribute-name.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({ workbookXml: workbookXml(`<sheet name="a" sheetId="1" r:id="rId1" ${'a'.repeat(MB)}/>`) }),
  },
  {
    name: 'an attribute of 1 MB on each sheet entry of the workbook part',
    fileName: 'long-attribute-workbook.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        workbookXml: workbookXml(
          SHEETS.map(
            (s, i) => `<sheet name="${s}" sheetId="${i + 1}" r:id="rId${i + 1}" x="${'a'.repeat(MB)}"/>`,
          ).join(''),
        ),
      }),
  },
  {
    name: 'a sheet name of 3 MB',
    fileName: 'long-sheet-name.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({ workbookXml: workbookXml(`<sheet name="${'n'.repeat(3 * MB)}" sheetId="1" r:id="rId1"/>`) }),
  },
  {
    name: 'one attribute of 3 MB on a cell',
    fileName: 'long-attribute-cell.xlsx',
    kind: 'excel',
    make: () =>
      workbook({
        sheet: sheet(
          `<row r="1"><c r="A1" t="inlineStr" x="${'a'.repeat(3 * MB)}"><is><t>ActivationCode</t></is></c></row>`,
        ),
      }),
  },
  {
    name: 'a cell tag never closed (6 MB)',
    fileName: 'unclosed-tag.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: `<worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="s" ${' '.repeat(6 * MB)}`,
      }),
  },
  {
    name: 'a cell tag cut short at the end of the part',
    fileName: 'cut-tag.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () => workbook({ sheet: `<worksheet xmlns="${NS}"><sheetData>${HEADER}<row r="2"><c r="A2" t="s` }),
  },
  {
    name: 'a workbook part with a tag never closed',
    fileName: 'unclosed-workbook.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () => workbook({ workbookXml: `<workbook xmlns="${NS}"><sheets><sheet name="a" r:id="rId1"` }),
  },
  // DTDs: refused wherever they are.
  {
    name: 'entity expansion (billion laughs) in the shared texts',
    fileName: 'billion-laughs-strings.xlsx',
    kind: 'excel',
    message: /document type declaration/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings('<si><t>&lol9;</t></si>', BILLION_LAUGHS),
      }),
  },
  {
    name: 'entity expansion in the workbook part',
    fileName: 'billion-laughs-workbook.xlsx',
    kind: 'excel',
    message: /document type declaration/,
    make: () => workbook({ workbookXml: workbookXml().replace('<workbook', `${BILLION_LAUGHS}<workbook`) }),
  },
  {
    name: 'a DTD in the sheet',
    fileName: 'dtd-sheet.xlsx',
    kind: 'excel',
    message: /document type declaration/,
    make: () => workbook({ sheet: sheet(HEADER, BILLION_LAUGHS) }),
  },
  // Shared strings.
  {
    name: 'a shared-text index out of range',
    fileName: 'shared-index.xlsx',
    kind: 'excel',
    message: /missing shared text/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>4294967296</v></c></row>`),
        strings: strings('<si><t>ActivationCode</t></si>'),
      }),
  },
  {
    name: 'a shared text never closed (8 MB)',
    fileName: 'shared-unclosed.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si><t>${'x'.repeat(8 * MB)}`),
      }),
  },
  {
    name: 'shared texts with 15 MB before their root element',
    fileName: 'shared-prologue.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: `<?xml version="1.0"?>${' '.repeat(15 * MB)}<sst xmlns="${NS}"><si><t>a</t></si></sst>`,
      }),
  },
  {
    // PostgreSQL refuses NUL in text: a cell holding one reached the insert and failed there.
    name: 'a NUL byte in a cell',
    fileName: 'nul-cell.xlsx',
    kind: 'excel',
    message: /NUL character/,
    make: () =>
      workbook({
        sheet: sheet(`${HEADER}<row r="2">${inline('A2', 'A\u0000B')}${inline('B2', 'P0001')}</row>`),
      }),
  },
  {
    name: '3,000,000 empty shared texts (15 MB, under the ratio floor)',
    fileName: 'shared-many.xlsx',
    kind: 'excel',
    message: /no data rows/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>2999999</v></c></row>`),
        strings: strings('<si/>'.repeat(3_000_000)),
      }),
  },
  // Missing parts.
  {
    name: 'cells that refer to shared texts in a workbook without them',
    fileName: 'missing-strings.xlsx',
    kind: 'excel',
    message: /missing shared text/,
    make: () => workbook({ sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }),
  },
  {
    name: 'a workbook whose sheet part is missing',
    fileName: 'missing-sheet.xlsx',
    kind: 'excel',
    message: /missing/,
    make: () => workbook({ entries: (e) => e.filter((p) => !p.name.startsWith('xl/worksheets/')) }),
  },
  {
    name: 'a zip with relationships but no workbook part',
    fileName: 'missing-workbook.xlsx',
    kind: 'excel',
    message: /not an Excel workbook: it has no workbook part/,
    make: () => workbook({ entries: (e) => e.filter((p) => p.name !== 'xl/workbook.xml') }),
  },
  // Deep nesting.
  {
    name: '500,000 elements nested in one cell',
    fileName: 'deep-cell.xlsx',
    kind: 'excel',
    message: /nests more than 64 elements/,
    make: () =>
      workbook({
        sheet: sheet(
          `<row r="1"><c r="A1" t="inlineStr"><is>${'<r>'.repeat(500_000)}<t>x</t>${'</r>'.repeat(500_000)}</is></c></row>`,
        ),
      }),
  },
  {
    name: "2,000,000 elements nested in one cell (the finding's file)",
    fileName: 'deeper-cell.xlsx',
    kind: 'excel',
    message: DAMAGED_XLSX,
    make: () =>
      workbook({
        sheet: sheet(
          `<row r="1"><c r="A1" t="inlineStr"><is>${'<r>'.repeat(2_000_000)}<t>x</t>${'</r>'.repeat(2_000_000)}</is></c></row>`,
        ),
      }),
  },
  {
    name: '500,000 elements nested in one shared text',
    fileName: 'deep-shared.xlsx',
    kind: 'excel',
    message: /nests more than 64 elements/,
    make: () =>
      workbook({
        sheet: sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
        strings: strings(`<si>${'<r>'.repeat(500_000)}<t>x</t>${'</r>'.repeat(500_000)}</si>`),
      }),
  },
  {
    name: '500,000 elements nested in the workbook part',
    fileName: 'deep-workbook.xlsx',
    kind: 'excel',
    message: /nests more than 64 elements/,
    make: () =>
      workbook({ workbookXml: workbookXml().replace('<sheets>', `${'<x>'.repeat(500_000)}<sheets>`) }),
  },
];
