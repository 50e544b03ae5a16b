import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { bootScript } from './vite.boot.ts';

// In production the API server serves dist/ on the same origin; in `vite dev` the API runs
// separately on port 3000, so /api is proxied to keep the app's calls same-origin in both.
export default defineConfig({
  plugins: [react(), moduleChunks(), lighterMantineImports(), bootScript()],
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
        // React and the router (wouter, with what it uses) change less often than the app and every
        // page needs all of them: one chunk of their own stays cached across deploys. No such group for Mantine or the other
        // libraries: a group takes every module it matches, used by any screen, so it would put the
        // whole of Mantine (and a chart library) in the login page's download. Left to the
        // bundler, each part of a library goes with the chunks that use it.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|wouter|regexparam|use-sync-external-store)[\\/]/,
              priority: 3,
            },
            // Floating-ui positions Mantine's popovers, menus and comboboxes, which a list fetches on
            // first use (list/onFirstUse.tsx): in a chunk of its own, it is not merged into a chunk
            // the list's first download needs (the table's, the layout's) and fetched with it.
            { name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/, priority: 3 },
            ...routeGroups(),
          ],
        },
      },
    },
  },
});

/**
 * Fewer, larger chunks for the first download (issue 14 item 6). Left to the bundler, every part of
 * Mantine and every small module two screens share is a file of its own: a list page opened in a
 * fresh tab asked for 48 files, and over HTTP/1.1's six connections they came in 4–6 waves. Three
 * groups, each a set of modules every page of its kind needs anyway:
 * - `app`: everything the entry imports statically (`$initial`: the login page, the router, the
 *   providers, the Mantine core they draw with) — one file beside the entry instead of ~17.
 * - `list`: what a guarded list page needs besides that, as the router loads it: the layout, the
 *   list engine (ListScreen), the list's query and what they import statically, down to Mantine's
 *   Table and inputs and the Query hooks — one file instead of ~30. Their menus and dialogs stay on
 *   first use (dynamic imports are not followed), and each feature's declarations stay their own chunk.
 * - `schemas`: zod with the contract's schemas, fetched beside a list's first request (its reader).
 * A screen that uses one module of a group downloads the whole group (the Overview takes `list` for
 * its layout), which every guarded screen needs nearly all of anyway.
 */
function routeGroups() {
  const src = (file: string) => path.join(import.meta.dirname, 'src', ...file.split('/'));
  const listPage = ['app/AppLayout.tsx', 'list/ListScreen.tsx', 'list/listQuery.ts'].map(src);
  let list: Set<string> | undefined;
  return [
    { name: 'app', tags: ['$initial' as const], priority: 2 },
    // zod with the contract's schemas: what a list's first request loads beside it (its reader), one
    // file rather than zod and five small contract chunks. Below `list`: the zod-free constants the
    // list and the entry import stay with them.
    {
      name: 'schemas',
      test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]packages[\\/]contract[\\/]src[\\/]/,
      priority: 0,
    },
    {
      debugName: 'list',
      name: (id: string, graph: ModuleGraph) => {
        list ??= staticClosure(graph, listPage);
        return list.has(id) ? 'list' : null;
      },
      priority: 1,
    },
  ];
}

export type ModuleGraph = {
  getModuleInfo(id: string): { code: string | null; importedIds: readonly string[] } | null;
};

/**
 * The modules `from` import statically, and theirs, in the bundler's module graph. A library's
 * index (`@mantine/core`, `@mantine/hooks`, `@tanstack/react-query`) imports every part of it: the
 * walk goes only to the parts a module takes from it by name (`import { Table } from '@mantine/core'`),
 * as tree-shaking does, else the group would hold all of Mantine.
 */
export function staticClosure(graph: ModuleGraph, from: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    const named = namedImports(info.code ?? '');
    for (const imported of info.importedIds) {
      const parts = barrelParts(graph, imported);
      const specifier =
        parts && [...named.keys()].find((spec) => imported.includes(`/node_modules/${spec}/`));
      const names = specifier === undefined ? undefined : named.get(specifier);
      if (!parts || !names) stack.push(imported);
      else for (const name of names) stack.push(...(parts.get(name) ?? [imported]));
    }
  }
  return seen;
}

