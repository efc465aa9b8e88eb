import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { precompress } from '../../../scripts/precompress.js';

describe('scripts/precompress (run by npm run build:client)', () => {
  it('writes a .br and a .gz beside each text file, and leaves images and tiny files alone', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'stockroom-precompress-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await mkdir(path.join(dir, 'assets'));
    const script = `export const a = ${JSON.stringify('stockroom '.repeat(300))};`;
    const css = `.a{color:red}\n`.repeat(100);
    const html = `<!doctype html><title>Stockroom</title>${'<p>x</p>'.repeat(100)}`;
    await writeFile(path.join(dir, 'index.html'), html);
    await writeFile(path.join(dir, 'assets', 'index-abc.js'), script);
    await writeFile(path.join(dir, 'assets', 'index-abc.css'), css);
    await writeFile(path.join(dir, 'assets', 'logo.webp'), Buffer.alloc(2000));
    await writeFile(path.join(dir, 'favicon.txt'), 'tiny');

    await precompress(dir);

    const files = (await readdir(dir, { recursive: true })).map((f) => f.split(path.sep).join('/'));
    expect(files.sort()).toEqual(
      [
        'assets',
        'assets/index-abc.css',
        'assets/index-abc.css.br',
        'assets/index-abc.css.gz',
        'assets/index-abc.js',
        'assets/index-abc.js.br',
        'assets/index-abc.js.gz',
        'assets/logo.webp',
        'favicon.txt',
        'index.html',
        'index.html.br',
        'index.html.gz',
      ].sort(),
    );
    for (const [name, text] of [
      ['index.html', html],
      ['assets/index-abc.js', script],
      ['assets/index-abc.css', css],
    ] as const) {
      const file = path.join(dir, name);
      expect(brotliDecompressSync(await readFile(`${file}.br`)).toString()).toBe(text);
      expect(gunzipSync(await readFile(`${file}.gz`)).toString()).toBe(text);
    }
  });
});
