import { Button } from '@mantine/core';
import type { ScanRow } from '@obd/contract';
import { openDocument } from '../../lib/download.ts';

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
 * A scan's PDF report: its external report as a plain link (new tab, copyable), or a button that
 * has the server render one.
 */
export function ScanReportAction({ scan }: { scan: Pick<ScanRow, 'id' | 'pdf_report'> }) {
  if (scan.pdf_report) {
    return (
      <Button
        component="a"
        href={scan.pdf_report}
        target="_blank"
        rel="noopener noreferrer"
        size="compact-sm"
        variant="subtle"
      >
        Open PDF
      </Button>
    );
  }
  return (
    <Button size="compact-sm" variant="light" onClick={() => openScanReport(scan)}>
      View PDF
    </Button>
  );
}
