import type { ScanRow } from '@obd/contract';
import { openDocument } from '../../lib/download.ts';
import { CompactButtonLabel, compactButtonLook } from '../../list/columns.tsx';
import classes from './scanReport.module.css';

/** The general sentence of spec §8, for a report that could not be opened. */
export const REPORT_FAILED = 'Something went wrong';

/**
 * Opens the PDF report the server renders for a scan, in a new tab, through a single-use link
 * (decisions §6). Call it from the click itself: the tab is opened before any request, so the
 * browser does not block it as a popup; the link is filled in when it arrives.
 */
export function openScanReport(scan: Pick<ScanRow, 'id'>): void {
  const tab = window.open('', '_blank');
  // The report must not be able to reach back into the dashboard.
  if (tab) tab.opener = null;
  openDocument({ list: 'scanReport', format: 'pdf', query: { id: String(scan.id) } }, tab).catch(
    (error: unknown) => {
      console.error(`scan ${scan.id}: report failed`, error);
      tab?.close();
      window.alert(REPORT_FAILED);
    },
  );
}

/**
 * The stored report address when it is an absolute http(s) URL, else undefined. The address comes
 * from the app's data, not from this dashboard: a `javascript:` or `data:` one must never become
 * a link an operator clicks.
 */
export function httpReportUrl(address: string | null | undefined): string | undefined {
  if (!address) return undefined;
  try {
    const url = new URL(address.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A scan's PDF report: its external report as a plain link (new tab, copyable) when it is an
 * http(s) address, or else a button that has the server render one. Drawn as Mantine's compact
 * subtle / light Buttons draw them, without a Button component in each of a page's 30 rows.
 */
export function ScanReportAction({ scan }: { scan: Pick<ScanRow, 'id' | 'pdf_report'> }) {
  const external = httpReportUrl(scan.pdf_report);
  if (external) {
    return (
      <a
        href={external}
        target="_blank"
        rel="noopener noreferrer"
        {...compactButtonLook('subtle', classes.subtle)}
      >
        <CompactButtonLabel>Open PDF</CompactButtonLabel>
      </a>
    );
  }
  return (
    <button type="button" {...compactButtonLook('light')} onClick={() => openScanReport(scan)}>
      <CompactButtonLabel>View PDF</CompactButtonLabel>
    </button>
  );
}
