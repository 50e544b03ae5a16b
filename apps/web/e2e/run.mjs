// End-to-end runner: starts the real server on a fresh SQLite database with the demo seed, drives
// the built web app (apps/web/dist, served by that server) in Chromium through the journeys, and
// prints `N passed, M failed`. `npm run test:e2e` builds the app first; this script builds nothing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { journeys } from './journeys/index.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const screenshotDir = path.join(repoRoot, 'test-results', 'e2e');
// The demo seed (30,000 scans) takes minutes on a busy machine: E2E_SERVER_START_TIMEOUT_MS raises the wait.
const SERVER_START_TIMEOUT_MS = Number(process.env.E2E_SERVER_START_TIMEOUT_MS ?? 180_000);
/** A name for the server as another machine would use it; Chromium maps it to 127.0.0.1. */
const HOST_NAME = 'obd-admin.test';
// `E2E_ONLY=<part of a journey's name>[,<another>…]` runs only the journeys whose name contains one.
const only = (process.env.E2E_ONLY ?? '').split(',').filter(Boolean);
const selected =
  only.length > 0 ? journeys.filter((journey) => only.some((part) => journey.name.includes(part))) : journeys;

async function main() {
  if (!fs.existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    console.error('apps/web/dist is missing: run `npm run build` first (npm run test:e2e does).');
    return 1;
  }
  fs.mkdirSync(screenshotDir, { recursive: true });
  // Failure screenshots of an earlier run would be mistaken for this run's.
  for (const file of fs.readdirSync(screenshotDir)) {
    if (file.startsWith('FAILED-')) fs.rmSync(path.join(screenshotDir, file));
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'obd-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer(port, dataDir);
  let browser;
  let failed = 0;
  let passed = 0;
  try {
    await waitForHealth(baseUrl, server);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1`,
      ],
    });
    for (const journey of selected) {
      const started = Date.now();
      const pages = [];
      const context = {
        baseUrl,
        /** The same server by host name, over plain HTTP, as opened from another machine. */
        hostUrl: `http://${HOST_NAME}:${port}`,
        /** A fresh browser profile (own storage) with one page; every page is screenshotted on failure. */
        async newPage(options = {}) {
          const browserContext = await browser.newContext({
            viewport: { width: 1366, height: 900 },
            ...options,
          });
          const page = await browserContext.newPage();
          page.setDefaultTimeout(15_000);
          pages.push(page);
          return page;
        },
        /** A full-page screenshot in test-results/e2e/<name>.png. */
        async screenshot(page, name) {
          await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
        },
      };
      try {
        await journey.run(context);
        passed += 1;
        console.log(`✓ ${journey.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      } catch (error) {
        failed += 1;
        console.log(`✗ ${journey.name}\n${indent(error?.stack ?? String(error))}`);
        for (const [i, page] of pages.entries()) {
          const file = path.join(screenshotDir, `FAILED-${slug(journey.name)}-${i + 1}.png`);
          await page.screenshot({ path: file, fullPage: true }).catch(() => {});
          console.log(`  page ${i + 1} was at ${page.url()} — screenshot ${path.relative(repoRoot, file)}`);
        }
      } finally {
        for (const page of pages)
          await page
            .context()
            .close()
            .catch(() => {});
      }
    }
  } catch (error) {
    // The server or the browser did not start: every journey counts as failed.
    console.error(error?.stack ?? String(error));
    failed = selected.length - passed;
  } finally {
    await browser?.close().catch(() => {});
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed > 0) console.log(`\nServer output (last lines):\n${indent(server.output.slice(-4000))}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

function startServer(port, dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'e2e.sqlite')}`,
      SEED: 'demo',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, output: '', exited: false };
  const collect = (chunk) => {
    server.output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  child.on('exit', () => {
    server.exited = true;
  });
  return server;
}

async function waitForHealth(baseUrl, server) {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exited) throw new Error(`The server exited during start:\n${server.output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet (migrating and seeding on first start).
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `The server did not answer ${baseUrl}/api/health within ${SERVER_START_TIMEOUT_MS / 1000} s`,
  );
}

async function stopServer(server) {
  if (server.exited) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function slug(name) {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function indent(text) {
  return text.replace(/^/gm, '    ');
}

process.exitCode = await main();
