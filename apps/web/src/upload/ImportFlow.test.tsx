import type { ActivationCodesResponse } from '@obd/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { activationCodesUpload } from '../features/uploads/declarations.tsx';
import { installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { installFakeXhr } from './testing/fakeXhr.ts';
import { UploadPage } from './UploadPage.tsx';

const EDITOR = { id: 2, email: 'editor@example.com', role: 'editor' as const };

const choose = (f: File) => fireEvent.change(screen.getByTestId('file-input'), { target: { files: [f] } });
const upload = () => fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

const answer: ActivationCodesResponse = {
  message: 'Imported 2 activation codes of 4 rows.',
  totalRows: 4,
  importedRows: 2,
  invalidRows: 1,
  duplicates: {
    inFile: 1,
    inDatabase: 0,
    fileDuplicateDetails: [{ code: 'A-1', rows: [2, 4] }],
    dbDuplicateCodes: [],
  },
  importId: 7,
  errors: [
    { sheet: 'codes', row: 3, reason: 'Plan is empty' },
    { sheet: 'codes', row: 4, reason: 'Code A-1 repeats row 2 of this file' },
  ],
  duplicateOfImportId: null,
};
const preview = {
  ...answer,
  message: 'Nothing was written yet: importing this file would add 2 of its 4 rows. Import it or cancel.',
  preview: {
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    sheets: [
      {
        sheet: 'codes',
        totalRows: 4,
        newRows: 2,
        inFileDuplicates: 1,
        databaseDuplicates: 0,
        invalidRows: 1,
      },
    ],
  },
};

beforeEach(() => {
  localStorage.setItem('token', 'tok');
});

describe('the preview step and the column mapping (issue 15)', () => {
  const render = () =>
    renderRoutes([{ path: '/up', element: <UploadPage declaration={activationCodesUpload} /> }], '/up', {
      operator: EDITOR,
    });

  it('previews, offers the problems file, and imports the stored file on "Import"', {
    timeout: 30_000,
  }, async () => {
    const requests = installFakeXhr();
    const calls = installFakeFetch((call) => {
      const method = call.init?.method ?? 'GET';
      if (call.url.pathname === '/api/me') return jsonResponse(EDITOR);
      if (method === 'POST' && call.url.pathname === '/api/imports/7/commit') return jsonResponse(answer);
      if (method === 'POST' && call.url.pathname === '/api/imports/7/problems')
        return jsonResponse(
          { url: '/api/imports/7/problems?ticket=t', expiresAt: '2030-01-01T00:00:00Z' },
          201,
        );
      return jsonResponse({ data: [], total: 0 });
    });
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    choose(new File(['x'], 'codes.csv'));
    upload();
    expect(requests[0]?.url).toBe('/api/uplodeactivationcode?preview=true');
    requests[0]?.respond(200, preview);

    await screen.findByText('Preview: nothing imported yet');
    expect(screen.getByText(preview.message)).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Preview per sheet' });
    expect(within(table).getAllByRole('row')[1]?.textContent).toBe('codes42101');
    expect(screen.getByText('Plan is empty')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Download problems' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((c) => c.url.pathname === '/api/imports/7/problems' && c.init?.method === 'POST')).toBe(
      true,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Upload complete');
    expect(screen.getByText(answer.message)).toBeTruthy();
    // No second upload: the commit is one JSON call.
    expect(requests).toHaveLength(1);
    expect(calls.some((c) => c.url.pathname === '/api/imports/7/commit' && c.init?.method === 'POST')).toBe(
      true,
    );
  });

  it('"Cancel" ends the preview on the server and goes back to the form', { timeout: 30_000 }, async () => {
    const requests = installFakeXhr();
    const calls = installFakeFetch((call) => {
      if (call.url.pathname === '/api/me') return jsonResponse(EDITOR);
      if (call.init?.method === 'DELETE') return jsonResponse({ id: 7, message: 'Preview cancelled.' });
      return jsonResponse({ data: [], total: 0 });
    });
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    choose(new File(['x'], 'codes.csv'));
    upload();
    requests[0]?.respond(200, preview);
    await screen.findByText('Preview: nothing imported yet');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('button', { name: 'Upload' });
    expect(calls.some((c) => c.url.pathname === '/api/imports/7' && c.init?.method === 'DELETE')).toBe(true);
  });

  it('a missing column shows a select per field, preselects the remembered one and retries with the mapping', {
    timeout: 30_000,
  }, async () => {
    const requests = installFakeXhr();
    installFakeFetch((call) =>
      call.url.pathname === '/api/me' ? jsonResponse(EDITOR) : jsonResponse({ data: [], total: 0 }),
    );
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    choose(new File(['x'], 'codes.csv'));
    upload();
    requests[0]?.respond(400, {
      error: "The sheet 'codes' has no 'ActivationCode' column.",
      message: "The sheet 'codes' has no 'ActivationCode' column.",
      code: 'BAD_REQUEST',
      importId: 8,
      errors: [],
      mapping: {
        sheet: 'codes',
        headers: ['Kode', 'Plan', 'Duration', 'Vehicle'],
        missing: [{ key: 'code', label: 'ActivationCode', required: true }],
        fields: [{ key: 'code', label: 'ActivationCode', required: true }],
        remembered: { code: 'Kode' },
      },
    });
    const select = (await screen.findByLabelText('ActivationCode')) as HTMLSelectElement;
    expect(select.value).toBe('Kode');
    expect(screen.getByTestId('remembered-mapping')).toBeTruthy();
    expect([...select.options].map((o) => o.value)).toEqual(['', 'Kode', 'Plan', 'Duration', 'Vehicle']);
    fireEvent.change(select, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload with these columns' }));
    expect(screen.getByText('Choose a column for ActivationCode.')).toBeTruthy();
    fireEvent.change(select, { target: { value: 'Kode' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload with these columns' }));
    expect(requests).toHaveLength(2);
    expect(requests[1]?.url).toBe('/api/uplodeactivationcode?preview=true');
    expect(requests[1]?.body?.get('mapping')).toBe('{"code":"Kode"}');
    requests[1]?.respond(200, preview);
    await screen.findByText('Preview: nothing imported yet');
  });
});
