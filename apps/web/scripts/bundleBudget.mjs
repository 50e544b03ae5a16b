/**
 * The initial-JavaScript budget (issue 14): what a first visit downloads before the page can show
 * itself, per route, measured from the build (`npm run build` first; `npm run test:e2e` does).
 *
 * A route's initial JavaScript is the HTML's entry with everything it imports statically (the
 * `modulepreload` links), plus — for a guarded screen — the chunks the router fetches on the way
 * (the layout and the screen's own, see src/app/router.tsx) with their static imports. The chunk
 * graph comes from Vite's manifest (`build.manifest`); sizes are of each file gzipped at level 9 and
 * brotli at 11, as precompress.mjs writes them and the server sends them.
 *
 *   node apps/web/scripts/bundleBudget.mjs [dist folder] [--markdown]
 *
 * Prints a report per route and exits with 1 when a route is over its budget (or the manifest no
 * longer has a module the table below names: the table must follow router.tsx and screens.tsx).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Issue 14's target for the login page and a list page, gzipped; kB as Vite prints them (1,000 bytes). */
export const TARGET_KB = 150;

/** The chunks every list page loads on the way (the layout, the list engine). */
const LIST_PAGE = ['src/app/AppLayout.tsx', 'src/list/ListScreen.tsx'];

/**
 * The routes checked: the login page, and one list page of each feature opened in a fresh tab.
 * `loads`: the modules the router imports dynamically for the route (paths from apps/web).
 * `budgetKb`: the ceiling this check holds, gzipped. The login page and the plain list pages meet the
 * target since React Router gave way to wouter (session 10: the scans list 175.5 → 149.0 kB; React DOM
 * and React are ~67 kB of it, Mantine's core ~44; scripts/bundleBreakdown.mjs says it by library) and
 * hold it. The catalogue, Import History (session 10) and Operators met it later: their menus, dialogs
 * and the parts under a list are fetched on first use (list/onFirstUse.tsx) or as the screen draws, so
 * every route's budget is the target; never raise one without saying why in RESULTS.
 * `noZod`: zod (with the contract's schemas, ~25 kB gzip) must not be in the route's first download;
 * every list names its schemas as dynamic imports, loaded alongside its requests (features/<name>/schemas.ts).
 */
export const ROUTES = [
  { route: '/login', loads: [], budgetKb: 150, noZod: true },
  {
    route: '/ObdScanReport',
    loads: [...LIST_PAGE, 'src/features/operations/declarations.tsx'],
    budgetKb: 150,
    noZod: true,
  },
  {
    route: '/FaultCodeList',
    loads: [...LIST_PAGE, 'src/features/faultCodes/declarations.tsx'],
    budgetKb: 150,
    noZod: true,
  },
  {
    route: '/Api1',
    loads: [...LIST_PAGE, 'src/features/catalogue/coverage.tsx'],
    budgetKb: 150,
    noZod: true,
  },
  {
    route: '/AuditLog',
    loads: [...LIST_PAGE, 'src/features/audit/declarations.tsx'],
    budgetKb: 150,
    noZod: true,
  },
  {
    route: '/ImportHistory',
    loads: [...LIST_PAGE, 'src/features/uploads/importHistory.tsx'],
    budgetKb: 150,
    noZod: true,
  },
  {
    route: '/Operators',
    loads: [...LIST_PAGE, 'src/features/operators/OperatorsScreen.tsx'],
    budgetKb: 150,
    noZod: true,
  },
];

