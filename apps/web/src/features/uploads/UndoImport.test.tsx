import type { ImportRecord, Operator } from '@obd/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/session.ts';
import { installFakeFetch, jsonResponse } from '../../test/fakeFetch.ts';
import { renderRoutes } from '../../test/renderRoutes.tsx';
import { UndoImport } from './UndoImport.tsx';

const EDITOR: Operator = { id: 1, email: 'eddie@example.com', role: 'editor' };
const VIEWER: Operator = { id: 2, email: 'vera@example.com', role: 'viewer' };

function record(overrides: Partial<ImportRecord> = {}): ImportRecord {
  return {
    id: 5,
    kind: 'update_commands',
    operator: { id: 1, email: 'eddie@example.com' },
    fileName: 'honda.xlsx',
    fileSize: 1200,
    fileHash: 'abc',
    status: 'succeeded',
    phase: 'done',
    progress: 100,
    rowsProcessed: 3,
    rowsTotal: 3,
    message: 'Imported.',
    stats: null,
    errorCount: 0,
    duplicateOfImportId: null,
    startedAt: '2026-11-23T09:00:00.000Z',
    finishedAt: '2026-11-23T09:00:01.000Z',
    undoneAt: null,
    ...overrides,
  };
}

function show(rec: ImportRecord, operator = EDITOR, undoAnswer?: () => Response) {
  setToken('token');
  const calls = installFakeFetch((call) => {
    if (call.url.pathname === '/api/me') return jsonResponse(operator);
    if (call.url.pathname === '/api/imports/5/undo' && undoAnswer) return undoAnswer();
    return jsonResponse({ error: 'unexpected', code: 'NOT_FOUND' }, 404);
  });
  renderRoutes([{ path: '/ImportHistory', element: <UndoImport record={rec} /> }], '/ImportHistory', {
    operator,
  });
  return calls;
}

describe('UndoImport', () => {
  it('asks first, then shows the sentence of a refused undo and changes nothing', async () => {
    const sentence =
      '3 rows of the 3 rows import #5 added have been edited or removed since (by a later import or by hand), so nothing was undone.';
    const calls = show(record(), EDITOR, () => jsonResponse({ error: sentence, code: 'CONFLICT' }, 409));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo import #5' }));
    expect(await screen.findByText(/the commands it replaced are put back/)).toBeTruthy();
    expect(calls.some((c) => c.url.pathname.endsWith('/undo'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Undo import' }));
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
    const undo = calls.filter((c) => c.url.pathname === '/api/imports/5/undo');
    expect(undo).toHaveLength(1);
    expect(undo[0]?.init?.method).toBe('POST');
  });

  it('closes the dialog once undone', async () => {
    show(record(), EDITOR, () =>
      jsonResponse({
        importId: 5,
        removed: 3,
        restored: 2,
        message: 'Undid import #5: 3 rows removed, 2 replaced commands put back.',
        undoneAt: '2026-11-23T10:00:00.000Z',
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Undo import #5' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo import' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo import' })).toBeNull());
  });

  it('opens on the first click though its code comes then, traps focus, and gives focus back to the button', async () => {
    show(record());
    const button = await screen.findByRole('button', { name: 'Undo import #5' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Undo import #5?' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Keep the import' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Undo import #5' })),
    );
  });

  it('shows an undone import as undone, without a button', async () => {
    show(record({ status: 'undone', undoneAt: '2026-11-23T10:00:00.000Z' }));
    expect((await screen.findByText(/^Undone/)).textContent).toMatch(/^Undone .*2026/);
    expect(screen.queryByRole('button', { name: /Undo/ })).toBeNull();
  });

  it('offers no undo to a viewer', async () => {
    const calls = show(record(), VIEWER);
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/me')).toBe(true));
    expect(screen.queryByRole('button', { name: /Undo/ })).toBeNull();
  });
});
