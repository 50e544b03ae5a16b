/**
 * Web vitals of the built app (issue 14 item 6): Chromium (playwright-core, /usr/bin/chromium)
 * against the real server as `npm start` runs it, on the demo data, for the login page and the
 * scans list. For each page, cold cache (a fresh browser profile per load) and warm cache (the
 * same profile, loaded once before): the time to the first rows (for the login page, to its form)
 * and the largest contentful paint (PerformanceObserver 'largest-contentful-paint'), both from the
 * start of the navigation, and the JavaScript the load fetched (transfer and decoded sizes).
 *
 *   node --import tsx bench/webVitals.ts        (BENCH_RUNS=<n> loads per case, default 7;
 *                                                BENCH_SKIP_BUILD=1 uses apps/web/dist as it is;
 *                                                BENCH_PAGES=scans only the pages whose name
 *                                                contains one of these comma-separated words;
 *                                                BENCH_SCREENSHOTS=<folder> also saves each page,
 *                                                light and dark, once loaded)
 */
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { run, signIn, startServer } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

interface PageCase {
  name: string;
  path: string;
  /** What "first rows" means on the page: the element whose appearance is timed. */
  ready: string;
  signedIn: boolean;
}

const PAGES: PageCase[] = [
  { name: 'login page', path: '/login', ready: 'button[type="submit"]', signedIn: false },
  { name: 'scans list', path: '/ObdScanReport', ready: 'table tbody tr', signedIn: true },
].filter(
  (page) =>
    !process.env.BENCH_PAGES ||
    process.env.BENCH_PAGES.split(',').some((word) => word.trim() && page.name.includes(word.trim())),
);

interface Load {
  firstRowsMs: number;
  lcpMs: number;
  /** CPU time of the page's main thread until then (Chromium's ThreadTime): what a busy machine stretches. */
  mainThreadCpuMs: number;
  jsFiles: number;
  jsTransferKb: number;
  jsDecodedKb: number;
  /** API requests by path (without the query) until then: the list's must be asked once. */
  api: Record<string, number>;
  /** JavaScript files fetched whose name starts with one of WATCHED_CHUNKS (none expected). */
  watched: string[];
  /**
   * How many waves the JavaScript came in: a file asked for only after a file of the previous wave
   * had arrived starts a new one (a chain of lazy chunks is many waves; preloading makes them few).
   */
  jsWaves: number;
  /** When the last JavaScript file of the load had arrived, from the start of the navigation. */
  jsDoneMs: number;
}

/** Chunks a list's first load must not fetch: the search palette and the other screens' declarations. */
const WATCHED_CHUNKS = ['SearchPalette', 'Spotlight', 'links', 'importHistory'];

/**
 * Runs in the page before its scripts: notes when `selector` first matches (a MutationObserver,
 * so the time is the DOM's, not a round trip of the test's) and keeps the largest contentful paint.
 */
function observeScript(selector: string): string {
  return `(() => {
    const w = window;
    w.__vitals = { firstRows: null, lcp: null };
    const check = () => {
      if (w.__vitals.firstRows === null && document.querySelector(${JSON.stringify(selector)})) {
        w.__vitals.firstRows = performance.now();
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      const last = entries[entries.length - 1];
      if (last) w.__vitals.lcp = last.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  })();`;
}

/**
 * The browser globals used by the functions that run inside the page (this file is compiled with
 * Node's types only). Written out in each function: they are serialised, so no helper reaches them.
 */
type PageGlobals = {
  localStorage: { setItem(key: string, value: string): void };
  requestAnimationFrame(callback: () => void): void;
  __vitals: { firstRows: number; lcp: number | null };
};
type ResourceEntry = {
  name: string;
  transferSize: number;
  decodedBodySize: number;
  startTime: number;
  responseEnd: number;
};

/** The waves of `files` (see `Load.jsWaves`), in the order they were asked for. */
export function waves(files: readonly { startTime: number; responseEnd: number }[]): number {
  const sorted = [...files].sort((a, b) => a.startTime - b.startTime);
  let count = 0;
  let firstArrival = Number.NEGATIVE_INFINITY;
  for (const file of sorted) {
    if (count === 0 || file.startTime > firstArrival) {
      count += 1;
      firstArrival = file.responseEnd;
    } else firstArrival = Math.min(firstArrival, file.responseEnd);
  }
  return count;
}

async function newContext(
  browser: Browser,
  token: string | undefined,
  page: PageCase,
  colorScheme: 'light' | 'dark' = 'light',
) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme });
  if (page.signedIn && token) {
    await context.addInitScript(
      (value) => (globalThis as unknown as PageGlobals).localStorage.setItem('token', value),
      token,
    );
  }
  await context.addInitScript(observeScript(page.ready));
  return context;
}