/** `import { a, b as c } from 'x'` → x: [a, b]; a namespace or side-effect import of x → x: undefined. */
function namedImports(code: string): Map<string, string[] | undefined> {
  const named = new Map<string, string[] | undefined>();
  for (const [, list, spec] of code.matchAll(
    /import\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g,
  )) {
    const names = (list ?? '')
      .split(',')
      .map((part) => part.trim().split(/\s+as\s+/)[0] ?? '')
      .filter(Boolean);
    const before = named.get(spec ?? '');
    named.set(
      spec ?? '',
      before === undefined && named.has(spec ?? '') ? undefined : [...(before ?? []), ...names],
    );
  }
  for (const [, spec] of code.matchAll(/import\s+(?:\*\s+as\s+[\w$]+\s+from\s*)?["']([^"']+)["']/g)) {
    named.set(spec ?? '', undefined);
  }
  return named;
}

/**
 * A library's index that only imports its parts and exports them again: exported name → the part's
 * module. Undefined for any other module.
 */
function barrelParts(graph: ModuleGraph, id: string): Map<string, string[]> | undefined {
  if (!/[\\/]node_modules[\\/].*[\\/]index\.m?js$/.test(id)) return undefined;
  const code = graph.getModuleInfo(id)?.code ?? '';
  const rest = code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*(?:import|export)\s[^;]*;/gm, '')
    .replace(/^\s*["']use client["'];?/gm, '')
    .trim();
  if (rest !== '') return undefined;
  const local = new Map<string, string>();
  const parts = new Map<string, string[]>();
  const file = (spec: string) => path.resolve(path.dirname(id), spec);
  for (const [, list, spec] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](\.[^"']+)["']/g)) {
    for (const part of (list ?? '').split(',')) {
      const [name, as] = part.trim().split(/\s+as\s+/);
      if (name) local.set((as ?? name).trim(), file(spec ?? ''));
    }
  }
  for (const [, list, spec] of code.matchAll(/export\s*\{([^}]*)\}(?:\s*from\s*["'](\.[^"']+)["'])?/g)) {
    for (const part of (list ?? '').split(',')) {
      const [name, as] = part.trim().split(/\s+as\s+/);
      if (!name) continue;
      const target = spec ? file(spec) : local.get(name.trim());
      if (target) parts.set((as ?? name).trim(), [target]);
    }
  }
  return parts;
}

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
 * Two of Mantine's parts on every list page take one small piece of a library whose rest they do
 * not use, and the bundler then puts the whole library in the page's first download:
 * - ScrollArea (every table, through Table.ScrollContainer, and the layout) takes the hook
 *   `useMergeRefs` from @floating-ui/react — the positioning code of popovers and menus, 15 kB
 *   gzipped. It gets the same hook from @mantine/hooks instead, so floating-ui comes only with the
 *   menus that use it (fetched on first use, list/onFirstUse.tsx).
 * - AppShell's header, footer and aside take `RemoveScroll.classNames.zeroRight` — one class name —
 *   from react-remove-scroll (4 kB gzipped, the scroll lock of modals). They get the class names
 *   from react-remove-scroll-bar's constants, where react-remove-scroll itself reads them.
 */
function lighterMantineImports(): Plugin {
  const mergeRefs = '\0merge-refs';
  const removeScroll = '\0remove-scroll-class-names';
  return {
    name: 'obd-lighter-mantine-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      if (source === '@floating-ui/react' && /[\\/]components[\\/]ScrollArea[\\/]/.test(importer)) {
        return mergeRefs;
      }
      if (source === 'react-remove-scroll' && /[\\/]components[\\/]AppShell[\\/]/.test(importer)) {
        return removeScroll;
      }
      return null;
    },
    load(id) {
      // floating-ui's hook takes the refs as one array, Mantine's as arguments.
      if (id === mergeRefs) {
        return `import { useMergedRef } from '@mantine/hooks';
export function useMergeRefs(refs) { return useMergedRef(...refs); }
`;
      }
      if (id === removeScroll) {
        return `import { fullWidthClassName, zeroRightClassName } from 'react-remove-scroll-bar/constants';
export const RemoveScroll = { classNames: { fullWidth: fullWidthClassName, zeroRight: zeroRightClassName } };
`;
      }
      return null;
    },
  };
}
