import { PassThrough, type Readable } from 'node:stream';
import type { ScanDetail } from '@obd/contract';
import { fileDate } from '@obd/contract';
import type { Db } from '../../db/database.ts';

/**
 * The PDF report of a scan that has no report of its own: the summary, the decoded fault codes
 * with their titles from the fault-code reference, and the raw results. Rendered on request and
 * streamed; pdfkit's built-in Helvetica needs no font files.
 */
export async function renderScanReport(db: Db, scan: ScanDetail): Promise<Readable> {
  const titles = await faultTitles(db, scan);
  // pdfkit (and its font machinery, ~25 MB) loads on the first report, not with every server.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Scan report ${scan.id}` } });
  const out = new PassThrough();
  doc.pipe(out);

  doc.fontSize(18).text(`Scan report #${scan.id}`).moveDown(0.3);
  doc
    .fontSize(9)
    .fillColor('#555')
    .text(`Generated ${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC by OBD Admin`);
  doc.fillColor('black').moveDown();

  heading(doc, 'Summary');
  const summary: [string, string][] = [
    ['Email', scan.email],
    ['Vehicle', [scan.make, scan.model].filter(Boolean).join(' ')],
    ['License plate', scan.license_plate ?? '-'],
    ['VIN', scan.vin ?? '-'],
    ['Start', formatTime(scan.scan_start_time)],
    ['End', scan.scan_end_time ? formatTime(scan.scan_end_time) : '-'],
    ['Duration', duration(scan.scan_start_time, scan.scan_end_time)],
    ['Function / type', `${scan.function ?? '-'} / ${scan.type ?? '-'}`],
    ['App version', scan.app_version ?? '-'],
    ['Results', String(scan.scanResArray.length)],
    ['Scan ended', scan.scan_ended ? 'Yes' : 'No'],
  ];
  for (const [label, value] of summary) {
    doc
      .fontSize(10)
      .font('Helvetica-Bold')
      .text(`${label}: `, { continued: true })
      .font('Helvetica')
      .text(value);
  }
  doc.moveDown();

  heading(doc, 'Decoded fault codes');
  const faults = scan.decodedArray.flatMap((d) =>
    Object.entries(d.decodedFaultArray).map(([code, text]) => ({ system: d.system ?? '-', code, text })),
  );
  if (faults.length === 0) doc.fontSize(10).text('No decoded fault data available.');
  for (const f of faults) {
    const title = titles.get(f.code);
    doc
      .fontSize(10)
      .font('Helvetica-Bold')
      .text(`${f.code}  `, { continued: true })
      .font('Helvetica')
      .text(`${title ?? f.text}  (${f.system})`);
    if (title && title !== f.text)
      doc.fontSize(8).fillColor('#555').text(`Reported as: ${f.text}`).fillColor('black');
  }
  doc.moveDown();

  heading(doc, 'Raw scan results');
  if (scan.scanResArray.length === 0) doc.fontSize(10).text('No scan data available.');
  doc.fontSize(8).font('Courier-Bold');
  if (scan.scanResArray.length > 0)
    doc.text(`${pad('System', 14)} ${pad('PID', 16)} ${pad('Header', 6)} Data`);
  doc.font('Courier');
  for (const r of scan.scanResArray) {
    doc.text(`${pad(r.system, 14)} ${pad(r.pid, 16)} ${pad(r.header, 6)} ${r.data ?? '-'}`);
  }
  doc.end();
  return out;
}

function heading(doc: PDFKit.PDFDocument, text: string) {
  doc.font('Helvetica-Bold').fontSize(13).text(text).font('Helvetica').moveDown(0.3);
}

const pad = (s: string | null, width: number) => (s ?? '-').padEnd(width).slice(0, width);
const formatTime = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

function duration(start: string, end: string | null): string {
  if (!end) return '-';
  const seconds = Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000));
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** Titles of the scan's fault codes: the make's own code first, else the generic one. */
async function faultTitles(db: Db, scan: ScanDetail): Promise<Map<string, string>> {
  const codes = [...new Set(scan.decodedArray.flatMap((d) => Object.keys(d.decodedFaultArray)))];
  if (codes.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('fault_codes')
    .select(['dtc', 'title', 'generic', 'make'])
    .where('dtc', 'in', codes)
    .where((eb) => eb.or([eb('generic', '=', 1), eb(eb.fn('lower', ['make']), '=', scan.make.toLowerCase())]))
    .execute();
  const titles = new Map<string, string>();
  for (const row of rows.sort((a, b) => a.generic - b.generic)) {
    if (row.title && !titles.has(row.dtc)) titles.set(row.dtc, row.title);
  }
  return titles;
}

export const scanReportFileName = (id: number) => `Scan_Report_${id}_${fileDate()}.pdf`;
