/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every file of the built client, so the
 * server sends them compressed without compressing per request (@fastify/static preCompressed).
 * Run after `vite build`: `node --import tsx scripts/precompress.ts [dir]` (default dist/client).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Formats that are compressed already: another pass only costs the client time. */
const COMPRESSED = /\.(br|gz|png|jpe?g|gif|webp|avif|woff2?|zip)$/i;

/** Files this small fit in one packet either way. */
const MIN_BYTES = 256;

const compressors = {
  // Once per build, so the slowest, smallest settings are worth it.
  br: (data: Buffer) =>
    promisify(brotliCompress)(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gz: (data: Buffer) => promisify(gzip)(data, { level: constants.Z_BEST_COMPRESSION }),
};

/** Compresses every file under `dir`; returns the files written. A copy no smaller is not kept. */
export async function precompress(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const written: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || COMPRESSED.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const data = await readFile(file);
    if (data.length < MIN_BYTES) continue;
    for (const [extension, compress] of Object.entries(compressors)) {
      const compressed = await compress(data);
      if (compressed.length >= data.length) continue;
      await writeFile(`${file}.${extension}`, compressed);
      written.push(`${file}.${extension}`);
    }
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? 'dist/client');
  const written = await precompress(dir);
  console.log(`precompress: ${written.length} files written under ${dir}`);
}
