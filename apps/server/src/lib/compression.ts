import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Compresses answers of 1 KB or more for clients that accept it: a page of 30 scans is 10.5 kB of
 * JSON and 2.7 kB gzipped. gzip first: on these answers it is as small as brotli at quality 4 and
 * costs less CPU (bench/RESULTS.md, "compression"); brotli for clients that take only that. The
 * response cache keeps each answer's gzipped copy, so a repeated answer is compressed once.
 * Answers up to 64 KB are compressed in one call rather than through a zlib stream, which costs
 * more in setup than the compression itself at these sizes.
 *
 * Not compressed: the web app's files (already .br/.gz from the build), downloads (a route says
 * `compress: false`: XLSX is a zip already, and a slow reader must stay visible to the export's
 * send timeout). Compressed request bodies are refused (415): nothing the app sends is
 * compressed, and a small compressed body could inflate to far more than the body limit meant.
 *
 * Registered after the response cache, so that the cache keeps the JSON text.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_MIN_BYTES,
    syncThreshold: 65536,
    encodings: ['gzip', 'br'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    requestEncodings: ['identity'],
  });
}
