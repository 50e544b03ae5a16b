import type { ImportRecord } from '@obd/contract';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { activationCodesUpload } from '../features/uploads/declarations.tsx';
import { installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { pace } from './format.ts';
import { UploadPage } from './UploadPage.tsx';

const EDITOR = { id: 2, email: 'editor@example.com', role: 'editor' as const };

function running(overrides: Partial<ImportRecord> = {}): ImportRecord {
  return {
    id: 41,
    kind: 'activation_codes',
    operator: { id: 2, email: 'editor@example.com' },
    fileName: 'big.csv',
    fileSize: 9_000_000,
    fileHash: 'abc',
    status: 'running',
    phase: 'writing',
    progress: 60,
    rowsProcessed: 300_000,
    rowsTotal: 500_000,
    message: null,
    stats: null,
    errorCount: 0,
    duplicateOfImportId: null,
    startedAt: new Date(Date.now() - 10_000).toISOString(),
    finishedAt: null,
    ...overrides,
  } as ImportRecord;
}

beforeEach(() => localStorage.setItem('token', 'tok'));

describe('an import left running (issue 15 item 6)', () => {
  it('gives elapsed time and rows per second', () => {
    expect(
      pace(
        { startedAt: '2026-01-01T00:00:00.000Z', rowsProcessed: 50_000 },
        Date.parse('2026-01-01T00:00:10.000Z'),
      ),
    ).toBe('10 s elapsed · 5,000 rows/s');
  });

  it('is picked up by its page when the operator comes back, live, then said finished', async () => {
    let list: ImportRecord[] = [running()];
    installFakeFetch((call) => {
      if (call.url.pathname === '/api/imports') return jsonResponse({ data: list, total: list.length });
      return jsonResponse({ error: 'unexpected' }, 500);
    });
    renderRoutes([{ path: '/up', element: <UploadPage declaration={activationCodesUpload} /> }], '/up', {
      operator: EDITOR,
    });
    await screen.findByText(/is still running: Saving rows… 60%/);
    expect(screen.getByText(/300,000 of 500,000 rows written · \d+ s elapsed · [\d,]+ rows\/s/)).toBeTruthy();
    list = [];
    await screen.findByText(/has finished: see its outcome in the Import History/, {}, { timeout: 3000 });
    expect(screen.getByRole('link', { name: 'Import #41' }).getAttribute('href')).toBe(
      '/ImportHistory/details?id=41',
    );
  });
});
