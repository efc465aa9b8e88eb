import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ZXING_WASM_VERSION } from 'barcode-detector/ponyfill';
import { expect, it } from 'vitest';

/**
 * The scan screen serves zxing-wasm's .wasm from our build, while barcode-detector carries its own
 * copy of the JavaScript that runs it: the two must be one release, or every read fails with
 * "memory access out of bounds".
 */
it('the zxing-wasm we serve is the release barcode-detector was built with', async () => {
  const wasm = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
  const manifest = path.join(
    wasm.slice(0, wasm.lastIndexOf('node_modules/zxing-wasm/') + 24),
    'package.json',
  );
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
  expect(version).toBe(ZXING_WASM_VERSION);
});
