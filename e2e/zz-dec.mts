import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
prepareZXingModule({ overrides: { wasmBinary: (await readFile(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'))).buffer }, fireImmediately: true });
for (const f of process.argv.slice(2)) {
  const { data, info } = await sharp(f).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const r = await readBarcodes({ data: new Uint8ClampedArray(data), width: info.width, height: info.height, colorSpace: 'srgb' } as ImageData, { formats: [] });
  console.log(f, r.map((x) => `${x.format} ${x.text}`));
}
