import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

interface Report {
  route: string;
  chunks: { file: string; gz: number }[];
  total: { gz: number; br: number; raw: number };
  zodFiles: string[];
  withinBudget: boolean;
}
interface BudgetModule {
  measure(
    dist: string,
    options: { routes: { route: string; loads: string[]; budgetKb: number }[] },
  ): Report[];
  formatReport(reports: Report[]): string;
}

// The script is plain Node (run by npm test after the build); imported by path so that the web
// project's types do not have to cover apps/web/scripts.
const scriptPath = path.resolve(import.meta.dirname, '../../scripts/bundleBudget.mjs');
const budget = (await import(/* @vite-ignore */ scriptPath)) as BudgetModule;

/** A built dist: an entry with two static imports, a layout chunk, a screen merged into a shared chunk. */
function fakeDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-budget-'));
  fs.mkdirSync(path.join(dist, '.vite'));
  fs.mkdirSync(path.join(dist, 'assets'));
  const write = (file: string, bytes: number) =>
    fs.writeFileSync(path.join(dist, file), `// ${file}\n${'x'.repeat(bytes)}`);
  write('assets/index.js', 1000);
  write('assets/react.js', 5000);
  write('assets/shared.js', 300);
  write('assets/Layout.js', 2000);
  write('assets/List.js', 3000);
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<script type="module" src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/react.js"><link rel="modulepreload" crossorigin href="/assets/shared.js">',
  );
  const manifest = {
    'index.html': {
      file: 'assets/index.js',
      isEntry: true,
      imports: ['_react.js', '_shared.js'],
      dynamicImports: ['src/Layout.tsx', '_List.js'],
    },
    '_react.js': { file: 'assets/react.js' },
    '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
    'src/Layout.tsx': { file: 'assets/Layout.js', isDynamicEntry: true, imports: ['_shared.js'] },
    '_List.js': { file: 'assets/List.js', name: 'List', imports: ['_react.js'] },
  };
  fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(
    path.join(dist, '.vite', 'modules.json'),
    JSON.stringify({ 'src/List.tsx': 'assets/List.js', 'src/main.tsx': 'assets/index.js' }),
  );
  return dist;
}

describe('the initial-JS budget (scripts/bundleBudget.mjs)', () => {
  it("counts the HTML's entry with its static imports, plus the chunks a route loads (merged ones too)", () => {
    const dist = fakeDist();
    const [login, list] = budget.measure(dist, {
      routes: [
        { route: '/login', loads: [], budgetKb: 100 },
        { route: '/List', loads: ['src/Layout.tsx', 'src/List.tsx'], budgetKb: 100 },
      ],
    });
    expect(login?.chunks.map((chunk) => chunk.file).sort()).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/shared.js',
    ]);
    expect(list?.chunks.map((chunk) => chunk.file).sort()).toEqual([
      'assets/Layout.js',
      'assets/List.js',
      'assets/index.js',
      'assets/react.js',
      'assets/shared.js',
    ]);
    expect(list?.total.gz).toBeGreaterThan(login?.total.gz ?? 0);
    expect(list?.total.raw).toBeGreaterThan(11_300);
    expect(login?.withinBudget).toBe(true);
  });

  it('says a route is over its budget, readably', () => {
    const [report] = budget.measure(fakeDist(), { routes: [{ route: '/login', loads: [], budgetKb: 0.01 }] });
    expect(report?.withinBudget).toBe(false);
    const text = budget.formatReport(report ? [report] : []);
    expect(text).toMatch(/^OVER \/login: [\d.]+ kB gzip \(budget 0.01 kB, target 150 kB\)/);
    expect(text).toContain('assets/react.js');
  });

  it('says a route whose first download has zod in it, when the route must not', () => {
    const dist = fakeDist();
    fs.appendFileSync(path.join(dist, 'assets/List.js'), '\nvar e=$constructor("ZodError",init);');
    const routes = (noZod: boolean) => [
      { route: '/login', loads: [], budgetKb: 100, noZod },
      { route: '/List', loads: ['src/Layout.tsx', 'src/List.tsx'], budgetKb: 100, noZod },
    ];
    const [login, list] = budget.measure(dist, { routes: routes(true) });
    expect(login?.zodFiles).toEqual([]);
    expect(login?.withinBudget).toBe(true);
    expect(list?.zodFiles).toEqual(['assets/List.js']);
    expect(list?.withinBudget).toBe(false);
    expect(budget.formatReport(list ? [list] : [])).toContain('zod in the first download: assets/List.js');
    expect(budget.measure(dist, { routes: routes(false) })[1]?.withinBudget).toBe(true);
  });

  it('fails with a sentence when a route names a module the build does not load on demand', () => {
    const dist = fakeDist();
    expect(() =>
      budget.measure(dist, { routes: [{ route: '/x', loads: ['src/Gone.tsx'], budgetKb: 100 }] }),
    ).toThrow(/no chunk for src\/Gone.tsx \(route \/x\): update ROUTES/);
    expect(() =>
      budget.measure(dist, { routes: [{ route: '/x', loads: ['src/main.tsx'], budgetKb: 100 }] }),
    ).toThrow(/src\/main.tsx \(route \/x\) is not loaded on demand/);
  });

  it('fails when the HTML does not load what its entry imports', () => {
    const dist = fakeDist();
    fs.writeFileSync(path.join(dist, 'index.html'), '<script type="module" src="/assets/index.js"></script>');
    expect(() => budget.measure(dist, { routes: [{ route: '/login', loads: [], budgetKb: 100 }] })).toThrow(
      /index.html does not load assets\/react.js, assets\/shared.js/,
    );
  });
});