async function load(context: BrowserContext, url: string, selector: string): Promise<Load> {
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Performance.enable');
  try {
    await tab.goto(url, { waitUntil: 'commit' });
    await tab.waitForSelector(selector, { timeout: 30_000 });
    const { metrics } = await cdp.send('Performance.getMetrics');
    const mainThreadCpuMs =
      (metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? Number.NaN) * 1000;
    // The LCP entry is final once the page has painted after the content; give it two frames.
    await tab.evaluate(
      () =>
        new Promise<void>((resolve) =>
          (globalThis as unknown as PageGlobals).requestAnimationFrame(() =>
            (globalThis as unknown as PageGlobals).requestAnimationFrame(resolve),
          ),
        ),
    );
    const page = await tab.evaluate(() => {
      const vitals = (globalThis as unknown as PageGlobals).__vitals;
      const js = (performance.getEntriesByType('resource') as unknown as ResourceEntry[]).filter((entry) =>
        entry.name.endsWith('.js'),
      );
      const api: Record<string, number> = {};
      for (const entry of performance.getEntriesByType('resource') as unknown as ResourceEntry[]) {
        const url = new URL(entry.name);
        if (url.pathname.startsWith('/api/')) api[url.pathname] = (api[url.pathname] ?? 0) + 1;
      }
      return {
        api,
        timings: js.map((entry) => ({ startTime: entry.startTime, responseEnd: entry.responseEnd })),
        files: js.map((entry) => new URL(entry.name).pathname.split('/').pop() ?? ''),
        firstRowsMs: vitals.firstRows,
        lcpMs: vitals.lcp ?? Number.NaN,
        jsFiles: js.length,
        jsTransferKb: js.reduce((sum, entry) => sum + entry.transferSize, 0) / 1000,
        jsDecodedKb: js.reduce((sum, entry) => sum + entry.decodedBodySize, 0) / 1000,
      };
    });
    const { files, timings, ...rest } = page;
    const watched = files.filter((file) => WATCHED_CHUNKS.some((name) => file.startsWith(`${name}-`)));
    const jsDoneMs = Math.max(0, ...timings.map((timing) => timing.responseEnd));
    return { ...rest, watched, mainThreadCpuMs, jsWaves: waves(timings), jsDoneMs };
  } finally {
    await tab.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

type NumericKey = { [K in keyof Load]: Load[K] extends number ? K : never }[keyof Load];

function summary(name: string, cache: string, loads: Load[]): string {
  const pick = (key: NumericKey) => loads.map((entry) => entry[key]);
  const ms = (values: number[]) =>
    `median ${Math.round(median(values))} ms, max ${Math.round(Math.max(...values))} ms`;
  const last = loads.at(-1);
  const api = Object.entries(last?.api ?? {})
    .map(([path, count]) => `${path} ×${count}`)
    .join(', ');
  const watched = [...new Set(loads.flatMap((entry) => entry.watched))];
  return `${name.padEnd(10)} ${cache.padEnd(4)} cache: API asked (last load) ${api || 'nothing'}; palette/other chunks fetched: ${watched.join(', ') || 'none'}; first rows ${ms(pick('firstRowsMs'))}; LCP ${ms(pick('lcpMs'))}; main-thread CPU ${ms(pick('mainThreadCpuMs'))}; JS ${median(pick('jsFiles'))} files, ${median(pick('jsTransferKb')).toFixed(1)} kB transferred (${median(pick('jsDecodedKb')).toFixed(1)} kB decoded) in ${median(pick('jsWaves'))} waves, the last in at ${ms(pick('jsDoneMs'))}; ${loads.length} loads`;
}

export async function benchWebVitals(): Promise<string[]> {
  if (!process.env.BENCH_SKIP_BUILD) await run('npm', ['run', 'build']);
  const server = await startServer(`sqlite:${path.join(os.tmpdir(), 'obd-bench-demo.sqlite')}`, {
    SEED: 'demo',
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const lines: string[] = [];
  try {
    const { authorization = '' } = await signIn(server.url);
    const token = authorization.replace(/^Bearer /, '');
    for (const page of PAGES) {
      const url = `${server.url}${page.path}`;
      const cold: Load[] = [];
      const warm: Load[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const fresh = await newContext(browser, token, page);
        try {
          cold.push(await load(fresh, url, page.ready));
        } finally {
          await fresh.close();
        }
      }
      const context = await newContext(browser, token, page);
      try {
        await load(context, url, page.ready); // fills the cache
        for (let i = 0; i < RUNS; i += 1) warm.push(await load(context, url, page.ready));
      } finally {
        await context.close();
      }
      for (const [cache, loads] of [
        ['cold', cold],
        ['warm', warm],
      ] as const) {
        const line = summary(page.name, cache, loads);
        console.log(line);
        lines.push(line);
      }
    }
    const shots = process.env.BENCH_SCREENSHOTS;
    if (shots) {
      for (const page of PAGES) {
        for (const scheme of ['light', 'dark'] as const) {
          const context = await newContext(browser, token, page, scheme);
          try {
            const tab = await context.newPage();
            await tab.goto(`${server.url}${page.path}`);
            await tab.waitForSelector(page.ready, { timeout: 30_000 });
            const file = path.join(shots, `${page.name.replace(/\W+/g, '-')}-${scheme}.png`);
            await tab.screenshot({ path: file });
            console.log(`screenshot ${file}`);
          } finally {
            await context.close();
          }
        }
      }
    }
    const machine = `machine load ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} (${os.cpus().length} cores)`;
    console.log(machine);
    lines.push(machine);
  } finally {
    await browser.close();
    await server.stop();
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWebVitals();
