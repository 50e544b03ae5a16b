/**
 * Builds the server into one JavaScript file, dist/main.js, which `npm start` runs.
 *
 * Why: run through `node --import tsx`, the server carries the TypeScript loader (a loader
 * thread with its own V8 heap, plus the compiled sources): ≈ 75 MB of resident memory, over a
 * third of the 200 MB a 1,000,000-row export may peak at (issue 3). The CLIs (`seed`,
 * `operator`) and the tests keep running the sources through tsx.
 *
 * What: our own sources and @obd/contract are bundled; npm packages stay `import`s resolved from
 * node_modules at run time (native addons, pdfkit's font files and yazl's internals must stay
 * where they are). Files that find things relative to themselves (`import.meta.url`,
 * `import.meta.dirname`: worker scripts, the seed's data, the repository root) keep pointing at
 * the source tree, so plain-JavaScript workers and data files need no copying and behave as in
 * development. The XLSX reading worker, written in TypeScript, is built beside the bundle
 * (dist/xlsxWorker.js, below).
 *
 * Takes well under a second; `npm start` runs it every time, so the build is never stale.
 *
 * `npm start` then runs `node --max-old-space-size=256 --heap-growing-percent=50 dist/main.js`.
 * The first flag is the heap ceiling (README, "Memory"): the server's live heap is ≈ 25 MB and its
 * largest jobs (a 1,000,000-row export, a re-upload of 1,000,000 fault codes) stay under 300 MB of
 * resident memory all told, workers included (bench/RESULTS.md), so 256 MB of old generation is room to spare, while a leak or an
 * unforeseen load ends in an out-of-memory exit (and a restart by the supervisor) instead of a
 * machine that swaps. By default V8 lets the old generation grow to up to 4× what survived the last full collection before collecting again;
 * the server's live heap is ≈ 25 MB, and a million-row export promotes ≈ 40 MB of short-lived
 * rows and buffers, so peak memory went to ≈ 230 MB. Collecting at 1.5× keeps the export at
 * ≈ 160–175 MB for a few extra full collections (each a few tens of ms on so small a heap).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
// esbuild comes with tsx (a dependency of the server, which runs the CLIs and tests): taking it
// from there keeps one esbuild in the tree and needs no install of its own.
const esbuild = createRequire(require.resolve('tsx/package.json'))('esbuild');

const root = import.meta.dirname;
const sources = path.join(root, 'src');
/** Our own code: the server's sources and the demo seed (which reads its data files beside it). */
const ownCode = [sources, path.join(root, 'seed')];
const outfile = path.join(root, 'dist', 'main.js');

/** `@obd/…` workspace packages are TypeScript: bundle them. Every other bare import stays one. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@obd/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Rewrites `import.meta.url`/`dirname`/`filename` of each source file to that file's own location. */
const sourceLocations = {
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      if (!ownCode.some((dir) => args.path.startsWith(dir + path.sep))) return undefined;
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      // Relative to the bundle, so the build keeps working if the checkout moves.
      const fromBundle = (target) =>
        JSON.stringify(path.relative(path.dirname(outfile), target).split(path.sep).join('/'));
      const url = `new URL(${fromBundle(args.path)}, import.meta.url)`;
      const expressions = {
        url: `${url}.href`,
        filename: `decodeURIComponent(${url}.pathname)`,
        dirname: `decodeURIComponent(new URL(${fromBundle(path.dirname(args.path))} + '/', import.meta.url).pathname).slice(0, -1)`,
      };
      const contents = text.replace(
        /\bimport\.meta\.(url|dirname|filename)\b/g,
        (_, key) => expressions[key],
      );
      return {
        contents,
        loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/**
 * The XLSX reading worker (src/import/formats/xlsx/worker.ts) as a file of its own beside the
 * bundle, which the server starts as a plain-JavaScript worker thread. workers.ts learns where it
 * is from `XLSX_WORKER_BUILT`: a path from workers.ts, whose `import.meta.url` points at the
 * sources (above). The worker needs the contract's error table only (its errors cross back to the
 * main thread as a code and a sentence), so the contract resolves to that zod-free module alone
 * (errors.constants.ts), which keeps zod and the schemas out of every worker (~60 ms and ~11 MB
 * to start).
 */
const workerSource = path.join(sources, 'import', 'formats', 'xlsx');
const workerFile = path.join(path.dirname(outfile), 'xlsxWorker.js');
const contractErrors = path.join(
  root,
  '..',
  '..',
  'packages',
  'contract',
  'src',
  'common',
  'errors.constants.ts',
);
const contractErrorsOnly = {
  name: 'contract-errors-only',
  setup(build) {
    build.onResolve({ filter: /^@obd\/contract$/ }, () => ({ path: contractErrors }));
  },
};

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Readable output with the original names: stack traces in the logs stay meaningful.
  keepNames: true,
  logLevel: 'warning',
  write: false,
  define: {
    XLSX_WORKER_BUILT: JSON.stringify(path.relative(workerSource, workerFile).split(path.sep).join('/')),
  },
};

const started = performance.now();
const results = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: [path.join(sources, 'main.ts')],
    outfile,
    plugins: [externalPackages, sourceLocations],
  }),
  esbuild.build({
    ...common,
    entryPoints: [path.join(workerSource, 'worker.ts')],
    outfile: workerFile,
    plugins: [contractErrorsOnly, externalPackages, sourceLocations],
  }),
]);
// Written aside and renamed into place: a server starting while another build runs (parallel
// benchmarks, a second `npm start`) never reads a half-written file.
fs.mkdirSync(path.dirname(outfile), { recursive: true });
for (const file of results.flatMap((result) => result.outputFiles)) {
  const partial = `${file.path}.${process.pid}.tmp`;
  fs.writeFileSync(partial, file.contents);
  fs.renameSync(partial, file.path);
}
console.log(
  `Built the server (${path.relative(process.cwd(), outfile)}) in ${Math.round(performance.now() - started)} ms.`,
);
