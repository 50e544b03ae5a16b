import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { httpReportUrl, ScanReportAction } from './scanReport.tsx';

const show = (pdf_report: string | null) =>
  render(
    <MantineProvider>
      <ScanReportAction scan={{ id: 7, pdf_report }} />
    </MantineProvider>,
  );

describe('a scan report link', () => {
  it.each(['https://reports.example-obd.com/scans/ab.pdf', 'http://reports.example-obd.com/scans/ab.pdf'])(
    'renders %s as a link',
    (address) => {
      show(address);
      expect(screen.getByRole('link', { name: 'Open PDF' }).getAttribute('href')).toBe(address);
    },
  );

  it.each([
    'javascript:alert(document.cookie)',
    ' JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '//evil.example/x.pdf',
    'not a url',
  ])('never renders %s as a link: the server-rendered report is offered instead', (address) => {
    show(address);
    expect(screen.queryByRole('link')).toBeNull();
    // A plain button (no Mantine Button per row): never a form's submit button.
    expect(screen.getByRole('button', { name: 'View PDF' }).getAttribute('type')).toBe('button');
  });

  it('accepts only absolute http(s) addresses', () => {
    expect(httpReportUrl('HTTPS://Example.com/a.pdf')).toBe('https://example.com/a.pdf');
    expect(httpReportUrl('javascript:alert(1)')).toBeUndefined();
    expect(httpReportUrl(null)).toBeUndefined();
  });
});
