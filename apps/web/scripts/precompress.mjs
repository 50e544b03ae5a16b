/**
 * Runs after `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every text file of
 * the build over 1 KB, so the server sends compressed files without compressing them on each
 * request (@fastify/static `preCompressed`). Both at their highest level: it costs seconds once per
 * build and saves bytes on every visit. Node's own zlib: no dependency.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.join(import.meta.dirname, '..', 'dist');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

let files = 0;
let before = 0;
let brotli = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const data = fs.readFileSync(file);
  if (data.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION }));
  files += 1;
  before += data.length;
  brotli += br.length;
}
const kb = (n) => `${Math.round(n / 1024)} kB`;
console.log(`Precompressed ${files} files: ${kb(before)} → ${kb(brotli)} brotli (and gzip beside).`);
