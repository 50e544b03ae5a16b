import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * The repository's Biome rules (biome.json) bite: run on a scratch tree laid out like this one,
 * they refuse a runtime import of a migration and a file name that is not camelCase or PascalCase,
 * and let the migrator and the migrations import each other.
 */
describe('lint rules', () => {
  it('forbid importing db/migrations outside the migrator, and enforce file naming', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-lint-'));
    try {
      fs.copyFileSync(path.join(repoRoot, 'biome.json'), path.join(dir, 'biome.json'));
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      };
      write('apps/server/src/db/migrations/004_list_counts.ts', 'export const m = 1;\n');
      write(
        'apps/server/src/db/database.ts',
        "import { m } from './migrations/004_list_counts.ts';\n\nexport const z = m;\n",
      );
      write(
        'apps/server/src/lib/usesMigration.ts',
        "import { m } from '../db/migrations/004_list_counts.ts';\n\nexport const x = m;\n",
      );
      write('apps/server/src/lib/snake_case.ts', 'export const y = 1;\n');
      let output = '';
      try {
        execFileSync(
          path.join(repoRoot, 'node_modules/.bin/biome'),
          ['lint', '--vcs-enabled=false', '--colors=off', '--max-diagnostics=50', '.'],
          {
            cwd: dir,
            encoding: 'utf8',
            stdio: 'pipe',
          },
        );
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string };
        output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
      }
      const flagged = (rule: string) =>
        [...output.matchAll(new RegExp(`^(\\S+?)(?::\\d+:\\d+)? lint/style/${rule}`, 'gm'))].map((m) => m[1]);
      expect(flagged('noRestrictedImports')).toEqual(['apps/server/src/lib/usesMigration.ts']);
      expect(flagged('useFilenamingConvention')).toEqual(['apps/server/src/lib/snake_case.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
