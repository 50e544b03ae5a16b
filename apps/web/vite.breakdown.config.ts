/**
 * What each library weighs in a list page's first download (issue 14: "≤ 150 kB for a list page",
 * bench/RESULTS.md). The app's own build, except that every module the scans list's first download
 * holds (the entry, the layout, the list engine, the operations declarations, with what they import
 * statically) goes to one chunk per library — react-dom, react, wouter, Mantine, TanStack
 * Query, the app's own code, the contract's constants… — so each is minified and gzipped alone:
 *
 *   npx vite build -c vite.breakdown.config.ts --outDir /tmp/obd-breakdown && \
 *     node scripts/bundleBreakdown.mjs /tmp/obd-breakdown
 *
 * A chunk gzipped alone is a little larger than the same code inside a bigger file (the dictionary
 * starts empty): the parts add up to slightly more than the page's total.
 */
import path from 'node:path';
import { mergeConfig } from 'vite';
import base, { type ModuleGraph, staticClosure } from './vite.config.ts';

const src = (file: string) => path.join(import.meta.dirname, 'src', ...file.split('/'));
const firstDownload = [
  'main.tsx',
  'app/AppLayout.tsx',
  'list/ListScreen.tsx',
  'list/listQuery.ts',
  'features/operations/declarations.tsx',
].map(src);

/** The part of the download a module counts in: its npm package, or the app's / the contract's own code. */
function partOf(id: string): string {
  const inPackage = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id);
  if (inPackage) return `lib-${(inPackage[1] ?? '').replace(/[\\/@]/g, '_')}`;
  if (/[\\/]packages[\\/]contract[\\/]/.test(id)) return 'contract';
  if (id.startsWith(src(''))) return `app-${path.relative(src(''), id).split(path.sep)[0]}`;
  return 'other';
}

let modules: Set<string> | undefined;

export default mergeConfig(base, {
  build: {
    rolldownOptions: {
      // What rolldown asks for when a group does not take its modules' imports along.
      preserveEntrySignatures: false,
      output: {
        strictExecutionOrder: true,
        codeSplitting: {
          groups: [
            {
              debugName: 'breakdown',
              name: (id: string, graph: ModuleGraph) => {
                modules ??= staticClosure(graph, firstDownload);
                return modules.has(id) && id !== src('main.tsx') ? partOf(id) : null;
              },
              priority: 10,
              // Each part alone: not with the modules it imports (the default), which are other parts.
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
