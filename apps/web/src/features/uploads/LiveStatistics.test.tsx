import type { ImportDetail, ImportRecord } from '@obd/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/session.ts';
import { installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { keyStatistics } from './importHistory.tsx';
import { LiveStatistics } from './LiveStatistics.tsx';

function record(overrides: Partial<ImportRecord> = {}): ImportRecord {
  return {
    id: 9,
    kind: 'fault_codes',
    operator: { id: 1, email: 'eddie@example.com' },
    fileName: 'codes.xlsx',
    fileSize: 1200,
    fileHash: 'abc',
    status: 'running',
    phase: 'reading',
    progress: 10,
    rowsProcessed: 100,
    rowsTotal: null,
    message: null,
    stats: null,
    errorCount: 0,
    duplicateOfImportId: null,
    startedAt: new Date(Date.now() - 5000).toISOString(),
    finishedAt: null,
    undoneAt: null,
    ...overrides,
  };
}

describe('LiveStatistics (Import History)', () => {
  it('follows a running import every second until it ends, then shows its figures', async () => {
    setToken('token');
    const answers: Partial<ImportRecord>[] = [
      { progress: 40, rowsProcessed: 4000 },
      {
        status: 'succeeded',
        phase: 'done',
        progress: 100,
        rowsProcessed: 5000,
        stats: { totalRowsProcessed: 5000, insertedCount: 4990, skippedCount: 10 },
        finishedAt: new Date().toISOString(),
      },
    ];
    const calls = installFakeFetch((call) => {
      if (call.url.pathname === '/api/imports/9') {
        const next = answers.length > 1 ? answers.shift() : answers[0];
        return jsonResponse({ ...record(next), errors: [] } satisfies ImportDetail);
      }
      return jsonResponse({ error: 'unexpected', code: 'NOT_FOUND' }, 404);
    });
    renderRoutes(
      [{ path: '/ImportHistory', element: <LiveStatistics record={record()} text={keyStatistics} /> }],
      '/ImportHistory',
    );
    expect(await screen.findByText(/40% \(4,000 rows\) · \d+ s elapsed · [\d,]+ rows\/s/)).toBeTruthy();
    expect(
      await screen.findByText('5,000 rows · 4,990 inserted · 10 skipped', {}, { timeout: 3000 }),
    ).toBeTruthy();
    const polls = calls.filter((c) => c.url.pathname === '/api/imports/9').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Ended: no more polling.
    expect(calls.filter((c) => c.url.pathname === '/api/imports/9').length).toBe(polls);
  });

  it('shows a finished import as its figures without asking', () => {
    const calls = installFakeFetch(() => jsonResponse({}, 404));
    renderRoutes(
      [
        {
          path: '/ImportHistory',
          element: (
            <LiveStatistics
              record={record({ status: 'failed', message: 'The sheet is empty.' })}
              text={keyStatistics}
            />
          ),
        },
      ],
      '/ImportHistory',
    );
    expect(screen.getByText('The sheet is empty.')).toBeTruthy();
    expect(calls.filter((c) => c.url.pathname.startsWith('/api/imports'))).toHaveLength(0);
  });
});
