import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/*
 * `npm start` runs the bundle build.mjs makes, while the tests and the journeys run the sources
 * through tsx: without this check a module the bundler resolves differently (the XLSX worker's
 * contract is its zod-free error table alone) could break `npm start` with every test green.
 */
const serverRoot = path.join(import.meta.dirname, '..');

describe('the server bundle', () => {
  it('builds, and the XLSX worker carries no zod', async () => {
    await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: serverRoot });
    const worker = fs.readFileSync(path.join(serverRoot, 'dist', 'xlsxWorker.js'), 'utf8');
    expect(worker).toContain('PAYLOAD_TOO_LARGE');
    expect(worker).not.toMatch(/from ["']zod["']/);
    expect(fs.statSync(path.join(serverRoot, 'dist', 'main.js')).size).toBeGreaterThan(100_000);
  }, 60_000);
});
