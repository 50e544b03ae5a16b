import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// In production the API server serves dist/ on the same origin; in `vite dev` the API runs
// separately on port 3000, so /api is proxied to keep the app's calls same-origin in both.
export default defineConfig({
  plugins: [react(), moduleChunks(), scrollAreaWithoutFloatingUi()],
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph scripts/bundleBudget.mjs walks per route.
    manifest: true,
    rolldownOptions: {
      // The contract's modules only declare schemas: a page keeps the ones it uses, not all of them
      // (its package.json is shared with the server, so this is said here rather than as sideEffects).
      treeshake: {
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]contract[\\/]/.test(id),
      },
      output: {
        // React and the router change less often than the app and every page needs all of them: one
        // chunk of their own stays cached across deploys. No such group for Mantine or the other
        // libraries: a group takes every module it matches, used by any screen, so it would put the
        // whole of Mantine (and a chart library) in the login page's download. Left to the
        // bundler, each part of a library goes with the chunks that use it.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            // Floating-ui positions Mantine's popovers, menus and comboboxes, which a list fetches on
            // first use (list/onFirstUse.tsx): in a chunk of its own, it is not merged into a chunk
            // the list's first download needs (the table's, the layout's) and fetched with it.
            { name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/ },
          ],
        },
      },
    },
  },
});

/**
 * dist/.vite/modules.json: which chunk each source module of the app went to (`src/…` → file). The
 * manifest names a module's chunk only when the module is a chunk's own entry; merged into a shared
 * chunk it is not named, and scripts/bundleBudget.mjs needs to find the chunks a route imports.
 */
function moduleChunks(): Plugin {
  return {
    name: 'obd-module-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        for (const id of output.moduleIds) {
          if (id.startsWith(`${import.meta.dirname}${path.sep}src`)) {
            chunks[
              path
                .relative(import.meta.dirname, id)
                .split(path.sep)
                .join('/')
            ] = output.fileName;
          }
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/modules.json',
        source: `${JSON.stringify(chunks, null, 1)}\n`,
      });
    },
  };
}

/**
 * Mantine's ScrollArea (in every table, through Table.ScrollContainer, and in the layout) takes one
 * small hook from @floating-ui/react, `useMergeRefs`; the bundler then puts that module — the
 * positioning code of popovers and menus, 15 kB gzipped — in the first download of every list page.
 * Here it gets the same hook from @mantine/hooks instead, so floating-ui comes only with the menus
 * that use it (fetched on first use, list/onFirstUse.tsx).
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const id = '\0merge-refs';
  return {
    name: 'obd-scroll-area-merge-refs',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        source === '@floating-ui/react' &&
        importer &&
        /[\\/]components[\\/]ScrollArea[\\/]/.test(importer)
      ) {
        return id;
      }
      return null;
    },
    load(loaded) {
      if (loaded !== id) return null;
      // floating-ui's hook takes the refs as one array, Mantine's as arguments.
      return `import { useMergedRef } from '@mantine/hooks';
export function useMergeRefs(refs) { return useMergedRef(...refs); }
`;
    },
  };
}
