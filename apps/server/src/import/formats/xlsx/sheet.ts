import { Held, nulRefused, Slice } from '../bounds.ts';
import type { SheetReading, SheetRow } from '../workbook.ts';
import { corruptWorkbook, type ZipArchive } from '../zip.ts';
import { lastEmptyElement } from './bytes.ts';
import { LOOK_FOR_EMPTY_BYTES, MAX_PROLOGUE_BYTES, MAX_RUN_BYTES } from './limits.ts';
import type { SharedStrings } from './sharedStrings.ts';
import { SheetParser } from './sheetParser.ts';

/**
 * Reads one sheet part of an open archive with the workbook's shared strings: inflates it as a
 * stream and hands the scanner (sheetParser.ts) runs of whole rows, holding back the bytes of a
 * row until its end tag has arrived (bounded: limits.ts).
 */
export function readSheetPart(zip: ZipArchive, part: string, name: string, sst: SharedStrings): SheetReading {
  const parser = new SheetParser(sst);
  let fraction = 0;
  async function* rows(): AsyncGenerator<SheetRow[]> {
    const held = new Held();
    const slice = new Slice();
    const onBytes = (done: number, total: number) => {
      fraction = total > 0 ? done / total : 1;
    };
    for await (let chunk of zip.read(part, onBytes)) {
      // Past the sheet data the rest is only inflated, so that the part's size is still checked.
      if (parser.done) continue;
      if (chunk.indexOf(0) >= 0) throw nulRefused();
      if (!parser.closeRow) {
        chunk = held.length > 0 ? Buffer.concat([held.take(), chunk]) : chunk;
        parser.detectPrefix(chunk);
        if (!parser.closeRow) {
          if (chunk.length > MAX_PROLOGUE_BYTES) throw corruptWorkbook(`${name} has no worksheet element`);
          held.push(chunk, null);
          continue;
        }
      }
      const closeRow = parser.closeRow as Buffer;
      const { bytes, cut } = held.push(chunk, closeRow);
      if (!bytes) {
        if (held.length > LOOK_FOR_EMPTY_BYTES) {
          // A run of empty rows (`<row r="9" ht="20"/>`) has no `</row>`: parse up to its last one.
          const all = held.take();
          const end = lastEmptyElement(all, 'row');
          if (end > 0) {
            const out: SheetRow[] = [];
            parser.parse(all, 0, end, out);
            held.push(all.subarray(end), null);
            if (out.length > 0) yield out;
            await slice.pause();
            continue;
          }
          held.push(all, null);
        }
        if (held.length > MAX_RUN_BYTES) {
          // No row end in 4 MB: past the last row (merged cells, links) or a row no program writes.
          const all = held.take();
          const end = all.indexOf(parser.closeSheetData as Buffer);
          if (end < 0) throw corruptWorkbook(`a row of ${name} is longer than 4 MB`);
          const out: SheetRow[] = [];
          parser.parse(all, 0, end + (parser.closeSheetData as Buffer).length, out);
          parser.done = true;
          if (out.length > 0) yield out;
        }
        continue;
      }
      const out: SheetRow[] = [];
      parser.parse(bytes, 0, cut, out);
      if (cut < bytes.length) held.push(bytes.subarray(cut), null);
      if (out.length > 0) yield out;
      await slice.pause();
    }
    if (held.length > 0 && !parser.done) {
      const rest = held.take();
      const out: SheetRow[] = [];
      parser.parse(rest, 0, rest.length, out);
      if (out.length > 0) yield out;
    }
  }
  return {
    rows: rows(),
    progress: () => fraction,
    only: (columns) => parser.only(columns),
  };
}
