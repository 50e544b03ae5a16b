/**
 * The scans list's first download by library, from a build made with vite.breakdown.config.ts
 * (see there): each chunk of that build is one library's (or the app's, or the contract's) part.
 *
 *   node apps/web/scripts/bundleBreakdown.mjs <dist folder of the breakdown build>
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROUTES, staticClosure } from './bundleBudget.mjs';

const dist = path.resolve(process.argv[2] ?? '/tmp/obd-breakdown');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const modules = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'modules.json'), 'utf8'));
const route = ROUTES.find((candidate) => candidate.route === '/ObdScanReport');
const keyOf = (module) =>
  manifest[module] ? module : Object.keys(manifest).find((key) => manifest[key].file === modules[module]);
const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const files = staticClosure(manifest, [entry, ...route.loads.map(keyOf)]);
const kB = (bytes) => (bytes / 1000).toFixed(1);
const rows = files
  .map((file) => {
    const data = fs.readFileSync(path.join(dist, file));
    const gz = zlib.gzipSync(data, { level: 9 }).length;
    return { name: path.basename(file).replace(/-[\w-]{8}\.js$/, ''), gz, raw: data.length };
  })
  .sort((a, b) => b.gz - a.gz);
const total = rows.reduce((sum, row) => ({ gz: sum.gz + row.gz, raw: sum.raw + row.raw }), { gz: 0, raw: 0 });
console.log(
  `${route.route}: ${kB(total.gz)} kB gzip (parts gzipped alone), ${kB(total.raw)} kB raw, ${rows.length} files`,
);
console.log('| Part | gzip | raw |\n|---|---:|---:|');
for (const row of rows) console.log(`| ${row.name} | ${kB(row.gz)} kB | ${kB(row.raw)} kB |`);
