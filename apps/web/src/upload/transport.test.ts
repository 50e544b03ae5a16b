import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_MESSAGES } from './messages.ts';
import { installFakeXhr } from './testing/fakeXhr.ts';
import { readAnswer, sendUpload, UploadError } from './transport.ts';
import { fileProblem, submitProblem } from './validation.ts';

const file = (name: string, size = 10) => {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('file checks (spec §5)', () => {
  const excel = { extensions: ['.xlsx', '.xls'], typeMessage: 'Please select an Excel file (.xlsx or .xls)' };
  const sized = { ...excel, maxBytes: 100, sizeMessage: 'File size must be less than 100MB' };

  it('accepts the listed extensions in any case, refuses others', () => {
    expect(fileProblem(file('book.XLSX'), excel)).toBeUndefined();
    expect(fileProblem(file('old.xls'), excel)).toBeUndefined();
    expect(fileProblem(file('codes.csv'), excel)).toBe('Please select an Excel file (.xlsx or .xls)');
    expect(fileProblem(file('xlsx'), excel)).toBe('Please select an Excel file (.xlsx or .xls)');
  });

  it('refuses a file not under the limit, only where a limit is set', () => {
    expect(fileProblem(file('a.xlsx', 99), sized)).toBeUndefined();
    expect(fileProblem(file('a.xlsx', 100), sized)).toBe('File size must be less than 100MB');
    expect(fileProblem(file('a.xlsx', 10 ** 9), excel)).toBeUndefined();
  });

  it('asks for a file first, then for the required choice', () => {
    const choice = { value: ' ', requiredMessage: 'Sheet name is required' };
    expect(submitProblem(null, choice)).toBe('Please select a file first');
    expect(submitProblem(file('a.csv'), choice)).toBe('Sheet name is required');
    expect(submitProblem(file('a.csv'), { ...choice, value: 'Honda' })).toBeUndefined();
  });
});

describe('readAnswer: the error texts of spec §8', () => {
  it('passes a JSON success through', () => {
    expect(readAnswer(200, 'application/json', '{"message":"ok"}')).toEqual({ body: { message: 'ok' } });
  });

  it.each([
    [200, 'application/json', 'not json', UPLOAD_MESSAGES.invalidResponse],
    [200, 'text/html', '<html></html>', UPLOAD_MESSAGES.invalidResponse],
    [200, 'application/json', '{"success":false}', UPLOAD_MESSAGES.failed],
    [404, 'application/json', '{"error":"Route not found"}', UPLOAD_MESSAGES.configuration],
    [405, null, '', UPLOAD_MESSAGES.configuration],
    [502, 'text/html', '<h1>Bad gateway</h1>', UPLOAD_MESSAGES.configuration],
    [
      400,
      'application/json',
      '{"error":"e","message":"The sheet has no DTC column."}',
      'The sheet has no DTC column.',
    ],
    [413, 'application/json', '{"error":"The file is larger than 10 MB."}', 'The file is larger than 10 MB.'],
    [500, null, '', 'Upload failed (HTTP 500)'],
  ])('%i %s %s → %s', (status, type, text, message) => {
    const outcome = readAnswer(status, type, text);
    expect(outcome).toBeInstanceOf(UploadError);
    expect((outcome as UploadError).message).toBe(message);
  });

  it('keeps the row problems and import id of a refused file', () => {
    const body = {
      error: 'No valid rows.',
      errors: [{ sheet: 'Codes', row: 2, reason: 'DTC is empty' }],
      importId: 9,
    };
    const outcome = readAnswer(400, 'application/json', JSON.stringify(body)) as UploadError;
    expect(outcome.problems).toEqual(body.errors);
    expect(outcome.importId).toBe(9);
  });
});

describe('sendUpload', () => {
  beforeEach(() => localStorage.setItem('token', 'tok'));
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('sends a multipart POST with the token and the fields, reporting bytes then the end of sending', async () => {
    const requests = installFakeXhr();
    const progress: number[] = [];
    const onSent = vi.fn();
    const answer = sendUpload({
      path: '/api/UpdatesCommands',
      file: file('honda.csv'),
      fields: { sheetName: 'Honda' },
      onProgress: (sent) => progress.push(sent),
      onSent,
    });
    const xhr = requests[0];
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/api/UpdatesCommands');
    expect(xhr?.requestHeaders.Authorization).toBe('Bearer tok');
    expect(xhr?.body?.get('sheetName')).toBe('Honda');
    expect((xhr?.body?.get('file') as File | undefined)?.name).toBe('honda.csv');
    xhr?.progress(4, 10);
    xhr?.progress(10, 10);
    xhr?.sent();
    expect(progress).toEqual([4, 10]);
    expect(onSent).toHaveBeenCalledOnce();
    xhr?.respond(200, { message: 'done' });
    await expect(answer).resolves.toEqual({ message: 'done' });
  });

  it('no answer before any byte left: cannot connect; after some: network error; timeout', async () => {
    const requests = installFakeXhr();
    const unreachable = sendUpload({ path: '/api/x', file: file('a.csv') });
    requests[0]?.fail();
    await expect(unreachable).rejects.toThrow(UPLOAD_MESSAGES.unreachable);

    const broken = sendUpload({ path: '/api/x', file: file('a.csv') });
    requests[1]?.progress(3, 10);
    requests[1]?.fail();
    await expect(broken).rejects.toThrow(UPLOAD_MESSAGES.network);

    const slow = sendUpload({ path: '/api/x', file: file('a.csv') });
    requests[2]?.timeOut();
    await expect(slow).rejects.toThrow(UPLOAD_MESSAGES.timeout);
  });

  it('a cancelled upload rejects with an AbortError, not a message', async () => {
    installFakeXhr();
    const controller = new AbortController();
    const upload = sendUpload({ path: '/api/x', file: file('a.csv'), signal: controller.signal });
    controller.abort();
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
  });
});
