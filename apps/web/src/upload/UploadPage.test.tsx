import type { ActivationCodesResponse, ImportDetail } from '@obd/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { activationCodesUpload, updateCommandsUpload } from '../features/uploads/declarations.tsx';
import { installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { installFakeXhr } from './testing/fakeXhr.ts';
import { UploadPage } from './UploadPage.tsx';

const EDITOR = { id: 2, email: 'editor@example.com', role: 'editor' as const };

function file(name: string, size = 2048) {
  const f = new File(['code'], name);
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

const choose = (f: File) => fireEvent.change(screen.getByTestId('file-input'), { target: { files: [f] } });
const drop = (f: File) => fireEvent.drop(screen.getByTestId('file-drop'), { dataTransfer: { files: [f] } });
const upload = () => fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

function record(overrides: Partial<ImportDetail> = {}): ImportDetail {
  return {
    id: 7,
    kind: 'activation_codes',
    operator: { id: 1, email: 'admin@example.com' },
    fileName: 'codes.csv',
    fileSize: 2048,
    fileHash: 'abc',
    status: 'running',
    phase: 'reading',
    progress: 20,
    rowsProcessed: 400,
    rowsTotal: null,
    message: null,
    stats: null,
    errorCount: 0,
    duplicateOfImportId: null,
    startedAt: new Date(Date.now() + 1000).toISOString(),
    finishedAt: null,
    errors: [],
    ...overrides,
  };
}

const activationAnswer: ActivationCodesResponse = {
  message: 'Imported 3 activation codes of 6 rows.',
  totalRows: 6,
  importedRows: 3,
  invalidRows: 1,
  duplicates: {
    inFile: 1,
    inDatabase: 1,
    fileDuplicateDetails: [{ code: 'AAA-1', rows: [2, 5] }],
    dbDuplicateCodes: ['OLD-9'],
  },
  importId: 7,
  errors: [
    { sheet: 'codes', row: 5, reason: 'Code AAA-1 repeats row 2 of this file' },
    { sheet: 'codes', row: 7, reason: 'ActivationCode is empty' },
  ],
  duplicateOfImportId: 3,
  warning: 'This file was already imported on 2025-01-01 (import #3).',
};

beforeEach(() => {
  localStorage.setItem('token', 'tok');
});
describe('Activation Codes Uploader', () => {
  const render = () =>
    renderRoutes([{ path: '/up', element: <UploadPage declaration={activationCodesUpload} /> }], '/up', {
      operator: EDITOR,
    });

  it('checks the file before sending: type, size, presence', { timeout: 30_000 }, async () => {
    const requests = installFakeXhr();
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    upload();
    expect(screen.getByRole('alert').textContent).toBe('Please select a file first');
    choose(file('codes.pdf'));
    expect(screen.getByRole('alert').textContent).toBe('Please select a valid file (.xlsx, .xls, or .csv)');
    drop(file('codes.csv', 10 * 1024 * 1024));
    expect(screen.getByRole('alert').textContent).toBe('File size must be less than 10MB');
    expect(screen.queryByTestId('chosen-file')).toBeNull();
    drop(file('codes.csv'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('chosen-file').textContent).toBe('Selected: codes.csv (2.0 KB)');
    expect(requests).toHaveLength(0);
  });

  it('shows the bytes sent, then the rows from the import record, then the statistics', {
    timeout: 30_000,
  }, async () => {
    const requests = installFakeXhr();
    let current = record();
    const calls = installFakeFetch((call) => {
      if (call.url.pathname === '/api/me') return jsonResponse(EDITOR);
      if (call.url.pathname === '/api/imports') return jsonResponse({ data: [current], total: 1 });
      if (call.url.pathname === '/api/imports/7') return jsonResponse(current);
      return jsonResponse({ error: 'unexpected' }, 500);
    });
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    choose(file('codes.csv'));
    upload();

    const xhr = requests[0];
    expect(xhr?.url).toBe('/api/uplodeactivationcode?preview=true');
    xhr?.progress(1024, 2048);
    await screen.findByText('Uploading… 50%');
    expect(screen.getByText('1.0 KB of 2.0 KB sent')).toBeTruthy();

    xhr?.sent();
    await screen.findByText('Reading the file… 20%');
    expect(screen.getByText('400 rows read')).toBeTruthy();
    const search = calls.find((call) => call.url.pathname === '/api/imports');
    expect(search?.params).toMatchObject({ status: 'running', kind: 'activation_codes' });

    current = record({ phase: 'writing', progress: 75, rowsProcessed: 3, rowsTotal: 6 });
    await screen.findByText('Saving rows… 75%', {}, { timeout: 3000 });
    expect(screen.getByText('3 of 6 rows written')).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/api/imports/7')).toBe(true);

    xhr?.respond(200, activationAnswer);
    await screen.findByText('Upload complete');
    expect(screen.getByText(activationAnswer.message)).toBeTruthy();
    expect(screen.getByText(activationAnswer.warning as string)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See import #3' }).getAttribute('href')).toBe(
      '/ImportHistory/details?id=3',
    );
    const tile = (label: string) =>
      document.querySelector(`[data-stat="${label}"]`)?.lastElementChild?.textContent;
    expect(tile('Total rows')).toBe('6');
    expect(tile('Imported')).toBe('3');
    expect(tile('Duplicates in file')).toBe('1');
    expect(tile('Already in database')).toBe('1');
    const inFile = screen.getByRole('table', { name: 'Duplicates in the file' });
    expect(within(inFile).getByText('2, 5')).toBeTruthy();
    expect(screen.getByTestId('db-duplicates').textContent).toBe('OLD-9');
    const problems = within(screen.getByRole('table', { name: 'Row problems' })).getAllByRole('row');
    expect(problems.slice(1).map((row) => row.textContent)).toEqual([
      'codes5Code AAA-1 repeats row 2 of this file',
      'codes7ActivationCode is empty',
    ]);

    // Polling stops with the answer.
    const pollsAtAnswer = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(calls.length).toBe(pollsAtAnswer);

    fireEvent.click(screen.getByRole('button', { name: 'Upload Another File' }));
    expect(screen.getByRole('button', { name: 'Upload' })).toBeTruthy();
    expect(screen.queryByTestId('chosen-file')).toBeNull();
  });

  it('goes on sending when the page is left, and shows where it is on return (issue 15 item 6)', {
    timeout: 30_000,
  }, async () => {
    const requests = installFakeXhr();
    installFakeFetch((call) => {
      if (call.url.pathname === '/api/me') return jsonResponse(EDITOR);
      return jsonResponse({ data: [], total: 0 });
    });
    const first = render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    choose(file('codes.csv'));
    upload();
    const xhr = requests[0];
    xhr?.progress(512, 2048);
    await screen.findByText('Uploading… 25%');
    first.unmount();

    // Away from the page: the file is still being sent, then answered.
    expect(xhr?.aborted).toBe(false);
    xhr?.progress(1536, 2048);
    const second = render();
    await screen.findByText('Uploading… 75%');
    xhr?.respond(200, activationAnswer);
    await screen.findByText('Upload complete');
    second.unmount();

    // An answer seen is let go with the page, as before: the next visit starts afresh.
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    expect(screen.getByRole('button', { name: 'Upload' })).toBeTruthy();
    expect(screen.queryByText('Upload complete')).toBeNull();
  });

  it("shows the server's sentence and row problems of a refused file; 'Try Again' keeps the file", {
    timeout: 30_000,
  }, async () => {
    const requests = installFakeXhr();
    installFakeFetch(() => jsonResponse({ data: [], total: 0 }));
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    choose(file('codes.csv'));
    upload();
    requests[0]?.respond(400, {
      error: 'The file has no valid rows.',
      message: 'The file has no valid rows.',
      code: 'BAD_REQUEST',
      errors: [{ sheet: 'codes', row: 2, reason: 'ActivationCode is empty' }],
    });
    await screen.findByText('Upload failed');
    expect(screen.getByText('The file has no valid rows.')).toBeTruthy();
    expect(screen.getByText('ActivationCode is empty')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByTestId('chosen-file').textContent).toContain('codes.csv');
  });

  it.each([
    [
      'an answer of the wrong shape',
      (x: NonNullable<ReturnType<typeof installFakeXhr>[number]>) => x.respond(200, { ok: 1 }),
      'Server returned an invalid response. Please check server logs.',
    ],
    [
      'no server',
      (x: NonNullable<ReturnType<typeof installFakeXhr>[number]>) => x.fail(),
      'Cannot connect to server. Please check if the server is running and the URL is correct.',
    ],
    [
      'a timeout',
      (x: NonNullable<ReturnType<typeof installFakeXhr>[number]>) => x.timeOut(),
      'Upload timeout. The file may be too large or the server is busy.',
    ],
  ])('%s → its sentence', async (_name, finish, message) => {
    const requests = installFakeXhr();
    installFakeFetch(() => jsonResponse({ data: [], total: 0 }));
    render();
    await screen.findByRole('heading', { name: 'Activation Codes Uploader' });
    choose(file('codes.csv'));
    upload();
    const xhr = requests[0];
    if (xhr) finish(xhr);
    await screen.findByText(message);
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });
});

describe('Update commands', () => {
  it('needs a file and a make, and sends the make as sheetName', { timeout: 30_000 }, async () => {
    const requests = installFakeXhr();
    installFakeFetch(() => jsonResponse({ data: [], total: 0 }));
    renderRoutes([{ path: '/u', element: <UploadPage declaration={updateCommandsUpload} /> }], '/u', {
      operator: EDITOR,
    });
    expect(await screen.findByText(/10MB/)).toBeTruthy();
    const select = screen.getByLabelText('Sheet Name (Make) *') as HTMLSelectElement;
    expect(select.options[0]?.textContent).toBe('Select a make/sheet name');
    expect(select.options).toHaveLength(64);
    upload();
    expect(screen.getByRole('alert').textContent).toBe('Please select a file first');
    choose(file('cmds.txt'));
    expect(screen.getByRole('alert').textContent).toBe(
      'Please select a valid Excel (.xlsx, .xls) or CSV file',
    );
    choose(file('cmds.csv'));
    upload();
    expect(screen.getByRole('alert').textContent).toBe('Sheet name is required');
    expect(requests).toHaveLength(0);
    fireEvent.change(select, { target: { value: 'Honda Bikes' } });
    upload();
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.body?.get('sheetName')).toBe('Honda Bikes');
    expect(requests[0]?.url).toBe('/api/UpdatesCommands?preview=true');
  });
});

describe('a viewer', () => {
  it('sees why they cannot upload instead of the form, once the server says their role', {
    timeout: 30_000,
  }, async () => {
    const requests = installFakeXhr();
    const calls = installFakeFetch((call) =>
      call.url.pathname === '/api/me'
        ? jsonResponse({ id: 3, email: 'viewer@example.com', role: 'viewer' })
        : jsonResponse({ error: 'unexpected' }, 500),
    );
    renderRoutes([{ path: '/u', element: <UploadPage declaration={updateCommandsUpload} /> }], '/u');
    expect(await screen.findByText('Uploading needs the editor role')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Update commands', level: 2 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(screen.queryByTestId('file-drop')).toBeNull();
    expect(calls.map((call) => call.url.pathname)).toEqual(['/api/me']);
    expect(requests).toHaveLength(0);
  });
});