/** zod's own error class is named in its code (`$constructor("ZodError", …)`), minified or not. */
const ZOD_MARK = /["']ZodError["']/;

const kB = (bytes) => (bytes / 1000).toFixed(1);

/** Every chunk file `keys` load, with their static imports, in first-seen order. */
export function staticClosure(manifest, keys) {
  const files = [];
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest has no chunk '${key}'.`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/**
 * The manifest key of the chunk a dynamic `import()` of `module` fetches: the module's own key, or —
 * when the bundler merged the module into a chunk shared with other importers — that chunk's key,
 * found through .vite/modules.json (written by vite.config.ts).
 */
function chunkKeyOf(manifest, modules, module) {
  if (manifest[module]) return module;
  const file = modules[module];
  return Object.keys(manifest).find((key) => manifest[key].file === file);
}

/** The entry chunk's manifest key (index.html). */
function entryKey(manifest) {
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  if (entries.length !== 1) throw new Error(`Expected one entry in the manifest, found ${entries.length}.`);
  return entries[0];
}

/** Sizes of one built file: raw, gzip (level 9) and brotli (11); the precompressed copies when present. */
function sizesOf(dist, file, cache) {
  const known = cache.get(file);
  if (known) return known;
  const full = path.join(dist, file);
  const data = fs.readFileSync(full);
  const gz = fs.existsSync(`${full}.gz`)
    ? fs.statSync(`${full}.gz`).size
    : zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION }).length;
  const br = fs.existsSync(`${full}.br`)
    ? fs.statSync(`${full}.br`).size
    : zlib.brotliCompressSync(data, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
      }).length;
  const sizes = { file, raw: data.length, gz, br, zod: ZOD_MARK.test(data.toString('utf8')) };
  cache.set(file, sizes);
  return sizes;
}

/**
 * The report of every route in `routes`: its chunks with their sizes, the totals, and whether it is
 * within `budgetKb`. Throws with a sentence when the build or the manifest is not what it should be.
 */
export function measure(dist, { routes = ROUTES } = {}) {
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    throw new Error(
      `${manifestFile} is missing: run \`npm run build\` first (vite.config.ts sets build.manifest).`,
    );
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const modulesFile = path.join(dist, '.vite', 'modules.json');
  const modules = fs.existsSync(modulesFile) ? JSON.parse(fs.readFileSync(modulesFile, 'utf8')) : {};
  const entry = entryKey(manifest);
  const cache = new Map();
  const entryFiles = staticClosure(manifest, [entry]);

  // The HTML must ask for exactly what the manifest says the entry needs: otherwise this check
  // would measure something the browser does not download.
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const inHtml = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g),
  ].map((match) => match[1]);
  const missing = entryFiles.filter((file) => !inHtml.includes(file));
  if (missing.length > 0)
    throw new Error(`index.html does not load ${missing.join(', ')} that its entry imports.`);

  return routes.map(({ route, loads, budgetKb, noZod = false }) => {
    const keys = loads.map((module) => {
      const key = chunkKeyOf(manifest, modules, module);
      if (!key) {
        throw new Error(
          `The manifest has no chunk for ${module} (route ${route}): update ROUTES in apps/web/scripts/bundleBudget.mjs to what the router loads.`,
        );
      }
      if (entryFiles.includes(manifest[key].file)) {
        throw new Error(
          `${module} (route ${route}) is not loaded on demand: something imports it statically, so it is in every page's download.`,
        );
      }
      return key;
    });
    const files = [...new Set([...entryFiles, ...staticClosure(manifest, keys)])];
    const chunks = files.map((file) => sizesOf(dist, file, cache)).sort((a, b) => b.gz - a.gz);
    const total = chunks.reduce(
      (sum, chunk) => ({ raw: sum.raw + chunk.raw, gz: sum.gz + chunk.gz, br: sum.br + chunk.br }),
      { raw: 0, gz: 0, br: 0 },
    );
    const zodFiles = noZod ? chunks.filter((chunk) => chunk.zod).map((chunk) => chunk.file) : [];
    return {
      route,
      chunks,
      total,
      budgetKb,
      zodFiles,
      withinBudget: total.gz <= budgetKb * 1000 && zodFiles.length === 0,
    };
  });
}

/** The human-readable report: one block per route, biggest chunks first. */
export function formatReport(reports) {
  const lines = [];
  for (const { route, chunks, total, budgetKb, zodFiles = [], withinBudget } of reports) {
    lines.push(
      `${withinBudget ? 'ok  ' : 'OVER'} ${route}: ${kB(total.gz)} kB gzip (budget ${budgetKb} kB, target ${TARGET_KB} kB), ${kB(total.br)} kB brotli, ${kB(total.raw)} kB raw, ${chunks.length} files`,
    );
    if (zodFiles.length > 0) lines.push(`       zod in the first download: ${zodFiles.join(', ')}`);
    for (const chunk of chunks) {
      lines.push(`       ${kB(chunk.gz).padStart(6)} kB gz ${kB(chunk.br).padStart(6)} kB br  ${chunk.file}`);
    }
  }
  return lines.join('\n');
}

/** The same as a Markdown table, for bench/RESULTS.md. */
export function formatMarkdown(reports) {
  const lines = ['| Route | Initial JS gzip | brotli | raw | files |', '|---|---:|---:|---:|---:|'];
  for (const { route, chunks, total } of reports) {
    lines.push(
      `| \`${route}\` | ${kB(total.gz)} kB | ${kB(total.br)} kB | ${kB(total.raw)} kB | ${chunks.length} |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const dist = path.resolve(
    args.find((arg) => !arg.startsWith('--')) ?? path.join(import.meta.dirname, '..', 'dist'),
  );
  try {
    const reports = measure(dist);
    console.log(`Initial JavaScript per route (${path.relative(process.cwd(), dist) || dist}):`);
    console.log(formatReport(reports));
    if (args.includes('--markdown')) console.log(`\n${formatMarkdown(reports)}`);
    const over = reports.filter((report) => !report.withinBudget);
    if (over.length > 0) {
      console.error(
        `\nInitial JavaScript over its gzip budget, or with zod in it, on ${over.map((report) => `${report.route} (${kB(report.total.gz)} kB, budget ${report.budgetKb} kB${report.zodFiles.length > 0 ? ', zod' : ''})`).join(', ')}: name response schemas as dynamic imports (features/<name>/schemas.ts, loaded with the request), load what only some screens need on demand (screens.tsx: every screen is a dynamic import; keep libraries out of the entry), or raise the budget in apps/web/scripts/bundleBudget.mjs with a reason in bench/RESULTS.md.`,
      );
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
